package dev.gauntlet.loadgen;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A small HTTP/2 server over raw sockets (no library), on 127.0.0.1, port 0, a virtual thread per connection, for the
 * lean engine's tests: it reads the client's preface and frames, sends its own (empty) SETTINGS and acknowledges the
 * client's, answers PING, and hands each request's HEADERS to a {@link Script} that answers, resets, holds or goes away
 * as the test wants. In clear (h2c with prior knowledge) or over TLS (ALPN {@code h2}).
 */
final class ScriptedHttp2Server implements AutoCloseable {
    static final int DATA = 0x0;
    static final int HEADERS = 0x1;
    static final int RST_STREAM = 0x3;
    static final int SETTINGS = 0x4;
    static final int PING = 0x6;
    static final int GOAWAY = 0x7;
    static final int END_STREAM = 0x1;
    static final int ACK = 0x1;
    static final int END_HEADERS = 0x4;
    static final int INTERNAL_ERROR = 0x2;
    static final int REFUSED_STREAM = 0x7;
    /** {@code :status: 200}, static table index 8. */
    static final byte STATUS_200 = (byte) 0x88;
    static final byte[] HELLO = "hello".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] PREFACE = "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /** What the server does with each request on a connection; called on that connection's thread. */
    interface Script {
        void onRequest(Exchange exchange, int streamId) throws IOException;

        /** Nothing arrived within the connection's read timeout, if the script set one ({@link Exchange#idleAfter}). */
        default void onIdle(Exchange exchange) throws IOException {
        }
    }

    /** What a script does with the requests a connection holds ({@link Exchange#held}). */
    interface Flush {
        void held(Exchange exchange) throws IOException;
    }

    /**
     * A script that holds each request until {@code size} are held or the client is quiet for 20 ms, then hands them
     * to {@code flush}, which answers, refuses or keeps them.
     */
    static Script batchesOf(int size, Flush flush) {
        return new Script() {
            @Override
            public void onRequest(Exchange exchange, int streamId) throws IOException {
                exchange.idleAfter(20);
                exchange.held.add(streamId);
                if (exchange.held.size() == size) {
                    flush.held(exchange);
                }
            }

            @Override
            public void onIdle(Exchange exchange) throws IOException {
                flush.held(exchange);
            }
        };
    }

    private final ServerSocket server;
    private final Script script;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final List<Thread> threads = new ArrayList<>();
    /** Requests (HEADERS) read, over every connection. */
    final AtomicInteger requests = new AtomicInteger();
    final AtomicInteger answered = new AtomicInteger();
    final AtomicInteger reset = new AtomicInteger();
    /** Requests held when the server sent GOAWAY and closed: none of them was answered. */
    final AtomicInteger goneAway = new AtomicInteger();
    /** Connections that sent the preface: the reachability check's included. */
    final AtomicInteger connections = new AtomicInteger();

    ScriptedHttp2Server(SSLContext tls, Script script) throws IOException {
        this.script = script;
        if (tls == null) {
            server = new ServerSocket(0, 100, InetAddress.getLoopbackAddress());
        } else {
            SSLServerSocket secure = (SSLServerSocket) tls.getServerSocketFactory()
                    .createServerSocket(0, 100, InetAddress.getLoopbackAddress());
            SSLParameters parameters = secure.getSSLParameters();
            parameters.setApplicationProtocols(new String[]{"h2"});
            secure.setSSLParameters(parameters);
            server = secure;
        }
        Thread acceptor = Thread.ofVirtual().name("h2-accept").start(this::accept);
        synchronized (threads) {
            threads.add(acceptor);
        }
    }

    URI uri(String path) {
        return URI.create((server instanceof SSLServerSocket ? "https" : "http") + "://127.0.0.1:" + server.getLocalPort() + path);
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                sockets.add(socket);
                Thread thread = Thread.ofVirtual().name("h2-connection").start(() -> serve(socket));
                synchronized (threads) {
                    threads.add(thread);
                }
            } catch (IOException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            socket.setTcpNoDelay(true);
            if (socket instanceof SSLSocket secure) {
                secure.startHandshake();
            }
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] preface = new byte[PREFACE.length];
            in.readFully(preface);
            if (!Arrays.equals(preface, PREFACE)) {
                return;
            }
            connections.incrementAndGet();
            Exchange exchange = new Exchange(socket, in);
            exchange.frame(SETTINGS, 0, 0, new byte[0]);
            while (!exchange.closed) {
                Frame frame;
                try {
                    frame = exchange.readFrame();
                } catch (SocketTimeoutException e) {
                    script.onIdle(exchange);
                    continue;
                }
                if (frame.type == HEADERS) {
                    exchange.runRequest = requests.incrementAndGet();
                    exchange.requests++;
                    script.onRequest(exchange, frame.streamId);
                } else if (frame.type == GOAWAY) {
                    exchange.closed = true;
                }
            }
        } catch (EOFException | SocketTimeoutException e) {
            // The client closed the connection, or the reachability check's ended.
        } catch (IOException e) {
            // Reset by the client, or closed by close(): the connection ends either way.
        } finally {
            sockets.remove(socket);
        }
    }

    record Frame(int type, int flags, int streamId, byte[] payload) {
    }

    /** One connection: what the script answers with, and what it keeps between requests. */
    final class Exchange {
        private final Socket socket;
        private final DataInputStream in;
        private final OutputStream out;
        /** Requests read on this connection. */
        int requests;
        /** The request being handled, counted over every connection from 1. */
        int runRequest;
        int lastAnswered;
        final List<Integer> held = new ArrayList<>();
        boolean closed;

        private Exchange(Socket socket, DataInputStream in) throws IOException {
            this.socket = socket;
            this.in = in;
            this.out = socket.getOutputStream();
        }

        /**
         * The next frame, a whole one (a read timeout before its first byte leaves the stream as it was); SETTINGS and
         * PING are acknowledged here, as any HTTP/2 server does.
         */
        Frame readFrame() throws IOException {
            int length = in.readUnsignedByte() << 16 | in.readUnsignedShort();
            int type = in.readUnsignedByte();
            int flags = in.readUnsignedByte();
            int streamId = in.readInt() & 0x7fffffff;
            byte[] payload = new byte[length];
            in.readFully(payload);
            if (type == SETTINGS && (flags & ACK) == 0) {
                frame(SETTINGS, ACK, 0, new byte[0]);
            } else if (type == PING && (flags & ACK) == 0) {
                frame(PING, ACK, 0, payload);
            }
            // WINDOW_UPDATE, RST_STREAM (CANCEL of a stream given up), PRIORITY: nothing to do.
            return new Frame(type, flags, streamId, payload);
        }

        /**
         * Sends a PING and reads until its ACK: the client has then handled every frame sent before it. Requests that
         * arrive meanwhile are read and never answered.
         */
        void pingAndAwaitAck() throws IOException {
            byte[] opaque = {1, 2, 3, 4, 5, 6, 7, 8};
            int idleMs = socket.getSoTimeout();
            // Not the script's idle timeout: the ACK may take a while on a busy machine, and must not be missed.
            socket.setSoTimeout(10_000);
            frame(PING, 0, 0, opaque);
            while (true) {
                Frame frame = readFrame();
                if (frame.type == PING && (frame.flags & ACK) != 0 && Arrays.equals(frame.payload, opaque)) {
                    socket.setSoTimeout(idleMs);
                    return;
                }
                if (frame.type == HEADERS) {
                    ScriptedHttp2Server.this.requests.incrementAndGet();
                }
            }
        }

        /** {@code :status 200} (one byte, static index 8), then DATA "hello" ending the stream. */
        void answer(int streamId) throws IOException {
            answer(streamId, HELLO, HELLO.length);
        }

        /** {@code :status 200}, then {@code body} in DATA frames of {@code frameBytes} at most, each written on its own. */
        void answer(int streamId, byte[] body, int frameBytes) throws IOException {
            frame(HEADERS, END_HEADERS, streamId, new byte[]{STATUS_200});
            for (int from = 0; from < body.length; from += frameBytes) {
                int to = Math.min(body.length, from + frameBytes);
                frame(DATA, to == body.length ? END_STREAM : 0, streamId, Arrays.copyOfRange(body, from, to));
            }
            lastAnswered = Math.max(lastAnswered, streamId);
            answered.incrementAndGet();
        }

        /** The response whose header block is {@code headerBlock} (a script's own HPACK), then DATA "hello" ending it. */
        void answer(int streamId, byte[] headerBlock) throws IOException {
            frame(HEADERS, END_HEADERS, streamId, headerBlock);
            frame(DATA, END_STREAM, streamId, HELLO);
            lastAnswered = Math.max(lastAnswered, streamId);
            answered.incrementAndGet();
        }

        /** {@code :status 200} and DATA "hello" for each of {@code streamIds}, all in one write: responses that complete together. */
        void answerTogether(List<Integer> streamIds) throws IOException {
            ByteArrayOutputStream frames = new ByteArrayOutputStream();
            for (int streamId : streamIds) {
                frames.writeBytes(encodeFrame(HEADERS, END_HEADERS, streamId, new byte[]{STATUS_200}));
                frames.writeBytes(encodeFrame(DATA, END_STREAM, streamId, HELLO));
                lastAnswered = Math.max(lastAnswered, streamId);
            }
            out.write(frames.toByteArray());
            out.flush();
            answered.addAndGet(streamIds.size());
        }

        void reset(int streamId, int errorCode) throws IOException {
            frame(RST_STREAM, 0, streamId, int32(errorCode));
            reset.incrementAndGet();
        }

        /** GOAWAY with {@code lastStreamId}, then the connection closed: the held requests are never answered. */
        void goAwayAndClose(int lastStreamId) throws IOException {
            goAway(lastStreamId);
            closeNow();
        }

        /** GOAWAY (NO_ERROR) naming {@code lastStreamId} as the last stream the server processes. */
        void goAway(int lastStreamId) throws IOException {
            ByteArrayOutputStream payload = new ByteArrayOutputStream();
            payload.writeBytes(int32(lastStreamId));
            payload.writeBytes(int32(0));
            frame(GOAWAY, 0, 0, payload.toByteArray());
        }

        /** Closes the connection with a TCP reset (SO_LINGER 0) rather than an orderly end of stream. */
        void abort() throws IOException {
            socket.setSoLinger(true, 0);
            closeNow();
        }

        /** Closes the connection: the requests still held are never answered. */
        void closeNow() throws IOException {
            goneAway.addAndGet(held.size());
            held.clear();
            closed = true;
            socket.close();
        }

        /** Reads time out after {@code ms}, calling the script's {@link Script#onIdle}. */
        void idleAfter(int ms) throws IOException {
            socket.setSoTimeout(ms);
        }

        void frame(int type, int flags, int streamId, byte[] payload) throws IOException {
            out.write(encodeFrame(type, flags, streamId, payload));
            out.flush();
        }

        private static byte[] encodeFrame(int type, int flags, int streamId, byte[] payload) {
            byte[] frame = new byte[9 + payload.length];
            frame[0] = (byte) (payload.length >>> 16);
            frame[1] = (byte) (payload.length >>> 8);
            frame[2] = (byte) payload.length;
            frame[3] = (byte) type;
            frame[4] = (byte) flags;
            System.arraycopy(int32(streamId), 0, frame, 5, 4);
            System.arraycopy(payload, 0, frame, 9, payload.length);
            return frame;
        }
    }

    private static byte[] int32(int value) {
        return new byte[]{(byte) (value >>> 24), (byte) (value >>> 16), (byte) (value >>> 8), (byte) value};
    }

    @Override
    public void close() throws Exception {
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
        List<Thread> all;
        synchronized (threads) {
            all = List.copyOf(threads);
        }
        for (Thread thread : all) {
            thread.join(5_000);
        }
    }
}
