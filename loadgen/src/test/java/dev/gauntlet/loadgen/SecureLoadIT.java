package dev.gauntlet.loadgen;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.TlsTrust;
import dev.gauntlet.loadgen.failure.GeneratorException;
import dev.gauntlet.loadgen.run.Generator;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLServerSocket;
import javax.net.ssl.SSLSocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The lean engine's TLS and HTTP/2 against a real server, Netty's (the {@code netty-event-loop} target, in-process on
 * 127.0.0.1 with a self-signed certificate): https1, h2 and h2c loads run clean; a certificate not trusted, for another
 * host or out of its validity, and a server that does not speak the load's protocol, each stop the run with one line.
 */
@Tag("alone") // asserts how long a run took
@Timeout(120)
class SecureLoadIT {
    @TempDir
    static Path dir;
    private static SelfSignedPem certificate;

    @BeforeAll
    static void certificate() throws Exception {
        certificate = SelfSignedPem.in(dir);
    }

    @Test
    void https1ClosedLoopTrustingThePemRunsClean() throws Exception {
        try (InProcessNettyTarget target = new InProcessNettyTarget(certificate.tls(), false, false)) {
            LoadSpec spec = LoadSpec.of(target.uri("https", "/hello"), new LoadModel.ClosedLoop(4)).toBuilder()
                    .warmupMs(0).durationMs(1_000).trust(new TlsTrust(certificate.pem().toString(), false)).build();
            RunSummary summary = run(spec);

            assertThat(Http2MisbehaviourIT.errorsSeen(summary)).isEmpty();
            assertThat(summary.completed()).isPositive();
            // Kept alive over TLS: the four connections carried every request.
            assertThat(summary.connectionsOpened()).isEqualTo(4);
        }
    }

    @Test
    void h2OverTlsCarriesTenStreamsOnEachOfTwoSockets() throws Exception {
        try (InProcessNettyTarget target = new InProcessNettyTarget(certificate.tls(), true, false)) {
            // A 20 ms wait keeps each stream in flight long enough for the server to see them side by side.
            LoadSpec spec = LoadSpec.of(target.uri("https", "/hello?wait=20"), new LoadModel.ClosedLoop(2)).toBuilder()
                    .http2(true, 10).warmupMs(0).durationMs(1_000)
                    .trust(new TlsTrust(certificate.pem().toString(), false)).build();
            RunSummary summary = run(spec);

            assertThat(Http2MisbehaviourIT.errorsSeen(summary)).isEmpty();
            assertThat(summary.completed()).isPositive();
            assertThat(summary.connectionsPeak()).as("sockets open at most").isEqualTo(2);
            assertThat(summary.connectionsOpened()).as("sockets opened").isEqualTo(2);
            // More requests in flight at the server than one socket's streams: both connections multiplex.
            assertThat(target.stats.snapshot().maxInFlight()).isGreaterThan(10).isLessThanOrEqualTo(20);
        }
    }

    @Test
    void h2cOpenLoopRunsClean() throws Exception {
        try (InProcessNettyTarget target = new InProcessNettyTarget(null, true, false)) {
            LoadSpec spec = LoadSpec.of(target.uri("http", "/hello"), new LoadModel.OpenLoop(500, LoadModel.InterArrival.CONSTANT))
                    .toBuilder().http2(true, 10).warmupMs(0).durationMs(1_000).build();
            RunSummary summary = run(spec);

            assertThat(Http2MisbehaviourIT.errorsSeen(summary)).isEmpty();
            // Constant 500/s for a second: 500 intended starts, each answered.
            assertThat(summary.completed()).isEqualTo(500);
            assertThat(target.stats.snapshot().completed()).isEqualTo(500);
        }
    }

    @Test
    void insecureAcceptsTheUntrustedCertificate() throws Exception {
        try (InProcessNettyTarget target = new InProcessNettyTarget(certificate.tls(), true, false)) {
            for (boolean http2 : new boolean[]{false, true}) {
                LoadSpec spec = LoadSpec.of(target.uri("https", "/hello"), new LoadModel.ClosedLoop(2)).toBuilder()
                        .http2(http2, 1).warmupMs(0).durationMs(500).trust(new TlsTrust(null, true)).build();
                RunSummary summary = run(spec);

                assertThat(Http2MisbehaviourIT.errorsSeen(summary)).as("http2 %s", http2).isEmpty();
                assertThat(summary.completed()).as("http2 %s", http2).isPositive();
            }
        }
    }

