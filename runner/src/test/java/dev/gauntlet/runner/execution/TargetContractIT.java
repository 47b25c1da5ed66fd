package dev.gauntlet.runner.execution;

import dev.gauntlet.api.Protocol;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.api.TargetCatalogue.TargetEntry;
import dev.gauntlet.runner.GauntletHome;
import dev.gauntlet.runner.RawHttp;
import dev.gauntlet.runner.UserError;
import dev.gauntlet.runner.isolation.RolePlacement;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.Socket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The target contract, checked black-box on every entry of the target catalogue, each in its own
 * JVM on 127.0.0.1 with port 0: READY within 10 s, the exact response bytes, the wait honoured,
 * 200 concurrent waiting requests held at once, 404, a malformed request survived, the hiccup log
 * since the last stats reset, the JIT's activity, SIGTERM obeyed.
 *
 * <p>Then every protocol beyond HTTP/1.1 the entry declares, served in the same JVM by further instances of its server
 * ({@code --also}), checked with clients that are not Gauntlet's ({@link ForeignClients}): hello on that HTTP version,
 * the wait, 404 and 400; over HTTP/2 the same over HTTP/1.1 on that port too (ALPN's {@code http/1.1}, or a cleartext
 * request without the preface), so HTTPS/1.1 needs no port of its own where h2 is served, and 50 streams held at once
 * on one connection. A framework that boots once per process (Quarkus) refuses {@code --also}; it gets a JVM a
 * protocol.
 *
 * <p>Check some targets only: {@code ./mvnw -pl runner -am verify -Dit.test=TargetContractIT
 * -Dgauntlet.targets=jetty-,dummy} (comma-separated name prefixes).
 */
@Tag("alone") // asserts the time until READY and the wait's length
class TargetContractIT {
    private static final int CONCURRENT_REQUESTS = 200;
    /**
     * Longer than the 200 ms of the old benchmark's check: a cold server on a shared 2-core machine
     * needs more than 200 ms to start 200 threads or to read 200 requests, and the check is about
     * how many the server holds at once, not how fast it takes them.
     */
    private static final long CONCURRENT_WAIT_MS = 1_000;
    private static final Pattern MAX_IN_FLIGHT = Pattern.compile("\"maxInFlight\":(\\d+)");
    /**
     * Streams at once on one HTTP/2 connection: below every server's default stream limit (Tomcat's and Undertow's 100
     * being the lowest), so the check is about multiplexing, not about a setting.
     */
    private static final int STREAMS = 50;
    private static final long STREAM_WAIT_MS = 1_000;
    /** TargetMain's words when a server cannot start twice in one JVM and so refuses {@code --also}. */
    private static final String ONCE_PER_JVM = "starts once per JVM";

    @TempDir
    Path logs;

