package dev.gauntlet.loadgen.transport;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadSpec;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.charset.StandardCharsets;

/**
 * HTTP/1.1 for the lean engine: each {@link Connection} a socket of its own, in clear or through TLS ({@link Wire});
 * writes the pre-encoded request, reads and parses what arrives ({@link ResponseParser}).
 */
public final class Http1Io implements ConnectionIo {

    private final Selector selector;
    private final Dialer dialer;
    private final byte[] expectedBody;
    private final Events events;
    private final ByteBuffer request;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);

    /** @param expectedBody the body a correct response carries, compared as it is read; null: any */
    Http1Io(LoadSpec spec, Selector selector, Dialer dialer, byte[] expectedBody, Events events) {
        this.selector = selector;
        this.dialer = dialer;
        this.expectedBody = expectedBody;
        this.events = events;
        byte[] requestAscii = requestBytes(spec).getBytes(StandardCharsets.US_ASCII);
        this.request = ByteBuffer.allocateDirect(requestAscii.length).put(requestAscii).flip();
    }

    public static String requestBytes(LoadSpec spec) {
        String path = spec.url().getRawPath() == null || spec.url().getRawPath().isEmpty() ? "/" : spec.url().getRawPath();
        String query = spec.url().getRawQuery() == null ? "" : "?" + spec.url().getRawQuery();
        String host = spec.url().getPort() < 0 ? spec.url().getHost() : spec.url().getHost() + ":" + spec.url().getPort();
        return "GET " + path + query + " HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: gauntlet\r\n"
                + (spec.newConnectionPerRequest() ? "Connection: close\r\n" : "") + "\r\n";
    }

    @Override
    public Connection open() throws IOException {
        Wire wire = dialer.dial();
        try {
            Connection connection = new Connection(wire, new ResponseParser(expectedBody));
            connection.key = wire.channel.register(selector, SelectionKey.OP_CONNECT, connection);
            if (wire.channel.isConnected() && dialer.advance(wire, connection.key, 0)) {
                connection.state = Connection.IDLE;
            }
            return connection;
        } catch (IOException | Dialer.Failed e) {
            wire.close();
            throw e instanceof IOException io ? io : new IOException(e.getMessage(), e);
        }
    }

    @Override
    public void onReady(SelectionKey key) {
        Connection connection = (Connection) key.attachment();
        if (!key.isValid() || connection.state == Connection.CLOSED) {
            return;
        }
        int ready = key.readyOps();
        if (connection.state == Connection.CONNECTING) {
            advanceConnect(connection, ready);
            return;
        }
        if ((ready & SelectionKey.OP_WRITE) != 0) {
            flush(connection);
        }
        if ((ready & SelectionKey.OP_READ) != 0 && connection.state != Connection.CLOSED) {
            onReadable(connection);
        }
    }

    /** The connect, then the TLS handshake, as far as they go; the connection is connected once both are done. */
    private void advanceConnect(Connection connection, int ready) {
        try {
            if (!dialer.advance(connection.wire, connection.key, ready)) {
                return;
            }
        } catch (Dialer.Failed e) {
            events.failed(connection, e.errorClass);
            return;
        }
        events.connected(connection);
    }

    @Override
    public void write(Connection connection) {
        try {
            request.clear();
            connection.wire.write(request);
        } catch (IOException e) {
            events.failed(connection, ErrorClass.RESET);
            return;
        }
        awaitWritable(connection, connection.wire.hasUnsent());
    }

    private void flush(Connection connection) {
        try {
            awaitWritable(connection, !connection.wire.flush());
        } catch (IOException e) {
            events.failed(connection, ErrorClass.RESET);
        }
    }

    /** Interest changes cost a system call: only a partial write (rare) asks for OP_WRITE. */
    private static void awaitWritable(Connection connection, boolean unsent) {
        if (unsent != connection.awaitingWritable) {
            connection.awaitingWritable = unsent;
            connection.key.interestOps(unsent ? SelectionKey.OP_READ | SelectionKey.OP_WRITE : SelectionKey.OP_READ);
        }
    }

    @Override
    public int socketsPeak(int connectionsPeak) {
        return connectionsPeak;
    }

    @Override
    public void release(Connection connection) {
        connection.key.cancel();
        connection.wire.close();
    }

    private void onReadable(Connection connection) {
        while (true) {
            readBuffer.clear();
            int n;
            try {
                n = connection.wire.read(readBuffer);
            } catch (IOException e) {
                events.failed(connection, ErrorClass.RESET);
                return;
            }
            ResponseParser parser = connection.parser;
            if (n < 0) {
                if (!connection.hasRequest) {
                    events.close(connection);
                } else if (parser.onEndOfStream() == ResponseParser.Result.COMPLETE) {
                    answered(connection, true);
                } else {
                    events.failed(connection, ErrorClass.RESET);
                }
                return;
            }
            if (n == 0) {
                return;
            }
            readBuffer.flip();
            if (connection.state != Connection.BUSY) {
                // Bytes nobody asked for: the connection's framing can no longer be trusted.
                events.close(connection);
                return;
            }
            if (connection.firstByteNs == 0) {
                connection.firstByteNs = System.nanoTime();
            }
            switch (parser.parse(readBuffer)) {
                case MALFORMED -> {
                    events.failed(connection, ErrorClass.PROTOCOL);
                    return;
                }
                case COMPLETE -> {
                    answered(connection, readBuffer.hasRemaining());
                    return;
                }
                case NEED_MORE -> {
                    if (n < readBuffer.capacity() && !connection.wire.holdsReadable()) {
                        return;
                    }
                }
            }
        }
    }

    private void answered(Connection connection, boolean mustClose) {
        ResponseParser parser = connection.parser;
        int status = parser.status();
        boolean bodyMatches = parser.bodyMatches();
        boolean closeAfter = mustClose || parser.closeAfter();
        parser.reset();
        long endNs = System.nanoTime();
        // An answer the stream's end completed has no byte of its own: its last read was its first.
        long firstByteNs = connection.firstByteNs == 0 ? endNs : connection.firstByteNs;
        connection.firstByteNs = 0;
        dialer.timings().answered(connection.intendedStartNs, connection.sendNs, firstByteNs, endNs);
        events.answered(connection, endNs, status, bodyMatches, closeAfter);
    }
}