    @Test
    void anUntrustedCertificateIsOneLine() throws Exception {
        try (InProcessNettyTarget target = new InProcessNettyTarget(certificate.tls(), false, false)) {
            // The JDK's authorities: the self-signed certificate is not among them.
            String message = failure(LoadSpec.of(target.uri("https", "/hello"), new LoadModel.ClosedLoop(1)));

            assertThat(message).contains("is not trusted").contains("--cacert FILE, or --insecure");
        }
    }

    @Test
    void aCertificateForAnotherHostIsOneLine() throws Exception {
        KeyPair keys = keyPair();
        Instant now = Instant.now();
        X509Certificate other = sign(new X500Name("CN=other.example"), keys, new X500Name("CN=other.example"), keys.getPrivate(),
                now.minus(Duration.ofHours(1)), now.plus(Duration.ofDays(1)), false,
                new GeneralName(GeneralName.dNSName, "other.example"));
        Path pem = writePem(other, "other.pem");
        try (JdkTlsServer server = new JdkTlsServer(keys.getPrivate(), other)) {
            // Trusted, so the name is all that is wrong with it.
            String message = failure(LoadSpec.of(server.uri(), new LoadModel.ClosedLoop(1)).toBuilder()
                    .trust(new TlsTrust(pem.toString(), false)).build());

            assertThat(message).contains("is not for 127.0.0.1");
        }
    }

    @Test
    void anExpiredCertificateIsOneLine() throws Exception {
        // An authority trusted by its PEM, and a certificate it signed for 127.0.0.1 that expired yesterday.
        KeyPair authorityKeys = keyPair();
        Instant now = Instant.now();
        X500Name authorityName = new X500Name("CN=Gauntlet test authority");
        X509Certificate authority = sign(authorityName, authorityKeys, authorityName, authorityKeys.getPrivate(),
                now.minus(Duration.ofDays(30)), now.plus(Duration.ofDays(30)), true);
        KeyPair keys = keyPair();
        X509Certificate expired = sign(new X500Name("CN=127.0.0.1"), keys, authorityName, authorityKeys.getPrivate(),
                now.minus(Duration.ofDays(10)), now.minus(Duration.ofDays(1)), false,
                new GeneralName(GeneralName.iPAddress, "127.0.0.1"));
        Path pem = writePem(authority, "authority.pem");
        try (JdkTlsServer server = new JdkTlsServer(keys.getPrivate(), expired, authority)) {
            String message = failure(LoadSpec.of(server.uri(), new LoadModel.ClosedLoop(1)).toBuilder()
                    .trust(new TlsTrust(pem.toString(), false)).build());

            assertThat(message).contains("is out of its validity");
        }
    }

    @Test
    void http2OverTlsToAServerOfHttp1IsOneLine() throws Exception {
        try (InProcessNettyTarget target = new InProcessNettyTarget(certificate.tls(), false, false)) {
            String message = failure(LoadSpec.of(target.uri("https", "/hello"), new LoadModel.ClosedLoop(1)).toBuilder()
                    .http2(true, 1).trust(new TlsTrust(certificate.pem().toString(), false)).build());

            assertThat(message).contains("does not speak HTTP/2 over TLS");
        }
    }

    @Test
    void h2cToAServerOfHttp1IsOneLine() throws Exception {
        try (InProcessNettyTarget target = new InProcessNettyTarget(null, false, false)) {
            String message = failure(LoadSpec.of(target.uri("http", "/hello"), new LoadModel.ClosedLoop(1)).toBuilder()
                    .http2(true, 1).build());

            assertThat(message).contains("does not speak HTTP/2 in clear");
        }
    }

    /**
     * http:// to a port of TLS is refused up front, naming the https:// URL to use, rather than run as a load whose every
     * request is reset: Netty closes the connection on a plain request, the JDK's TLS answers it with an alert.
     */
    @Test
    void httpToATlsServerIsOneLineNamingHttps() throws Exception {
        try (InProcessNettyTarget target = new InProcessNettyTarget(certificate.tls(), false, false)) {
            String message = failure(LoadSpec.of(target.uri("http", "/hello?wait=1"), new LoadModel.ClosedLoop(1)));

            assertThat(message).isEqualTo("127.0.0.1:" + target.port + " speaks TLS, not plain HTTP: use https://127.0.0.1:"
                    + target.port + "/hello?wait=1 (with --cacert FILE, or --insecure, for a certificate the JDK does not trust)");
        }
        KeyPair keys = keyPair();
        Instant now = Instant.now();
        X509Certificate certificate = sign(new X500Name("CN=127.0.0.1"), keys, new X500Name("CN=127.0.0.1"), keys.getPrivate(),
                now.minus(Duration.ofHours(1)), now.plus(Duration.ofDays(1)), false,
                new GeneralName(GeneralName.iPAddress, "127.0.0.1"));
        try (JdkTlsServer server = new JdkTlsServer(keys.getPrivate(), certificate)) {
            String message = failure(LoadSpec.of(URI.create(server.uri().toString().replace("https:", "http:")),
                    new LoadModel.OpenLoop(100, LoadModel.InterArrival.CONSTANT)));

            assertThat(message).contains(" speaks TLS, not plain HTTP: use https://127.0.0.1:");
        }
    }

