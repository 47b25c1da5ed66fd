package dev.gauntlet.runner.execution;

import dev.gauntlet.api.Protocol;
import dev.gauntlet.api.TargetCatalogue.TargetEntry;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.isolation.RolePlacement;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The target contract over every protocol beyond HTTP/1.1 a catalogue entry declares, checked black-box with clients
 * that are not Gauntlet's ({@link ForeignClients}): hello on that HTTP version, the wait, 404 and 400; over HTTP/2 the
 * same over HTTP/1.1 on that port too (ALPN's {@code http/1.1}, or a cleartext request without the preface), so that
 * HTTPS/1.1 needs no port of its own where h2 is served, and 50 streams held at once on one connection; over HTTP/3
 * (aioquic) the same, on the UDP port of the TCP port's number, which serves HTTPS/1.1. Every protocol
 * of an entry is served by one JVM, further instances of its server on ports of their own ({@code --also}); a
 * framework that boots once per process (Quarkus) refuses that and gets a JVM a protocol.
 *
 * <p>Two entries are checked at once (the build's JUnit parallelism): nothing here is timed but the wait's lower bound,
 * and each case has its own JVM, ports and temporary directory.
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
    /** TargetMain's words when a server cannot start twice in one JVM, and so refuses {@code --also}. */
    private static final String ONCE_PER_JVM = "starts once per JVM";

    @TempDir
    Path logs;

    static Stream<Named<TargetEntry>> targets() {
        return ContractTargets.selected()
                .filter(t -> !beyondHttp1(t).isEmpty())
                .map(t -> Named.of(t.name(), t));
    }

    /** The protocols an entry declares beyond HTTP/1.1, but HTTPS/1.1 where h2 is served: that port serves it too. */
    private static List<Protocol> beyondHttp1(TargetEntry entry) {
        return entry.protocols().stream()
                .filter(p -> p != Protocol.HTTP1 && !(p == Protocol.HTTPS1 && entry.serves(Protocol.H2))).toList();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("targets")
    void servesTheContractOverEveryProtocolItDeclares(TargetEntry entry) throws Exception {
        // C1 alone: a target JVM starts about 15 % sooner on two CPUs, and the contract is the same whatever compiles it.
        TargetLauncher launcher = new TargetLauncher(GauntletHome.fromSystemProperty(),
                TargetCatalogue.builtIn(), RolePlacement.unplaced("target"), List.of("-Xmx512m", "-XX:TieredStopAtLevel=1"));
        List<Protocol> protocols = beyondHttp1(entry);
        List<String> also = List.of("--also", protocols.stream().map(Protocol::label).collect(Collectors.joining(",")));
        TargetProcess target;
        try {
            target = launcher.start(entry.name(), also, logs.resolve("target.log"));
        } catch (UserError e) {
            assertThat(e.getMessage()).as("why --also was refused").contains(ONCE_PER_JVM);
            for (Protocol protocol : protocols) {
                try (TargetProcess alone = launcher.start(entry.name(), TargetLauncher.protocolFlags(protocol),
                        logs.resolve("target-" + protocol.label() + ".log"))) {
                    servesTheContractOver(entry, alone, alone.endpoint().port(), protocol);
                    assertThat(alone.terminateGracefully()).as("exited within 5 s of SIGTERM").isTrue();
                }
            }
            return;
        }
        try {
            for (Protocol protocol : protocols) {
                servesTheContractOver(entry, target, target.alsoPort(protocol).orElseThrow(), protocol);
            }
            assertThat(target.terminateGracefully()).as("exited within 5 s of SIGTERM").isTrue();
        } finally {
            target.close();
        }
    }

    /** The contract over {@code protocol} on {@code port}; over HTTP/2 also over HTTP/1.1 there, and many streams at once. */
    private static void servesTheContractOver(TargetEntry entry, TargetProcess target, int port, Protocol protocol)
            throws Exception {
        if (protocol.tls()) {
            assertThat(target.certificate()).as("a TLS certificate line").isPresent();
        }
        ForeignClients clients = new ForeignClients(port, target.certificate());
        if (protocol.http3()) {
            servesHelloOverHttp3(entry, target, clients);
            return;
        }
        servesHello(clients, protocol);
        if (protocol.http2()) {
            servesHello(clients, protocol.tls() ? Protocol.HTTPS1 : Protocol.HTTP1);

            target.endpoint().resetStats();
            assertThat(clients.h2load("/hello?wait=" + STREAM_WAIT_MS, protocol, STREAMS)).as("h2load's requests line")
                    .contains(STREAMS + " total, " + STREAMS + " started, " + STREAMS + " done, " + STREAMS + " succeeded");
            int expected = entry.maxConcurrency() == null ? STREAMS : Math.min(STREAMS, entry.maxConcurrency());
            assertThat(TargetEndpoint.statsField(target.endpoint().stats(), "maxInFlight"))
                    .as("streams held at once on one connection over %s", protocol.label()).isGreaterThanOrEqualTo(expected);
        }
    }

    /**
     * Over HTTP/3 with aioquic: hello, the wait, 404 and 400, and {@link #STREAMS} streams held at once on one QUIC
     * connection; HTTPS/1.1 on the TCP port of the same number with curl.
     */
    private static void servesHelloOverHttp3(TargetEntry entry, TargetProcess target, ForeignClients clients)
            throws IOException, InterruptedException {
        List<ForeignClients.TimedAnswer> answers = clients.h3(1, "/hello", "/hello?wait=100", "/nothing-here", "/hello?wait=soon");
        assertThat(answers).extracting(ForeignClients.TimedAnswer::status).as("h3").containsExactly(200, 200, 404, 400);
        assertThat(answers).extracting(ForeignClients.TimedAnswer::body).as("h3").startsWith("hello", "hello");
        assertThat(answers.get(1).ms()).as("ms for wait=100 over h3").isGreaterThanOrEqualTo(100L);
        servesHello(clients, Protocol.HTTPS1);

        target.endpoint().resetStats();
        assertThat(clients.h3(STREAMS, "/hello?wait=" + STREAM_WAIT_MS)).as("answers to streams at once over h3")
                .hasSize(STREAMS).allMatch(answer -> answer.status() == 200 && answer.body().equals("hello"));
        int expected = entry.maxConcurrency() == null ? STREAMS : Math.min(STREAMS, entry.maxConcurrency());
        assertThat(TargetEndpoint.statsField(target.endpoint().stats(), "maxInFlight"))
                .as("streams held at once on one connection over h3").isGreaterThanOrEqualTo(expected);
    }

    /** Hello on {@code protocol}'s HTTP version, the wait, 404 and 400. */
    private static void servesHello(ForeignClients clients, Protocol protocol) throws IOException, InterruptedException {
        ForeignClients.Answer hello = clients.curl("/hello", protocol);
        assertThat(hello.status()).as(protocol.label()).isEqualTo(200);
        assertThat(hello.body()).as(protocol.label()).isEqualTo("hello");
        assertThat(hello.version()).as("HTTP version over %s", protocol.label()).isEqualTo(protocol.http2() ? "2" : "1.1");

        long waitStartNs = System.nanoTime();
        assertThat(clients.curl("/hello?wait=100", protocol).body()).as(protocol.label()).isEqualTo("hello");
        assertThat((System.nanoTime() - waitStartNs) / 1_000_000).as("ms for wait=100 over %s", protocol.label())
                .isGreaterThanOrEqualTo(100L);

        assertThat(clients.curl("/nothing-here", protocol).status()).as(protocol.label()).isEqualTo(404);
        assertThat(clients.curl("/hello?wait=soon", protocol).status()).as(protocol.label()).isEqualTo(400);
    }
}
