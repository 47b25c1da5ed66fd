package dev.gauntlet.loadgen;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.Protocol;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.TlsTrust;
import dev.gauntlet.loadgen.failure.GeneratorException;
import dev.gauntlet.loadgen.run.Generator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/**
 * The generator's HTTP/3 engine against a real server of h3, Netty's (the {@code netty-event-loop} target in-process,
 * QUIC on the UDP port of its TLS port's number): open loop, closed loop with streams on each connection, max
 * concurrency and a QUIC handshake a request run clean; a UDP port where nothing answers QUIC (a TLS server without
 * h3, a port that swallows datagrams), a certificate not trusted and a QUIC server without h3 in its ALPN (aioquic's,
 * {@code src/test/python/quic_server.py}) each stop the run with one line; a target that stops mid-run leaves errors
 * by class, and the run ends on time.
 */
@Timeout(120)
class Http3LoadIT {
    @TempDir
    static Path dir;
    private static SelfSignedPem certificate;

    @BeforeAll
    static void certificate() throws Exception {
        certificate = SelfSignedPem.in(dir);
    }

    @Test
    void openLoopOverHttp3RunsCleanTimedFromTheIntendedStart() throws Exception {
        try (InProcessNettyTarget target = h3Target()) {
            RunSummary summary = run(spec(target, "/hello?wait=5", new LoadModel.OpenLoop(400, LoadModel.InterArrival.CONSTANT))
                    .http2(false, 4).build());

            assertThat(summary.spec().protocol()).isEqualTo(Protocol.H3);
            assertThat(summary.errors().values()).allMatch(count -> count == 0);
            // 400/s over the 2 s measured phase, each answered after its 5 ms wait.
            assertThat(summary.completed()).isBetween(760L, 840L);
            assertThat(summary.responseTime().p50Ms()).isGreaterThanOrEqualTo(5.0);
            assertThat(summary.cpuPerRequest().targetUs()).isNull(); // in-process: no admin port to ask
            assertThat(summary.cpuPerRequest().generatorUs()).isPositive();
        }
    }

    @Test
    void closedLoopCarriesItsStreamsOnEachConnection() throws Exception {
        try (InProcessNettyTarget target = h3Target()) {
            // Two connections of ten streams: twenty requests at once, each held 20 ms so that the server sees them side by side.
            RunSummary summary = run(spec(target, "/hello?wait=20", new LoadModel.ClosedLoop(2)).http2(false, 10).build());

            assertThat(summary.errors().values()).allMatch(count -> count == 0);
            assertThat(summary.completed()).isPositive();
            assertThat(target.stats.snapshot().maxInFlight()).isGreaterThan(10).isLessThanOrEqualTo(20);
        }
    }

    @Test
    void maxConcurrencyHoldsEveryRequestAsAStream() throws Exception {
        try (InProcessNettyTarget target = h3Target()) {
            RunSummary summary = run(spec(target, "/hello?wait=30000", new LoadModel.MaxConcurrency(300))
                    .http2(false, 100).warmupMs(500).durationMs(1_000).build());

            assertThat(summary.errorCount()).as("%s", summary.errors()).isZero();
            assertThat(summary.concurrency().held()).isEqualTo(300);
            assertThat(target.stats.snapshot().inFlight()).isGreaterThanOrEqualTo(300);
        }
    }

    @Test
    void aQuicHandshakeARequestMeasuresTheSetUp() throws Exception {
        try (InProcessNettyTarget target = h3Target()) {
            RunSummary summary = run(spec(target, "/hello", new LoadModel.ClosedLoop(2)).newConnectionPerRequest(true).build());

            assertThat(summary.errors().values()).allMatch(count -> count == 0);
            assertThat(summary.completed()).isPositive();
        }
    }

    @Test
    void aTlsServerWithoutHttp3IsOneLine() throws Exception {
        try (InProcessNettyTarget target = new InProcessNettyTarget(certificate.tls(), false, false)) {
            String message = failure(spec(target, "/hello", new LoadModel.ClosedLoop(1)).connectTimeoutMs(500).build());

            assertThat(message).startsWith("no QUIC answer from udp 127.0.0.1:" + target.port + " within 500 ms")
                    .contains("start the target with --tls --http3");
        }
    }

    @Test
    void aUdpPortThatSwallowsEveryDatagramIsOneLine() throws Exception {
        try (DatagramSocket blackHole = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            URI url = URI.create("https://127.0.0.1:" + blackHole.getLocalPort() + "/hello");
            String message = failure(LoadSpec.of(url, new LoadModel.ClosedLoop(1)).toBuilder().http3(true)
                    .connectTimeoutMs(500).trust(new TlsTrust(certificate.pem().toString(), false)).build());

            assertThat(message).startsWith("no QUIC answer from udp 127.0.0.1:" + blackHole.getLocalPort());
        }
    }

