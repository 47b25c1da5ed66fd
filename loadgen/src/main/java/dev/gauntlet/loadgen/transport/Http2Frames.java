package dev.gauntlet.loadgen.transport;

import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.loadgen.engine.ClientSettings;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The HTTP/2 frames the lean engine writes (RFC 9113), each encoded once where it can be: the connection preface with
 * the client's settings, the request's HEADERS frame (its stream id patched per request), and the few control frames it
 * answers with.
 *
 * <p>The client's settings: no server push; a header table of {@link #HEADER_TABLE_SIZE}, the protocol's default, for
 * the fields the server indexes in its responses ({@link HpackStatus} decodes them); and the largest receive windows, the
 * connection's opened by a WINDOW_UPDATE at once and topped up as DATA arrives, so the server never waits on this client
 * for flow control. The request's header block needs no Huffman coding and is pre-encoded three ways
 * ({@link RequestFrames}): a connection's first request puts its fields in the server's dynamic table and the later
 * ones refer to them, as real clients do, so the server decodes five bytes per request and not the whole URL.
 */
final class Http2Frames {
    static final int FRAME_HEADER_BYTES = 9;
    static final int DATA = 0x0;
    static final int HEADERS = 0x1;
    static final int PRIORITY = 0x2;
    static final int RST_STREAM = 0x3;
    static final int SETTINGS = 0x4;
    static final int PUSH_PROMISE = 0x5;
    static final int PING = 0x6;
    static final int GOAWAY = 0x7;
    static final int WINDOW_UPDATE = 0x8;
    static final int CONTINUATION = 0x9;

    static final int FLAG_END_STREAM = 0x1;
    static final int FLAG_ACK = 0x1;
    static final int FLAG_END_HEADERS = 0x4;
    static final int FLAG_PADDED = 0x8;
    static final int FLAG_PRIORITY = 0x20;

    static final int SETTINGS_HEADER_TABLE_SIZE = 0x1;
    static final int SETTINGS_ENABLE_PUSH = 0x2;
    static final int SETTINGS_MAX_CONCURRENT_STREAMS = 0x3;
    static final int SETTINGS_INITIAL_WINDOW_SIZE = 0x4;

