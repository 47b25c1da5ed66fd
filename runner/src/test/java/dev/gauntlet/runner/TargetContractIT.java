package dev.gauntlet.runner;

import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.api.TargetCatalogue.TargetEntry;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

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
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The target contract, checked black-box on every entry of the target catalogue, each in its own
 * JVM on 127.0.0.1 with port 0: READY within 10 s, the exact response bytes, the wait honoured,
 * 200 concurrent waits held at once, 404, a malformed request survived, SIGTERM obeyed.
 *
 * <p>Check some targets only: {@code ./mvnw -pl runner -am verify -Dit.test=TargetContractIT
 * -Dgauntlet.targets=jetty-,dummy} (comma-separated name prefixes).
 */
class TargetContractIT {
    private static final int CONCURRENT_REQUESTS = 200;
    private static final Pattern MAX_IN_FLIGHT = Pattern.compile("\"maxInFlight\":(\\d+)");

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
                TargetCatalogue.builtIn(), CpuPlan.none(), List.of("-Xmx512m"));
        long startNs = System.nanoTime();
        TargetProcess target = launcher.start(entry.name(), List.of(), logs.resolve("target.log"));
        try {
            assertThat(millisSince(startNs)).as("ms until READY").isLessThan(10_000);
            String host = TargetLauncher.HOST;
            int port = target.port();

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

            // One burst first: thread pools grow on demand, and a cold JVM on a busy machine starts threads
            // slower than 200 requests arrive; the contract is about what the server holds once warm.
            concurrentWaits(host, port);
            target.resetStats();
            assertThat(concurrentWaits(host, port)).as("answers to %d concurrent wait=200 requests", CONCURRENT_REQUESTS)
                    .containsOnly("hello").hasSize(CONCURRENT_REQUESTS);
            int expectedInFlight = entry.maxConcurrency() == null ? CONCURRENT_REQUESTS
                    : Math.min(CONCURRENT_REQUESTS, entry.maxConcurrency());
            assertThat(maxInFlight(target.stats())).as("maxInFlight").isGreaterThanOrEqualTo(expectedInFlight);

            assertThat(RawHttp.get(host, port, "/nothing-here").status()).isEqualTo(404);
            assertThat(RawHttp.get(host, port, "/hello?wait=soon").status()).isEqualTo(400);
            assertThat(RawHttp.statusOrClosed(host, port, "GARBAGE\u0001 \r\n\r\n"))
                    .as("status for a malformed request, -1 for a closed connection").isIn(400, -1);
            assertThat(RawHttp.get(host, port, "/hello").bodyText()).as("served after a malformed request").isEqualTo("hello");

            assertThat(target.terminateGracefully()).as("exited within 5 s of SIGTERM").isTrue();
        } finally {
            target.close();
        }
    }

    private static List<String> concurrentWaits(String host, int port) throws Exception {
        try (ExecutorService clients = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<String>> answers = new ArrayList<>();
            for (int i = 0; i < CONCURRENT_REQUESTS; i++) {
                answers.add(clients.submit(() -> RawHttp.get(host, port, "/hello?wait=200").bodyText()));
            }
            List<String> bodies = new ArrayList<>();
            for (Future<String> answer : answers) {
                bodies.add(answer.get());
            }
            return bodies;
        }
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
