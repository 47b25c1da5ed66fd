package dev.gauntlet.loadgen.transport;

import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.hpack.HpackDecoder;
import org.eclipse.jetty.http2.hpack.HpackException;

import java.nio.ByteBuffer;

/**
 * One HTTP/2 connection's HPACK decoding of its response header blocks (RFC 7541), for their {@code :status}: Jetty's
 * decoder, with the dynamic table of {@link Http2Frames#HEADER_TABLE_SIZE} the client's SETTINGS allow and Huffman
 * coding, as real servers write them (Helidon, Netty and nghttpd put their response fields in the table and refer to
 * them afterwards). The table is the connection's: every block is decoded in the order it arrived, whatever its stream,
 * and a block that breaks HPACK leaves the table unknown, so it ends the connection.
 *
 * <pre>{@code
 * HpackStatus headers = new HpackStatus();     // one per connection
 * int status = headers.of(block);              // 200, NONE (trailers), MALFORMED or INVALID
 * }</pre>
 */
final class HpackStatus {
    /** The block breaks HPACK: a connection error (COMPRESSION_ERROR). */
    static final int MALFORMED = -1;
    /** Valid HPACK, but not a response's fields (a request's pseudo-header, a status that is no number): the stream's error. */
    static final int INVALID = -2;
    /** The block has no {@code :status}: trailers. */
    static final int NONE = 0;
    /** A header list decoded larger than this is refused, as an HTTP/1.1 response's head larger than 64 KiB is. */
    static final int MAX_HEADER_LIST_BYTES = 64 * 1024;

    private final HpackDecoder decoder;

    HpackStatus() {
        // The decoder would stamp each block with the time it began; the engine times a response by its last frame.
        decoder = new HpackDecoder(MAX_HEADER_LIST_BYTES, () -> 0L);
        decoder.setMaxTableCapacity(Http2Frames.HEADER_TABLE_SIZE);
    }

    /**
     * The {@code :status} of the header block between {@code block}'s position and limit, which it consumes; or
     * {@link #NONE}, {@link #MALFORMED}, {@link #INVALID}.
     */
    int of(ByteBuffer block) {
        try {
            MetaData fields = decoder.decode(block);
            if (!(fields instanceof MetaData.Response response)) {
                return NONE;
            }
            return response.getStatus() >= 100 && response.getStatus() <= 999 ? response.getStatus() : INVALID;
        } catch (HpackException.StreamException e) {
            return INVALID;
        } catch (HpackException.SessionException | RuntimeException e) {
            // A runtime exception is the decoder's reaction to bytes it cannot read (a block cut short): broken all the same.
            return MALFORMED;
        }
    }
}
