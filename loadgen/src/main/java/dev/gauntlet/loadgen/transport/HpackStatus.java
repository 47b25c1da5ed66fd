package dev.gauntlet.loadgen.transport;

import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.MetaData;
import org.eclipse.jetty.http2.hpack.HpackContext;
import org.eclipse.jetty.http2.hpack.HpackDecoder;
import org.eclipse.jetty.http2.hpack.HpackException;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;

/**
 * One HTTP/2 connection's HPACK decoding of its response header blocks (RFC 7541), for their {@code :status}: Jetty's
 * decoder, with the dynamic table of {@link Http2Frames#HEADER_TABLE_SIZE} the client's SETTINGS allow and Huffman
 * coding, as real servers write them (Helidon, Netty and nghttpd put their response fields in the table and refer to
 * them afterwards). The table is the connection's: every block is decoded in the order it arrived, whatever its stream,
 * and a block that breaks HPACK leaves the table unknown, so it ends the connection.
 *
 * <p>A block that came twice in a row and left the table as it found it the second time is kept with its status: the
 * same bytes from the same table decode to the same status and leave the same table, so while they keep coming they
 * are not decoded again. nginx's responses insert the same Huffman-coded fields each time (the table, once full of
 * them, stays as it is) until the date changes, once a second; Helidon's refer to fields it inserted once. Decoding
 * them was a fifth of the engine's CPU over h2 against nginx.
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

    /** A block longer than this is neither kept nor compared: a connection's memory stays small whatever its server writes. */
    private static final int MAX_KEPT_BYTES = 256;

    private final HpackDecoder decoder;
    /** The last block decoded, if it was short enough to keep; empty at first. */
    private final ByteBuffer last = ByteBuffer.allocate(MAX_KEPT_BYTES).limit(0);
    /** Whether {@link #last} left the table as it found it, so that the same bytes decode to {@link #lastStatus} again. */
    private boolean lastKept;
    private int lastStatus;

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
        boolean again = last.hasRemaining() && block.mismatch(last) < 0;
        if (again && lastKept) {
            block.position(block.limit());
            return lastStatus;
        }
        List<String> tableBefore = again ? tableFields() : null;
        keepAsLast(block);
        lastStatus = decoded(block);
        lastKept = again && lastStatus >= NONE && tableFields().equals(tableBefore);
        return lastStatus;
    }

    private void keepAsLast(ByteBuffer block) {
        last.clear();
        if (block.remaining() <= MAX_KEPT_BYTES) {
            last.put(block.duplicate());
        }
        last.flip();
    }

    /** The dynamic table's fields, newest first, each as its name and value. */
    private List<String> tableFields() {
        HpackContext table = decoder.getHpackContext();
        List<String> fields = new ArrayList<>(table.size());
        for (int i = 1; i <= table.size(); i++) {
            HttpField field = table.get(HpackContext.STATIC_SIZE + i).getHttpField();
            fields.add(field.getName() + ": " + field.getValue());
        }
        return fields;
    }

    private int decoded(ByteBuffer block) {
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