    static Stream<Named<TargetEntry>> targets() {
        List<String> prefixes = Arrays.stream(System.getProperty("gauntlet.targets", "").split(","))
                .map(String::trim).filter(p -> !p.isEmpty()).toList();
        return TargetCatalogue.builtIn().targets().stream()
                .filter(t -> prefixes.isEmpty() || prefixes.stream().anyMatch(t.name()::startsWith))
                .map(t -> Named.of(t.name(), t));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void honoursTheContract(TargetEntry entry) throws Exception {
        TargetLauncher launcher = new TargetLauncher(GauntletHome.fromSystemProperty(),
                TargetCatalogue.builtIn(), RolePlacement.unplaced("target"), List.of("-Xmx512m"));
        List<Protocol> others = beyondHttp1(entry);
        List<String> also = others.isEmpty() ? List.of() : List.of("--also", others.stream().map(Protocol::label)
                .collect(Collectors.joining(",")));
        boolean jvmAProtocol = false;
        long startNs = System.nanoTime();
        TargetProcess target;
        try {
            target = launcher.start(entry.name(), also, logs.resolve("target.log"));
        } catch (UserError e) {
            assertThat(e.getMessage()).as("why --also was refused").contains(ONCE_PER_JVM);
            jvmAProtocol = true;
            startNs = System.nanoTime();
            target = launcher.start(entry.name(), List.of(), logs.resolve("target.log"));
        }
        try {
            assertThat(millisSince(startNs)).as("ms until READY").isLessThan(10_000);
            honoursTheHttp1Contract(entry, target);
            for (Protocol protocol : others) {
                if (jvmAProtocol) {
                    try (TargetProcess alone = launcher.start(entry.name(), TargetLauncher.protocolFlags(protocol),
                            logs.resolve("target-" + protocol.label() + ".log"))) {
                        servesTheContractOver(entry, alone, alone.endpoint().port(), protocol);
                    }
                } else {
                    servesTheContractOver(entry, target, target.alsoPort(protocol).orElseThrow(), protocol);
                }
            }
            assertThat(target.terminateGracefully()).as("exited within 5 s of SIGTERM").isTrue();
        } finally {
            target.close();
        }
    }

    /** The protocols the entry declares beyond HTTP/1.1, but HTTPS/1.1 where h2 is served: that port serves it too. */
    private static List<Protocol> beyondHttp1(TargetEntry entry) {
        return entry.protocols().stream()
                .filter(p -> p != Protocol.HTTP1 && !(p == Protocol.HTTPS1 && entry.serves(Protocol.H2))).toList();
    }

    private static void honoursTheHttp1Contract(TargetEntry entry, TargetProcess target) throws Exception {
        String host = TargetLauncher.HOST;
        int port = target.endpoint().port();

        RawHttp.Response hello = RawHttp.get(host, port, "/hello");
        // The reason phrase is optional (RFC 9112, section 4); Tomcat 9 and later send none and have no switch for it.
        assertThat(hello.statusLine()).isIn("HTTP/1.1 200 OK", "HTTP/1.1 200 ");
        assertThat(hello.bodyText()).isEqualTo("hello");
        assertThat(hello.header("Content-Type")).isEqualTo("text/plain");
        assertThat(hello.header("Content-Length")).isEqualTo("5");
        List<String> allowed = new ArrayList<>(List.of("content-type", "content-length"));
        entry.extraHeaders().forEach(h -> allowed.add(h.toLowerCase(Locale.ROOT)));
        assertThat(hello.headerNames()).as("headers beyond the contract and the catalogue's extraHeaders")
                .isSubsetOf(allowed);

        long waitStartNs = System.nanoTime();
        assertThat(RawHttp.get(host, port, "/hello?wait=100").bodyText()).isEqualTo("hello");
        assertThat(millisSince(waitStartNs)).as("ms for wait=100").isBetween(100L, 299L);

        long resetEpochMs = System.currentTimeMillis();
        target.endpoint().resetStats();
        assertThat(concurrentWaits(host, port)).as("answers to %d concurrent wait=%d requests",
                CONCURRENT_REQUESTS, CONCURRENT_WAIT_MS)
                .containsOnly("hello").hasSize(CONCURRENT_REQUESTS);
        int expectedInFlight = entry.maxConcurrency() == null ? CONCURRENT_REQUESTS
                : Math.min(CONCURRENT_REQUESTS, entry.maxConcurrency());
        assertThat(maxInFlight(target.endpoint().stats())).as("maxInFlight").isGreaterThanOrEqualTo(expectedInFlight);
        assertHiccupLogSince(target, resetEpochMs);
        // GET /jit: the JIT's time and queue, what a warm-up until steady polls.
        RawHttp.Response jit = RawHttp.get(host, target.endpoint().adminUri("/").getPort(), "/jit");
        assertThat(jit.status()).as("GET /jit").isEqualTo(200);
        assertThat(jit.bodyText()).as("GET /jit").matches("\\{\"compileMs\":[1-9]\\d*,\"queued\":\\d+}");

        assertThat(RawHttp.get(host, port, "/nothing-here").status()).isEqualTo(404);
        assertThat(RawHttp.get(host, port, "/hello?wait=soon").status()).isEqualTo(400);
        assertThat(RawHttp.statusOrClosed(host, port, "GARBAGE\u0001 \r\n\r\n"))
                .as("status for a malformed request, -1 for a closed connection").isIn(400, -1);
        assertThat(RawHttp.get(host, port, "/hello").bodyText()).as("served after a malformed request").isEqualTo("hello");
    }

    /** The contract over {@code protocol} on {@code port}; over HTTP/2 also over HTTP/1.1 there, and many streams at once. */
    private static void servesTheContractOver(TargetEntry entry, TargetProcess target, int port, Protocol protocol)
            throws Exception {
        ForeignClients clients = new ForeignClients(port, target.certificate());
        if (protocol.tls()) {
            assertThat(target.certificate()).as("a TLS certificate line").isPresent();
        }
        servesHello(clients, protocol);
        if (protocol.http2()) {
            servesHello(clients, protocol.tls() ? Protocol.HTTPS1 : Protocol.HTTP1);

            target.endpoint().resetStats();
            assertThat(clients.h2load("/hello?wait=" + STREAM_WAIT_MS, protocol, STREAMS)).as("h2load's requests line")
                    .contains(STREAMS + " total, " + STREAMS + " started, " + STREAMS + " done, " + STREAMS + " succeeded");
            int expected = entry.maxConcurrency() == null ? STREAMS : Math.min(STREAMS, entry.maxConcurrency());
            assertThat(maxInFlight(target.endpoint().stats())).as("streams held at once on one connection over %s",
                    protocol.label()).isGreaterThanOrEqualTo(expected);
        }
    }

    /** Hello on {@code protocol}'s HTTP version, the wait, 404 and 400. */
    private static void servesHello(ForeignClients clients, Protocol protocol) throws IOException, InterruptedException {
        ForeignClients.Answer hello = clients.curl("/hello", protocol);
        assertThat(hello.status()).as(protocol.label()).isEqualTo(200);
        assertThat(hello.body()).as(protocol.label()).isEqualTo("hello");
        assertThat(hello.version()).as("HTTP version over %s", protocol.label()).isEqualTo(protocol.http2() ? "2" : "1.1");

        long waitStartNs = System.nanoTime();
        assertThat(clients.curl("/hello?wait=100", protocol).body()).as(protocol.label()).isEqualTo("hello");
        assertThat(millisSince(waitStartNs)).as("ms for wait=100 over %s", protocol.label()).isGreaterThanOrEqualTo(100L);

        assertThat(clients.curl("/nothing-here", protocol).status()).as(protocol.label()).isEqualTo(404);
        assertThat(clients.curl("/hello?wait=soon", protocol).status()).as(protocol.label()).isEqualTo(400);
    }

    /**
     * Connects first and then sends every request at once, so that on a busy machine the requests
     * still arrive well within one wait of each other and the server really holds them together.
     */
    private static List<String> concurrentWaits(String host, int port) throws Exception {
        List<Socket> connections = new ArrayList<>();
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int i = 0; i < CONCURRENT_REQUESTS; i++) {
                connections.add(RawHttp.connect(host, port));
            }
            String request = "GET /hello?wait=" + CONCURRENT_WAIT_MS + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\n\r\n";
            List<Future<String>> answers = new ArrayList<>();
            for (Socket connection : connections) {
                answers.add(clients.submit(() -> RawHttp.exchange(connection, request).bodyText()));
            }
            List<String> bodies = new ArrayList<>();
            for (Future<String> answer : answers) {
                bodies.add(answer.get());
            }
            return bodies;
        } finally {
            for (Socket connection : connections) {
                connection.close();
            }
        }
    }

    /** {@code GET /hiccup}: an HdrHistogram interval log, read by HdrHistogram's own reader, starting at the last reset. */
    private static void assertHiccupLogSince(TargetProcess target, long resetEpochMs) throws IOException {
        RawHttp.Response hiccup = RawHttp.get(TargetLauncher.HOST, target.endpoint().adminUri("/").getPort(), "/hiccup");
        assertThat(hiccup.status()).as("GET /hiccup").isEqualTo(200);
        assertThat(hiccup.header("Content-Type")).isEqualTo("text/plain");
        HistogramLogReader reader = new HistogramLogReader(new ByteArrayInputStream(hiccup.body()));
        int intervals = 0;
        while (reader.nextIntervalHistogram() != null) {
            intervals++;
        }
        assertThat(intervals).as("intervals in the hiccup log:%n%s", hiccup.bodyText()).isPositive();
        assertThat(Math.round(reader.getStartTimeSec() * 1000)).as("hiccup log start (epoch ms) after the stats reset")
                .isGreaterThanOrEqualTo(resetEpochMs);
    }

    private static long maxInFlight(String statsJson) {
        Matcher m = MAX_IN_FLIGHT.matcher(statsJson);
        assertThat(m.find()).as("maxInFlight in %s", statsJson).isTrue();
        return Long.parseLong(m.group(1));
    }

    private static long millisSince(long startNs) {
        return (System.nanoTime() - startNs) / 1_000_000;
    }
}
