package dev.gauntlet.loadgen.warmup;

import dev.gauntlet.api.Protocol;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Base64;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLServerSocket;

/**
 * A server on 127.0.0.1, port 0, in the generator's own process, answering every request at once with the target
 * contract's {@code hello} response in the protocol the load speaks: HTTP/1.1 or HTTP/2 (prior knowledge in clear,
 * chosen by ALPN over TLS), in clear or through TLS. It is what {@link JitWarmup} drives the engine against, so the
 * generator's code for that protocol — the TLS records, the HTTP/2 frames — is compiled without sending anything to
 * the target. A virtual thread per connection, reading what arrived and answering each request in it with one write.
 *
 * <p>Over TLS it presents a self-signed certificate for 127.0.0.1 that ships with the generator
 * ({@code loopback-sink.p12}, valid until 2126). Its key is no secret and guards nothing: the sink listens on loopback
 * for the seconds of a warm-up, to clients of its own process, which trust it through {@link #writeCertificate}.
 *
 * <pre>{@code
 * try (LoopbackSink sink = LoopbackSink.start(Protocol.H2)) {
 *     URI url = sink.uri("/hello?wait=100");   // https://127.0.0.1:PORT/...; the wait is not honoured
 * }
 * }</pre>
 */
final class LoopbackSink implements AutoCloseable {
    private static final byte[] HELLO = "hello".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] HTTP1_HELLO = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: "
            + HELLO.length + "\r\n\r\n" + "hello").getBytes(StandardCharsets.US_ASCII);
    private static final String KEY_STORE = "loopback-sink.p12";
    private static final char[] KEY_STORE_PASSWORD = "gauntlet-loopback-sink".toCharArray();

    private final Protocol protocol;
    private final ServerSocket server;
    private final Thread acceptor;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();

    private LoopbackSink(Protocol protocol) throws IOException, GeneralSecurityException {
        this.protocol = protocol;
        InetAddress loopback = InetAddress.getLoopbackAddress();
        if (protocol.tls()) {
            SSLServerSocket secure = (SSLServerSocket) serverContext().getServerSocketFactory().createServerSocket(0, 1_000, loopback);
            if (protocol.http2()) {
                SSLParameters parameters = secure.getSSLParameters();
                parameters.setApplicationProtocols(new String[]{"h2"});
                secure.setSSLParameters(parameters);
            }
            server = secure;
        } else {
            server = new ServerSocket(0, 1_000, loopback);
        }
        acceptor = Thread.ofPlatform().name("gauntlet-sink").daemon().start(this::accept);
    }

    static LoopbackSink start(Protocol protocol) {
        try {
            return new LoopbackSink(protocol);
        } catch (IOException e) {
            throw new UncheckedIOException("the generator's loopback sink could not start", e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the generator's loopback sink could not load its certificate", e);
        }
    }

    URI uri(String pathAndQuery) {
        return URI.create((protocol.tls() ? "https" : "http") + "://127.0.0.1:" + server.getLocalPort() + pathAndQuery);
    }

    /** Writes the sink's certificate as PEM to {@code file}: what a client trusts it by. */
    static void writeCertificate(Path file) throws IOException {
        try {
            byte[] der = keyStore().getCertificate("sink").getEncoded();
            String pem = "-----BEGIN CERTIFICATE-----\n" + Base64.getMimeEncoder(64, new byte[]{'\n'}).encodeToString(der)
                    + "\n-----END CERTIFICATE-----\n";
            Files.writeString(file, pem, StandardCharsets.US_ASCII);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the generator's loopback sink could not load its certificate", e);
        }
    }

    private static SSLContext serverContext() throws IOException, GeneralSecurityException {
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(keyStore(), KEY_STORE_PASSWORD);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }

    private static KeyStore keyStore() throws IOException, GeneralSecurityException {
        try (InputStream in = LoopbackSink.class.getResourceAsStream(KEY_STORE)) {
            if (in == null) {
                throw new IOException(KEY_STORE + " is missing from the generator's classpath");
            }
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, KEY_STORE_PASSWORD);
            return store;
        }
    }

    private void accept() {
        try {
            while (!server.isClosed()) {
                Socket socket = server.accept();
                socket.setTcpNoDelay(true);
                open.add(socket);
                Thread.ofVirtual().name("gauntlet-sink-connection").start(() -> serve(socket));
            }
        } catch (IOException e) {
            // Closed under it: the warm-up is over.
        }
    }

    private void serve(Socket socket) {
        try (socket) {
            InputStream in = new BufferedInputStream(socket.getInputStream(), 64 * 1024);
            OutputStream out = socket.getOutputStream();
            if (protocol.http2()) {
                answerHttp2(in, out);
            } else {
                answerHttp1(in, out);
            }
        } catch (IOException e) {
            // The client closed the connection, or the sink is closing: this connection is over.
        } finally {
            open.remove(socket);
        }
    }

    /** Answers each request head ({@code \r\n\r\n}) that arrives; what else arrives is ignored. */
    private static void answerHttp1(InputStream in, OutputStream out) throws IOException {
        byte[] read = new byte[16 * 1024];
        int matched = 0;
        int n;
        while ((n = in.read(read)) > 0) {
            int heads = 0;
            for (int i = 0; i < n; i++) {
                byte b = read[i];
                matched = b == (matched % 2 == 0 ? '\r' : '\n') ? matched + 1 : (b == '\r' ? 1 : 0);
                if (matched == 4) {
                    heads++;
                    matched = 0;
                }
            }
            if (heads > 0) {
                byte[] answers = new byte[heads * HTTP1_HELLO.length];
                for (int i = 0; i < heads; i++) {
                    System.arraycopy(HTTP1_HELLO, 0, answers, i * HTTP1_HELLO.length, HTTP1_HELLO.length);
                }
                out.write(answers);
            }
        }
    }

    /**
     * HTTP/2 as the lean engine needs it (RFC 9113): the client's preface skipped, empty settings of its own (no limit
     * on streams), SETTINGS and PING acknowledged, and each HEADERS frame that ends its stream (a GET) answered with a
     * {@code :status 200} (its HPACK static index, so no table is kept) and {@code hello} ending the stream. The header
     * blocks are not decoded. What the frames read at once ask for goes out in one write.
     */
    private static void answerHttp2(InputStream in, OutputStream out) throws IOException {
        in.skipNBytes(24);
        ByteArrayOutputStream answers = new ByteArrayOutputStream();
        frame(answers, Http2.SETTINGS, 0, 0, new byte[0]);
        out.write(answers.toByteArray());
        answers.reset();
        while (true) {
            byte[] header = in.readNBytes(9);
            if (header.length < 9) {
                return;
            }
            int length = ((header[0] & 0xff) << 16) | ((header[1] & 0xff) << 8) | (header[2] & 0xff);
            int type = header[3] & 0xff;
            int flags = header[4] & 0xff;
            int streamId = (((header[5] & 0x7f) << 24) | ((header[6] & 0xff) << 16) | ((header[7] & 0xff) << 8)
                    | (header[8] & 0xff));
            byte[] payload = in.readNBytes(length);
            if (payload.length < length) {
                return;
            }
            switch (type) {
                case Http2.HEADERS -> {
                    if ((flags & Http2.END_STREAM) != 0) {
                        frame(answers, Http2.HEADERS, Http2.END_HEADERS, streamId, new byte[]{(byte) Http2.STATUS_200});
                        frame(answers, Http2.DATA, Http2.END_STREAM, streamId, HELLO);
                    }
                }
                case Http2.SETTINGS -> {
                    if ((flags & Http2.ACK) == 0) {
                        frame(answers, Http2.SETTINGS, Http2.ACK, 0, new byte[0]);
                    }
                }
                case Http2.PING -> {
                    if ((flags & Http2.ACK) == 0) {
                        frame(answers, Http2.PING, Http2.ACK, 0, payload);
                    }
                }
                case Http2.GOAWAY -> {
                    return;
                }
                default -> {
                    // WINDOW_UPDATE, RST_STREAM (its answer went already), PRIORITY: nothing to answer.
                }
            }
            if (in.available() == 0 && answers.size() > 0) {
                answers.writeTo(out);
                answers.reset();
            }
        }
    }

    private static void frame(ByteArrayOutputStream into, int type, int flags, int streamId, byte[] payload) {
        into.write(payload.length >>> 16);
        into.write(payload.length >>> 8);
        into.write(payload.length);
        into.write(type);
        into.write(flags);
        into.write(streamId >>> 24);
        into.write(streamId >>> 16);
        into.write(streamId >>> 8);
        into.write(streamId);
        into.writeBytes(payload);
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // Closing: nothing left to report.
        }
        for (Socket socket : open) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // Closing: nothing left to report.
            }
        }
        try {
            acceptor.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The frame types, flags and the one HPACK field the sink uses (RFC 9113, section 6; RFC 7541, appendix A). */
    private static final class Http2 {
        static final int DATA = 0x0;
        static final int HEADERS = 0x1;
        static final int SETTINGS = 0x4;
        static final int PING = 0x6;
        static final int GOAWAY = 0x7;
        static final int END_STREAM = 0x1;
        static final int ACK = 0x1;
        static final int END_HEADERS = 0x4;
        /** {@code :status: 200}, static table index 8, indexed. */
        static final int STATUS_200 = 0x80 | 8;
    }
}
