package dev.gauntlet.loadgen.transport;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadSpec;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * The lean transport's sockets: opens a connection's non-blocking channel, writes the pre-encoded
 * request, reads and parses what arrives, and tells its {@link Events} (the event loop, which
 * books each request) what became of each connection. It keeps no request's figures. Single-threaded:
 * the event loop owns it.
 */
public final class ConnectionIo {

    /** What became of a connection, for the event loop to book. */
    interface Events {
        /** Its connect finished. */
        void connected(Connection connection);

        /** A whole response arrived at {@code endNs}; with {@code mustClose}, the connection cannot carry another. */
        void answered(Connection connection, long endNs, boolean mustClose);

        /** It failed as {@code errorClass}, with the request it carried, if any. */
        void failed(Connection connection, ErrorClass errorClass);

        /** It must close: its peer closed it idle, or sent bytes nobody asked for. */
        void close(Connection connection);
    }

    private final Selector selector;
    private final InetSocketAddress address;
    private final InetAddress[] sourceAddresses;
    private final byte[] expectedBody;
    private final Events events;
    private final ByteBuffer request;
    private final int requestBytes;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
    private int nextSource;

    /**
     * @param sourceAddresses local addresses the connections are spread over; empty: the system's choice
     * @param expectedBody    the body a correct response carries, compared as it is read; null: any
     */
    ConnectionIo(LoadSpec spec, Selector selector, InetSocketAddress address, InetAddress[] sourceAddresses,
                 byte[] expectedBody, Events events) {
        this.selector = selector;
        this.address = address;
        this.sourceAddresses = sourceAddresses;
        this.expectedBody = expectedBody;
        this.events = events;
        byte[] requestAscii = requestBytes(spec).getBytes(StandardCharsets.US_ASCII);
        this.request = ByteBuffer.allocateDirect(requestAscii.length).put(requestAscii).flip();
        this.requestBytes = requestAscii.length;
    }

    public static String requestBytes(LoadSpec spec) {
        String path = spec.url().getRawPath() == null || spec.url().getRawPath().isEmpty() ? "/" : spec.url().getRawPath();
        String query = spec.url().getRawQuery() == null ? "" : "?" + spec.url().getRawQuery();
        String host = spec.url().getPort() < 0 ? spec.url().getHost() : spec.url().getHost() + ":" + spec.url().getPort();
        return "GET " + path + query + " HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: gauntlet\r\n\r\n";
    }

    /** A new connection, its connect started (or, rarely, done: its channel then says it is connected). */
    Connection open() throws IOException {
        SocketChannel channel = SocketChannel.open();
        try {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            if (sourceAddresses.length > 0) {
                channel.bind(new InetSocketAddress(sourceAddresses[nextSource++ % sourceAddresses.length], 0));
            }
            boolean connected = channel.connect(address);
            Connection connection = new Connection(channel, new ResponseParser(expectedBody));
            connection.key = channel.register(selector, connected ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT, connection);
            return connection;
        } catch (IOException e) {
            closeQuietly(channel);
            throw e;
        }
    }

    /** Handles what {@code key} is ready for: the selector's callback. */
    void onReady(SelectionKey key) {
        Connection connection = (Connection) key.attachment();
        if (!key.isValid() || connection.state == Connection.CLOSED) {
            return;
        }
        int ready = key.readyOps();
        if ((ready & SelectionKey.OP_CONNECT) != 0) {
            onConnectable(connection);
            return;
        }
        if ((ready & SelectionKey.OP_WRITE) != 0) {
            write(connection);
        }
        if ((ready & SelectionKey.OP_READ) != 0 && connection.state != Connection.CLOSED) {
            onReadable(connection);
        }
    }

    private void onConnectable(Connection connection) {
        try {
            connection.channel.finishConnect();
        } catch (IOException e) {
            events.failed(connection, connectError(e));
            return;
        }
        events.connected(connection);
    }

    /** Writes what is left of the request; a partial write asks to be told when the channel takes more. */
    void write(Connection connection) {
        try {
            request.limit(requestBytes).position(connection.writtenBytes);
            connection.writtenBytes += connection.channel.write(request);
        } catch (IOException e) {
            events.failed(connection, ErrorClass.RESET);
            return;
        }
        // Interest changes cost a system call: only a partial write (rare) asks for OP_WRITE.
        boolean done = connection.writtenBytes == requestBytes;
        if (done == connection.awaitingWritable) {
            connection.awaitingWritable = !done;
            connection.key.interestOps(done ? SelectionKey.OP_READ : SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        }
    }

    private void onReadable(Connection connection) {
        while (true) {
            readBuffer.clear();
            int n;
            try {
                n = connection.channel.read(readBuffer);
            } catch (IOException e) {
                events.failed(connection, ErrorClass.RESET);
                return;
            }
            if (n < 0) {
                if (!connection.hasRequest) {
                    events.close(connection);
                } else if (connection.parser.onEndOfStream() == ResponseParser.Result.COMPLETE) {
                    events.answered(connection, System.nanoTime(), true);
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
            switch (connection.parser.parse(readBuffer)) {
                case MALFORMED -> {
                    events.failed(connection, ErrorClass.PROTOCOL);
                    return;
                }
                case COMPLETE -> {
                    events.answered(connection, System.nanoTime(), readBuffer.hasRemaining());
                    return;
                }
                case NEED_MORE -> {
                    if (n < readBuffer.capacity()) {
                        return;
                    }
                }
            }
        }
    }

    static ErrorClass connectError(IOException e) {
        return e instanceof ConnectException || e instanceof NoRouteToHostException
                ? ErrorClass.REFUSED : ErrorClass.RESET;
    }

    static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // Closing at the end of a request's life: nothing left to report.
        }
    }
}