    @Test
    void httpsToACleartextServerIsOneLine() throws Exception {
        try (InProcessNettyTarget target = new InProcessNettyTarget(null, false, false)) {
            String message = failure(LoadSpec.of(target.uri("https", "/hello"), new LoadModel.ClosedLoop(1)).toBuilder()
                    .connectTimeoutMs(1_000).build());

            // The server answers the ClientHello with an HTTP/1.1 error, or (the timeout variant) waits for more.
            assertThat(message).containsAnyOf("does not speak TLS", "did not answer the TLS handshake");
        }
    }

    /**
     * Responses far larger than the engine's 64 KiB read buffer, over TLS, a record per DATA frame: with part of a
     * frame kept from the last read, one socket read can bring more whole records than the buffer has room for. Those
     * must be read on at once, not left for a readable socket that already gave them: on one stream nothing else
     * arrives to wake the connection, and the response would wait for its timeout.
     */
    @ParameterizedTest
    @ValueSource(ints = {4_096, 10_000, 16_384})
    void largeH2ResponsesOverTlsArriveWhole(int frameBytes) throws Exception {
        byte[] body = largeBody();
        ScriptedHttp2Server.Script large = (exchange, streamId) -> exchange.answer(streamId, body, frameBytes);
        try (ScriptedHttp2Server server = new ScriptedHttp2Server(certificate.tls().sslContext(), large)) {
            assertArriveWhole(LoadSpec.of(server.uri("/large"), new LoadModel.ClosedLoop(1)).toBuilder().http2(true, 1),
                    body, server.answered);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {4_096, 10_000, 16_384})
    void largeHttps1ResponsesArriveWhole(int writeBytes) throws Exception {
        byte[] body = largeBody();
        try (Https1Server server = new Https1Server(certificate.tls().sslContext(), body, writeBytes)) {
            assertArriveWhole(LoadSpec.of(server.uri(), new LoadModel.ClosedLoop(2)).toBuilder(), body, server.answered);
        }
    }

    /**
     * A second of {@code body} asked for: no error, every response the server answered completed and compared whole,
     * and the run ended by its phase, not by a response timeout.
     */
    private static void assertArriveWhole(LoadSpec.Builder load, byte[] body, AtomicInteger answered) {
        LoadSpec spec = load.warmupMs(0).durationMs(1_000).responseTimeoutMs(3_000)
                .expectedBody(new String(body, StandardCharsets.US_ASCII))
                .trust(new TlsTrust(certificate.pem().toString(), false)).build();
        long startNs = System.nanoTime();
        RunSummary summary = run(spec);

        assertThat(Http2MisbehaviourIT.errorsSeen(summary)).isEmpty();
        assertThat(summary.completed()).isEqualTo(answered.get()).isPositive();
        assertThat((System.nanoTime() - startNs) / 1_000_000).isLessThan(1_000 + 3_000);
    }

    /** 256 KiB of letters, not one repeated byte, so a byte out of place would show. */
    private static byte[] largeBody() {
        byte[] body = new byte[256 * 1024];
        for (int i = 0; i < body.length; i++) {
            body[i] = (byte) ('a' + i % 26);
        }
        return body;
    }

    /** The run's one-line refusal: a {@link GeneratorException} before any load, its message on one line. */
    private static String failure(LoadSpec spec) {
        long startNs = System.nanoTime();
        GeneratorException e = catchThrowableOfType(GeneratorException.class, () -> run(spec));
        assertThat(e).as("the run was refused").isNotNull();
        assertThat(e.getMessage()).doesNotContain("\n").doesNotContain("\r");
        // Refused by the reachability check, not after a run of failed requests.
        assertThat((System.nanoTime() - startNs) / 1_000_000).isLessThan(spec.connectTimeoutMs() + 2_000);
        return e.getMessage();
    }

    private static RunSummary run(LoadSpec spec) {
        return Generator.run(spec, null, new PrintStream(new ByteArrayOutputStream()));
    }

    /** The Netty target on 127.0.0.1, an ephemeral port: TLS with {@code tls}, HTTP/2 (h2 or h2c) with {@code http2}. */

    /** A server socket over the JDK's TLS on the loopback, a virtual thread per connection, each served as the subclass says. */
    private abstract static class TlsSocketServer implements AutoCloseable {
        private final SSLServerSocket server;
        private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
        private final Thread acceptor;

        TlsSocketServer(SSLContext context) throws IOException {
            server = (SSLServerSocket) context.getServerSocketFactory().createServerSocket(0, 50, InetAddress.getLoopbackAddress());
            acceptor = Thread.ofVirtual().start(this::accept);
        }

        URI uri(String path) {
            return URI.create("https://127.0.0.1:" + server.getLocalPort() + path);
        }

        /** Serves one connection until it ends; what it throws ends the connection. */
        abstract void serve(SSLSocket socket) throws IOException;

        private void accept() {
            while (!server.isClosed()) {
                try {
                    SSLSocket socket = (SSLSocket) server.accept();
                    sockets.add(socket);
                    Thread.ofVirtual().start(() -> {
                        try (socket) {
                            serve(socket);
                        } catch (IOException e) {
                            // The client closed the connection, or refused the certificate.
                        } finally {
                            sockets.remove(socket);
                        }
                    });
                } catch (IOException e) {
                    return;
                }
            }
        }

        @Override
        public void close() throws Exception {
            server.close();
            for (Socket socket : sockets) {
                socket.close();
            }
            acceptor.join(5_000);
        }
    }

    /**
     * An HTTP/1.1 server over the JDK's TLS, keep-alive, answering every request with {@code body}, written
     * {@code writeBytes} at a time (a TLS record each).
     */
    private static final class Https1Server extends TlsSocketServer {
        private final byte[] head;
        private final byte[] body;
        private final int writeBytes;
        final AtomicInteger answered = new AtomicInteger();

        Https1Server(SSLContext context, byte[] body, int writeBytes) throws IOException {
            super(context);
            this.body = body;
            this.writeBytes = writeBytes;
            this.head = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: " + body.length + "\r\n\r\n")
                    .getBytes(StandardCharsets.US_ASCII);
        }

        URI uri() {
            return uri("/large");
        }

        @Override
        void serve(SSLSocket socket) throws IOException {
            java.io.InputStream in = socket.getInputStream();
            java.io.OutputStream out = socket.getOutputStream();
            // A GET has no body: each request ends at its blank line.
            int matched = 0;
            for (int b = in.read(); b >= 0; b = in.read()) {
                matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : (b == '\r' ? 1 : 0);
                if (matched == 4) {
                    matched = 0;
                    out.write(head);
                    for (int from = 0; from < body.length; from += writeBytes) {
                        out.write(body, from, Math.min(writeBytes, body.length - from));
                    }
                    out.flush();
                    answered.incrementAndGet();
                }
            }
        }
    }

    /** A JDK TLS server that only handshakes: enough for the reachability check to judge its certificate. */
    private static final class JdkTlsServer extends TlsSocketServer {
        JdkTlsServer(PrivateKey key, X509Certificate... chain) throws Exception {
            super(contextOf(key, chain));
        }

        private static SSLContext contextOf(PrivateKey key, X509Certificate... chain) throws Exception {
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            store.setKeyEntry("server", key, new char[0], chain);
            KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(store, new char[0]);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keyManagers.getKeyManagers(), null, null);
            return context;
        }

        URI uri() {
            return uri("/hello");
        }

        @Override
        void serve(SSLSocket socket) throws IOException {
            socket.startHandshake();
            socket.getInputStream().read();
        }
    }

    private static KeyPair keyPair() throws Exception {
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"));
        return generator.generateKeyPair();
    }

    private static X509Certificate sign(X500Name subject, KeyPair subjectKeys, X500Name issuer, PrivateKey issuerKey,
                                        Instant notBefore, Instant notAfter, boolean authority, GeneralName... names)
            throws Exception {
        JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(issuer,
                BigInteger.valueOf(System.nanoTime()), Date.from(notBefore), Date.from(notAfter), subject,
                subjectKeys.getPublic());
        builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(authority));
        if (authority) {
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        }
        if (names.length > 0) {
            builder.addExtension(Extension.subjectAlternativeName, false, new GeneralNames(names));
        }
        return new JcaX509CertificateConverter().getCertificate(
                builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(issuerKey)));
    }

    private static Path writePem(X509Certificate certificate, String name) throws Exception {
        String base64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(certificate.getEncoded());
        Path file = dir.resolve(name);
        Files.writeString(file, "-----BEGIN CERTIFICATE-----\n" + base64 + "\n-----END CERTIFICATE-----\n");
        return file;
    }
}