    /** The largest frame payload this client accepts: the protocol's default, which it does not raise. */
    static final int MAX_FRAME_PAYLOAD = 16_384;
    static final int MAX_WINDOW = Integer.MAX_VALUE;
    /** The connection's window is topped up once this much of it was used. */
    static final int WINDOW_TOP_UP = 1 << 30;
    /** RFC 9113's default window, which the connection has before its first WINDOW_UPDATE. */
    private static final int DEFAULT_WINDOW = 65_535;

    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);
    /** HPACK static table indices (RFC 7541, appendix A). */
    private static final int METHOD_GET = 2;
    private static final int SCHEME_HTTP = 6;
    private static final int SCHEME_HTTPS = 7;
    private static final int AUTHORITY = 1;
    private static final int PATH = 4;
    private static final int USER_AGENT = 58;
    /** What each dynamic table entry takes beyond its name and value (RFC 7541, 4.1). */
    private static final int ENTRY_OVERHEAD = 32;
    private static final int FIRST_DYNAMIC_INDEX = 62;
    /** The server's dynamic table until its SETTINGS say otherwise (RFC 9113, 6.5.2). */
    static final int DEFAULT_HEADER_TABLE_SIZE = 4_096;
    /** The client's dynamic table for the server's response fields: the default, as h2load, curl and browsers keep. */
    static final int HEADER_TABLE_SIZE = DEFAULT_HEADER_TABLE_SIZE;

    private Http2Frames() {
    }

    /** The preface, the client's settings and the connection window opened: what a connection starts with. */
    static byte[] connectionStart() {
        ByteBuffer start = ByteBuffer.allocate(PREFACE.length + FRAME_HEADER_BYTES + 3 * 6 + FRAME_HEADER_BYTES + 4);
        start.put(PREFACE);
        header(start, 3 * 6, SETTINGS, 0, 0);
        start.putShort((short) SETTINGS_ENABLE_PUSH).putInt(0);
        start.putShort((short) SETTINGS_HEADER_TABLE_SIZE).putInt(HEADER_TABLE_SIZE);
        start.putShort((short) SETTINGS_INITIAL_WINDOW_SIZE).putInt(MAX_WINDOW);
        windowUpdate(start, MAX_WINDOW - DEFAULT_WINDOW);
        return start.array();
    }

    /**
     * The request's HEADERS frame three ways (RFC 7541), each ending the stream (a GET has no body) and pre-encoded with
     * stream id 0, which {@link Http2Io} patches per request: {@code inserting} adds the {@code :path},
     * {@code :authority} and {@code user-agent} to the server's dynamic table (a connection's first request, as
     * browsers, curl and h2load do); {@code indexed} refers to them there (every later request: five bytes of header
     * block for the server to decode); {@code literal} spells them out without indexing (a server whose table has no
     * room for them).
     *
     * @param tableBytes what the three entries take in the server's table (RFC 7541, 4.1)
     */
    record RequestFrames(byte[] inserting, byte[] indexed, byte[] literal, int tableBytes) {
    }

    static RequestFrames requestFrames(LoadSpec spec) {
        String path = spec.url().getRawPath() == null || spec.url().getRawPath().isEmpty() ? "/" : spec.url().getRawPath();
        String query = spec.url().getRawQuery() == null ? "" : "?" + spec.url().getRawQuery();
        String authority = spec.url().getPort() < 0 ? spec.url().getHost() : spec.url().getHost() + ":" + spec.url().getPort();
        int scheme = spec.tls() ? SCHEME_HTTPS : SCHEME_HTTP;
        String[] values = {path + query, authority, ClientSettings.USER_AGENT};
        int[] names = {PATH, AUTHORITY, USER_AGENT};
        // The names as the table accounts for them (RFC 7541, 4.1): their static entries' names.
        String[] nameTexts = {":path", ":authority", "user-agent"};
        ByteArrayOutputStream inserting = pseudoHeaders(scheme);
        ByteArrayOutputStream indexed = pseudoHeaders(scheme);
        ByteArrayOutputStream literal = pseudoHeaders(scheme);
        int tableBytes = 0;
        for (int i = 0; i < names.length; i++) {
            literal(inserting, 0x40, 6, names[i], values[i]);
            literal(literal, 0x00, 4, names[i], values[i]);
            tableBytes += nameTexts[i].length() + values[i].length() + ENTRY_OVERHEAD;
        }
        // Each insertion takes the first dynamic index and moves the earlier ones up: the last inserted is at 62.
        for (int i = 0; i < names.length; i++) {
            integer(indexed, 0x80, 7, FIRST_DYNAMIC_INDEX + names.length - 1 - i);
        }
        return new RequestFrames(headersFrame(inserting.toByteArray()), headersFrame(indexed.toByteArray()),
                headersFrame(literal.toByteArray()), tableBytes);
    }

    /**
     * {@code frame} (a HEADERS frame of {@link #requestFrames}) with its header block led by a dynamic table size update
     * to {@code tableSize}: what the first header block after the server lowered its table must start with (RFC 7541,
     * 4.2). Rare, so made when needed.
     */
    static byte[] withTableSizeUpdate(byte[] frame, int tableSize) {
        ByteArrayOutputStream update = new ByteArrayOutputStream();
        integer(update, 0x20, 5, tableSize);
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.writeBytes(update.toByteArray());
        block.write(frame, FRAME_HEADER_BYTES, frame.length - FRAME_HEADER_BYTES);
        return headersFrame(block.toByteArray());
    }

    private static ByteArrayOutputStream pseudoHeaders(int scheme) {
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.write(0x80 | METHOD_GET);
        block.write(0x80 | scheme);
        return block;
    }

    private static byte[] headersFrame(byte[] headerBlock) {
        if (headerBlock.length > MAX_FRAME_PAYLOAD) {
            throw new IllegalArgumentException("the request's headers take " + headerBlock.length
                    + " bytes, more than one HTTP/2 frame; shorten the URL");
        }
        ByteBuffer frame = ByteBuffer.allocate(FRAME_HEADER_BYTES + headerBlock.length);
        header(frame, headerBlock.length, HEADERS, FLAG_END_STREAM | FLAG_END_HEADERS, 0);
        return frame.put(headerBlock).array();
    }

    static void header(ByteBuffer into, int length, int type, int flags, int streamId) {
        into.put((byte) (length >>> 16)).put((byte) (length >>> 8)).put((byte) length)
                .put((byte) type).put((byte) flags).putInt(streamId);
    }

    /** An RST_STREAM ending {@code streamId} with {@code errorCode}. */
    static void rstStream(ByteBuffer into, int streamId, int errorCode) {
        header(into, 4, RST_STREAM, 0, streamId);
        into.putInt(errorCode);
    }

    /** A WINDOW_UPDATE of the connection's window. */
    static void windowUpdate(ByteBuffer into, int increment) {
        header(into, 4, WINDOW_UPDATE, 0, 0);
        into.putInt(increment);
    }

    /** A literal field whose name is a static table entry: without indexing (high bits 0000) or indexed (01). */
    private static void literal(ByteArrayOutputStream block, int high, int prefixBits, int nameIndex, String value) {
        integer(block, high, prefixBits, nameIndex);
        byte[] bytes = value.getBytes(StandardCharsets.US_ASCII);
        integer(block, 0x00, 7, bytes.length);
        block.writeBytes(bytes);
    }

    /** An HPACK integer with an N-bit prefix (RFC 7541, 5.1), after the first byte's {@code high} bits. */
    private static void integer(ByteArrayOutputStream block, int high, int prefixBits, int value) {
        int max = (1 << prefixBits) - 1;
        if (value < max) {
            block.write(high | value);
            return;
        }
        block.write(high | max);
        int rest = value - max;
        while (rest >= 0x80) {
            block.write((rest & 0x7f) | 0x80);
            rest >>>= 7;
        }
        block.write(rest);
    }
}