    @Test
    void aCertificateNotTrustedIsOneLine() throws Exception {
        try (InProcessNettyTarget target = h3Target()) {
            String message = failure(spec(target, "/hello", new LoadModel.ClosedLoop(1)).trust(TlsTrust.SYSTEM).build());

            assertThat(message).startsWith("the QUIC handshake with udp 127.0.0.1:" + target.port + " failed on TLS")
                    .endsWith("give the certificate to trust with --cacert FILE, or --insecure");
        }
    }

    @Test
    void aQuicServerWithoutH3InItsAlpnIsOneLine() throws Exception {
        Path key = dir.resolve("key.pem");
        Files.writeString(key, "-----BEGIN PRIVATE KEY-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(certificate.tls().privateKey().getEncoded())
                + "\n-----END PRIVATE KEY-----\n");
        Process server = new ProcessBuilder("python3", "src/test/python/quic_server.py", "--cert", certificate.pem().toString(),
                "--key", key.toString(), "--alpn", "hq-interop").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8))) {
            String ready = out.readLine();
            assertThat(ready).as("the QUIC server's first line").startsWith("READY port=");
            int port = Integer.parseInt(ready.substring("READY port=".length()));
            String message = failure(LoadSpec.of(URI.create("https://127.0.0.1:" + port + "/hello"), new LoadModel.ClosedLoop(1))
                    .toBuilder().http3(true).connectTimeoutMs(2_000).trust(new TlsTrust(certificate.pem().toString(), false)).build());

            assertThat(message).startsWith("udp 127.0.0.1:" + port + " speaks QUIC but not HTTP/3 (no h3 in its ALPN)")
                    .contains("TLS alert 120");
        } finally {
            server.destroyForcibly().waitFor();
        }
    }

    /**
     * The target stops once the run's first second is reported (its progress line, watched for): what was in flight and
     * what followed fails, by class, and the run ends.
     */
    @Test
    void aTargetThatStopsMidRunLeavesErrorsByClassAndTheRunEnds() throws Exception {
        InProcessNettyTarget target = h3Target();
        PrintStream stopsTheTargetAfterOneSecond = new PrintStream(new OutputStream() {
            private final StringBuilder line = new StringBuilder();
            private boolean stopped;

            @Override
            public void write(int b) {
                line.append((char) b);
                if (!stopped && line.indexOf("1s  sent") >= 0) {
                    stopped = true;
                    Thread.ofVirtual().start(() -> {
                        try {
                            target.close();
                        } catch (Exception e) {
                            throw new IllegalStateException(e);
                        }
                    });
                }
                if (b == '\n') {
                    line.setLength(0);
                }
            }
        }, true);
        long startNs = System.nanoTime();
        RunSummary summary = Generator.run(spec(target, "/hello?wait=5",
                        new LoadModel.OpenLoop(200, LoadModel.InterArrival.CONSTANT))
                .warmupMs(0).durationMs(3_000).responseTimeoutMs(1_000).build(), null, stopsTheTargetAfterOneSecond);

        assertThat(summary.completed()).isPositive();
        assertThat(summary.errorCount()).isPositive();
        assertThat(summary.errors().keySet().stream().filter(c -> summary.errors().get(c) > 0))
                .isSubsetOf(List.of(ErrorClass.CONNECT_TIMEOUT, ErrorClass.RESET, ErrorClass.RESPONSE_TIMEOUT, ErrorClass.TLS));
        assertThat((System.nanoTime() - startNs) / 1_000_000).as("ms the run took").isLessThan(15_000);
    }

    private static InProcessNettyTarget h3Target() throws Exception {
        return new InProcessNettyTarget(certificate.tls(), false, true);
    }

    private static LoadSpec.Builder spec(InProcessNettyTarget target, String path, LoadModel model) {
        // A cold JVM's first QUIC handshakes, both sides in it and a neighbour class beside it, can take seconds.
        return LoadSpec.of(target.uri("https", path), model).toBuilder().http3(true).warmupMs(1_000).durationMs(2_000)
                .connectTimeoutMs(5_000).trust(new TlsTrust(certificate.pem().toString(), false));
    }

    /** The run's one-line refusal: a {@link GeneratorException} before any load. */
    private static String failure(LoadSpec spec) {
        GeneratorException e = catchThrowableOfType(GeneratorException.class, () -> run(spec));
        assertThat(e).as("a refusal").isNotNull();
        assertThat(e.getMessage()).doesNotContain("\n");
        return e.getMessage();
    }

    private static RunSummary run(LoadSpec spec) {
        return Generator.run(spec, null, new PrintStream(new ByteArrayOutputStream()));
    }
}
