package dev.gauntlet.loadgen.transport;

import java.nio.channels.SelectionKey;

/**
 * What the lean engine sends one request at a time on, and the request it carries, if any: over HTTP/1.1 a keep-alive
 * connection of its own ({@link #wire}, {@link #parser}); over HTTP/2 a stream slot of a shared connection
 * ({@link #session}, a new stream per request). Owned by the event loop; the links put it in exactly one of the
 * engine's lists at a time.
 */
final class Connection {
    static final int CONNECTING = 0;
    static final int IDLE = 1;
    static final int BUSY = 2;
    static final int CLOSED = 3;

    int state = CONNECTING;

    boolean hasRequest;
    long intendedStartNs;
    long sendNs;
    /** HTTP/1.1: when the first byte of the answer to its request arrived; 0 until it did. */
    long firstByteNs;
    /** Connect or response deadline, whichever the current state waits for. */
    long deadlineNs;

    /** HTTP/1.1: its own socket, its selection key, its response parser, and whether its TLS handshake is under way. */
    final Wire wire;
    final ResponseParser parser;
    SelectionKey key;
    boolean awaitingWritable;

    /**
     * HTTP/2: the connection whose stream slot it is, the stream of its request (0 while it has none), and its response
     * so far: the status (0 until the final one's headers), the body bytes, whether they departed from the expected.
     */
    final Http2Session session;
    int streamId;
    int status;
    long bodyBytes;
    boolean bodyDiffers;

    ConnectionList list;
    Connection previous;
    Connection next;

    /** An HTTP/1.1 connection. */
    Connection(Wire wire, ResponseParser parser) {
        this.wire = wire;
        this.parser = parser;
        this.session = null;
    }

    /** A stream slot of an HTTP/2 connection. */
    Connection(Http2Session session) {
        this.wire = null;
        this.parser = null;
        this.session = session;
    }
}
