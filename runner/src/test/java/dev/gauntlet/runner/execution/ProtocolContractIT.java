package dev.gauntlet.runner.execution;

import dev.gauntlet.api.Protocol;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.api.TargetCatalogue.TargetEntry;
import dev.gauntlet.runner.GauntletHome;
import dev.gauntlet.runner.isolation.RolePlacement;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The target contract over every protocol beyond HTTP/1.1 a catalogue entry declares, checked black-box with clients
 * that are not Gauntlet's: curl (libcurl with nghttp2) for each request and h2load for many streams on one connection.
 * A TLS target is started with {@code --tls self-signed} and checked with its certificate's PEM as the only trust, the
 * host name verified; an HTTP/2 target with {@code --http2 true}, where HTTP/1.1 must still be served (ALPN's
 * {@code http/1.1}, or a cleartext request without the preface) and is checked as fully: so a target serving h2 gets
 * no JVM of its own for HTTPS/1.1.
 *
 * <p>Two targets are checked at once (the build's JUnit parallelism): nothing here is timed but the wait's lower bound,
 * and each case has its own JVM, port and temporary directory.
 *
 * <p>Check some targets only: {@code -Dgauntlet.targets=jetty-,netty-} (name prefixes), as {@link TargetContractIT}.
 */
@Execution(ExecutionMode.CONCURRENT)
class ProtocolContractIT {
    /**
     * Streams at once on one connection: below every server's default stream limit (Tomcat's and Undertow's 100 being the
     * lowest), so the check is about multiplexing, not about a setting.
     */
    private static final int STREAMS = 50;
    private static final long STREAM_WAIT_MS = 1_000;
    private static final Pattern MAX_IN_FLIGHT = Pattern.compile("\"maxInFlight\":(\\d+)");

    @TempDir
    Path logs;

    static Stream<Arguments> protocols() {
        List<String> prefixes = Arrays.stream(System.getProperty("gauntlet.targets", "").split(","))
                .map(String::trim).filter(p -> !p.isEmpty()).toList();
        return TargetCatalogue.builtIn().targets().stream()
                .filter(t -> prefixes.isEmpty() || prefixes.stream().anyMatch(t.name()::startsWith))
                .flatMap(t -> t.protocols().stream().filter(p -> p != Protocol.HTTP1 && !checkedBesideH2(t, p))
                        .map(p -> Arguments.of(Named.of(t.name(), t), p)));
    }

    /** HTTPS/1.1 on a target that serves h2 too: the h2 run checks it on the same port, so it needs no JVM of its own. */
    private static boolean checkedBesideH2(TargetEntry target, Protocol protocol) {
        return protocol == Protocol.HTTPS1 && target.serves(Protocol.H2);
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("protocols")
    void servesTheContractOver(TargetEntry entry, Protocol protocol) throws Exception {
        List<String> flags = new ArrayList<>();
        if (protocol.tls()) {
            flags.addAll(List.of("--tls", "self-signed"));
        }
        if (protocol.http2()) {
            flags.addAll(List.of("--http2", "true"));
        }
        TargetLauncher launcher = new TargetLauncher(GauntletHome.fromSystemProperty(),
                TargetCatalogue.builtIn(), RolePlacement.unplaced("target"), List.of("-Xmx512m"));
        TargetProcess target = launcher.start(entry.name(), flags, logs.resolve("target.log"));
        try {
            assertThat(target.certificate().isPresent()).as("a TLS certificate line").isEqualTo(protocol.tls());
            Curl curl = new Curl(target);

            servesHello(curl, protocol);
            if (protocol.http2()) {
                // HTTP/1.1 beside HTTP/2 on the same port: HTTPS/1.1 is checked here, not in a JVM of its own.
                servesHello(curl, protocol.tls() ? Protocol.HTTPS1 : Protocol.HTTP1);

                target.endpoint().resetStats();
                assertThat(h2load(target, protocol)).as("h2load's requests line").contains(
                        STREAMS + " total, " + STREAMS + " started, " + STREAMS + " done, " + STREAMS + " succeeded");
                int expected = entry.maxConcurrency() == null ? STREAMS : Math.min(STREAMS, entry.maxConcurrency());
                assertThat(maxInFlight(target.endpoint().stats())).as("streams held at once on one connection")
                        .isGreaterThanOrEqualTo(expected);
            }
            assertThat(target.terminateGracefully()).as("exited within 5 s of SIGTERM").isTrue();
        } finally {
            target.close();
        }
    }

    /** The contract's answers over {@code protocol}: hello on that HTTP version, the wait, 404 and 400. */
    private static void servesHello(Curl curl, Protocol protocol) throws IOException, InterruptedException {
        Curl.Answer hello = curl.get("/hello", protocol);
        assertThat(hello.status()).as(protocol.label()).isEqualTo(200);
        assertThat(hello.body()).as(protocol.label()).isEqualTo("hello");
        assertThat(hello.version()).as("HTTP version over %s", protocol.label()).isEqualTo(protocol.http2() ? "2" : "1.1");

        long waitStartNs = System.nanoTime();
        assertThat(curl.get("/hello?wait=100", protocol).body()).as(protocol.label()).isEqualTo("hello");
        assertThat((System.nanoTime() - waitStartNs) / 1_000_000).as("ms for wait=100 over %s", protocol.label())
                .isGreaterThanOrEqualTo(100L);

        assertThat(curl.get("/nothing-here", protocol).status()).as(protocol.label()).isEqualTo(404);
        assertThat(curl.get("/hello?wait=soon", protocol).status()).as(protocol.label()).isEqualTo(400);
    }

    /** {@link #STREAMS} waiting requests at once on one connection. */
    private String h2load(TargetProcess target, Protocol protocol) throws IOException, InterruptedException {
        String url = (protocol.tls() ? "https" : "http") + "://" + TargetLauncher.HOST + ":" + target.endpoint().port()
                + "/hello?wait=" + STREAM_WAIT_MS;
        return ExternalTool.run(List.of("h2load", "-n", String.valueOf(STREAMS), "-c", "1", "-m", String.valueOf(STREAMS), url));
    }

    /** curl, one request per call, trusting nothing but the target's certificate. */
    private record Curl(TargetProcess target) {
        record Answer(int status, String version, String body) {
        }

        Answer get(String path, Protocol protocol) throws IOException, InterruptedException {
            List<String> command = new ArrayList<>(List.of("curl", "--silent", "--show-error", "--max-time", "10",
                    "--write-out", "\n%{http_code} %{http_version}"));
            switch (protocol) {
                case HTTP1, HTTPS1 -> command.add("--http1.1");
                case H2 -> command.add("--http2");
                case H2C -> command.add("--http2-prior-knowledge");
            }
            target.certificate().ifPresent(pem -> command.addAll(List.of("--cacert", pem.toString())));
            command.add((protocol.tls() ? "https" : "http") + "://" + TargetLauncher.HOST + ":" + target.endpoint().port() + path);
            String output = ExternalTool.run(command);
            int lastLine = output.lastIndexOf('\n');
            String[] statusAndVersion = output.substring(lastLine + 1).trim().split(" ");
            return new Answer(Integer.parseInt(statusAndVersion[0]), statusAndVersion[1], output.substring(0, lastLine));
        }
    }

    private static long maxInFlight(String statsJson) {
        Matcher m = MAX_IN_FLIGHT.matcher(statsJson);
        assertThat(m.find()).as("maxInFlight in %s", statsJson).isTrue();
        return Long.parseLong(m.group(1));
    }

    static {
        // The clients this test drives: a missing one is a set-up failure, named, not a skipped check.
        for (String tool : List.of("curl", "h2load")) {
            assertThat(Stream.of(System.getenv("PATH").split(":")).anyMatch(dir -> Files.isExecutable(Path.of(dir, tool))))
                    .as("%s on the PATH (Debian: curl, nghttp2-client; .ci/run installs them)", tool).isTrue();
        }
    }
}
