package dev.gauntlet.loadgen;

import dev.gauntlet.api.ClientCatalogue.ClientEntry;
import dev.gauntlet.api.ClientCatalogue;
import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.Protocol;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.TlsTrust;
import dev.gauntlet.loadgen.TestServer.Behaviour;
import dev.gauntlet.loadgen.failure.GeneratorException;
import dev.gauntlet.loadgen.run.Generator;
import dev.gauntlet.loadgen.transport.Http1Io;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.TargetTls;
import dev.gauntlet.targets.dummy.DummyServer;
import dev.gauntlet.targets.jetty.JettyTargets;
import dev.gauntlet.targets.netty.NettyTargets;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What every client library engine must do, checked by running the real generator in-process
 * with the library's clients from {@link ClientCatalogue} (every mode), each a short bounded run:
 * it sends the lean engine's request and nothing a server could take differently, on kept-alive
 * connections, with no retry; nothing in the library caps the requests in flight; each failure
 * lands in its error class. An engine module runs it for its library with a subclass:
 *
 * <pre>{@code
 * class OkHttpContractTest extends ClientEngineContract {
 *     OkHttpContractTest() { super("okhttp"); }
 * }
 * }</pre>
 *
 * <p>A client whose engine class is not on the module's classpath fails every test, the class named:
 * a misspelt class in {@code clients.yaml} fails the build.
 * The headers a library sends beyond the lean engine's are printed, one line per client, and are
 * in every assertion message about the request.
 *
 * <p>Two cases run at once: each starts its own servers and clients, and most of a case is waiting (holds, timeouts),
 * so a library's contract takes about half as long; nothing here is timed but generous upper bounds.
 */
@Execution(ExecutionMode.CONCURRENT)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(20)
public abstract class ClientEngineContract {
    /** Requests held at once against the dummy target: more than any library's default per-host pool. */
    private static final int HELD = 200;
    private static final long HOLD_MS = 1_000;
    private static final int HELD_AT_THE_END = 100;
    /** Closed loop of this many for the request check: keep-alive shows as about this many connections. */
    private static final int KEPT_ALIVE = 4;
    private static final int REQUESTS = 200;
    /**
     * The bound on those requests' run, which ends at the last: a warm library sends them in well under a second, a
     * cold one beside a build took 5 s for 146 (spring-async, 2026-12-06); within the test's own 20 s.
     */
    private static final long REQUESTS_WITHIN_MS = 15_000;
    /** The misbehaving server's runs: a constant rate over a short measured phase, so a known count. */
    private static final double FAILING_RATE_PER_SEC = 40;
    private static final long FAILING_MS = 250;
    private static final long RESPONSE_TIMEOUT_MS = 300;
    /** Long enough for a cold library's first TLS handshake, or a reset seen late; the resets end every request long before it. */
    private static final long RESET_RESPONSE_TIMEOUT_MS = 5_000;
    /** Far beyond a loopback answer, and a few of them fit in the reuse check's measured phase. */
    private static final long REUSE_RESPONSE_TIMEOUT_MS = 2_000;
    /** Long, so the driver's deadline for a request (connect + response timeout + 1 s) is far from the library's. */
    private static final long CONNECT_TIMEOUT_MS = 2_000;
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    private final String library;

    /** @param library the library's id in {@code clients.yaml}, e.g. {@code okhttp} */
    protected ClientEngineContract(String library) {
        this.library = library;
    }

    List<ClientEntry> clients() {
        List<ClientEntry> clients = ClientCatalogue.builtIn().clients().stream()
                .filter(client -> client.library().id().equals(library)).toList();
        assertThat(clients).as("clients of library %s in clients.yaml", library).isNotEmpty();
        return clients;
    }

    Stream<Arguments> misbehaviours() {
        return clients().stream().flatMap(client -> Stream.of(
                Arguments.of(client, Behaviour.REFUSE, ErrorClass.REFUSED),
                Arguments.of(client, Behaviour.RESET, ErrorClass.RESET),
                Arguments.of(client, Behaviour.WRONG_STATUS, ErrorClass.BAD_STATUS),
                Arguments.of(client, Behaviour.WRONG_BODY, ErrorClass.BAD_BODY),
                Arguments.of(client, Behaviour.NEVER_ANSWER, ErrorClass.RESPONSE_TIMEOUT)));
    }

    /** Every client with each protocol beyond cleartext HTTP/1.1, whether its library declares it or not. */
    Stream<Arguments> protocolsBeyondHttp1() {
        return clients().stream().flatMap(client -> Stream.of(Protocol.values())
                .filter(protocol -> protocol != Protocol.HTTP1).map(protocol -> Arguments.of(client, protocol)));
    }

    /** Every client whose library speaks HTTP/2 (h2 at least: every such library speaks it). */
    Stream<ClientEntry> http2Clients() {
        return clients().stream().filter(client -> client.library().speaks(Protocol.H2));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    public void sendsTheLeanEnginesRequestOnceOnKeptAliveConnections(ClientEntry client) throws Exception {
        assertEngineOnClasspath(client, ClientEngineContract.class.getClassLoader());
        try (TestServer server = TestServer.hello()) {
            LoadSpec spec = spec(server.uri("/hello?wait=0"), new LoadModel.ClosedLoop(KEPT_ALIVE))
                    .toBuilder().durationMs(REQUESTS_WITHIN_MS).maxRequests(REQUESTS).build();
            RunSummary summary = run(spec, client);

            String lean = Http1Io.requestBytes(spec);
            List<String> heads = server.heads();
            assertThat(heads).as("%s: request heads received", client.name()).isNotEmpty();
            RequestHead sent = RequestHead.parse(heads.getFirst());
            RequestHead expected = RequestHead.parse(lean);
            String extras = sent.extraHeaders(expected);
            String about = client.name() + " sent\n" + heads.getFirst() + "the lean engine sends\n" + lean
                    + "headers beyond the lean engine's: " + extras;

            assertThat(sent.requestLine()).as(about).isEqualTo(expected.requestLine());
            assertThat(sent.values("Host")).as(about).containsExactly(spec.url().getHost() + ":" + spec.url().getPort());
            assertThat(sent.values("User-Agent")).as(about).containsExactly("gauntlet");
            assertThat(sent.values("Accept-Encoding")).as(about)
                    .noneMatch(value -> value.matches("(?i).*\\b(gzip|deflate|br|compress|zstd)\\b.*"));
            assertThat(sent.values("Upgrade")).as(about).isEmpty();
            assertThat(sent.values("HTTP2-Settings")).as(about).isEmpty();
            assertThat(sent.values("Connection")).as(about).noneMatch(value -> value.matches("(?i).*\\b(close|upgrade)\\b.*"));
            assertThat(sent.values("Cookie")).as(about).isEmpty();
            assertThat(sent.values("Transfer-Encoding")).as(about).isEmpty();
            assertThat(sent.values("Content-Length")).as(about).allMatch("0"::equals);
            assertThat(heads).as("%s: every request the same", client.name()).containsOnly(heads.getFirst());

            System.out.printf("%s sends beyond the lean engine's request: %s; %d connections for %d requests%n", client.name(),
                    extras.isEmpty() ? "nothing" : extras, server.connections() - 1, server.requests());
            assertThat(summary.errorCount()).as("%s: %s", client.name(), summary.errors()).isZero();
            assertThat(summary.sent()).as(client.name()).isGreaterThanOrEqualTo(REQUESTS);
            assertThat(server.requests()).as("%s: requests the server received, against the summary's sent (a retry adds one)",
                    client.name()).isEqualTo(summary.sent());
            // Each request of a closed loop of 4 on a connection of its own at worst, plus the generator's reachability check.
            assertThat(server.connections()).as("%s: connections for %d requests in a closed loop of %d (keep-alive)",
                    client.name(), summary.sent(), KEPT_ALIVE).isLessThanOrEqualTo(2 * KEPT_ALIVE + 1);
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    public void holdsTwoHundredRequestsAtOnceWithoutAPoolCap(ClientEntry client) throws Exception {
        assertEngineOnClasspath(client, ClientEngineContract.class.getClassLoader());
        DummyServer dummy = new DummyServer();
        RequestStats stats = new RequestStats();
        int port = dummy.start(TargetSettings.defaults(), stats);
        try {
            // 200 requests start at once and each is held a second: the measured phase ends before any returns.
            LoadSpec spec = spec(URI.create("http://127.0.0.1:" + port + "/hello?wait=" + HOLD_MS), new LoadModel.ClosedLoop(HELD))
                    .toBuilder().durationMs(HOLD_MS - 100).connectTimeoutMs(5_000).responseTimeoutMs(10_000).build();
            RunSummary summary = run(spec, client);

            assertThat(summary.errorCount()).as("%s: %s", client.name(), summary.errors()).isZero();
            assertThat(summary.completed()).as(client.name()).isEqualTo(HELD);
            assertThat(stats.snapshot().maxInFlight())
                    .as("%s: requests the dummy target held at once (a pool or dispatcher cap shows here)", client.name())
                    .isEqualTo(HELD);
            assertThat(stats.snapshot().started()).as("%s: requests the target received", client.name()).isEqualTo(summary.sent());
        } finally {
            dummy.stop();
        }
    }

    /**
     * The max-concurrency model with every request still held when the measured phase ends (the
     * client suite's long-held case): the driver reads what is held and lets it go, uncounted, at
     * the phase's end, long before any timeout; a library that failed its held requests on its own
     * would show as errors.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    public void heldRequestsAreLetGoAtTheEndOfTheMeasuredPhase(ClientEntry client) throws Exception {
        assertEngineOnClasspath(client, ClientEngineContract.class.getClassLoader());
        try (TestServer server = new TestServer(Behaviour.NEVER_ANSWER)) {
            LoadSpec spec = spec(server.uri("/hello"), new LoadModel.MaxConcurrency(HELD_AT_THE_END)).toBuilder()
                    .warmupMs(200).durationMs(1_000).connectTimeoutMs(5_000).responseTimeoutMs(20_000).build();
            long startNs = System.nanoTime();
            RunSummary summary = run(spec, client);
            long elapsedMs = (System.nanoTime() - startNs) / 1_000_000;

            assertThat(summary.errorCount()).as("%s: %s", client.name(), summary.errors()).isZero();
            assertThat(summary.concurrency().held()).as(client.name()).isEqualTo(HELD_AT_THE_END);
            assertThat(summary.hardCapReached()).as(client.name()).isFalse();
            // Well before the response timeout (20 s) or the driver's deadline: the phase's end let them go.
            assertThat(elapsedMs).as(client.name()).isLessThan(10_000);
        }
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("misbehaviours")
    public void eachFailureLandsInItsClassWithoutARetry(ClientEntry client, Behaviour behaviour, ErrorClass expected)
            throws Exception {
        assertEngineOnClasspath(client, ClientEngineContract.class.getClassLoader());
        // Short where the timeout is the case; elsewhere long, so that only the misbehaviour ends a request, however
        // late a loaded machine lets the library see a reset (okhttp-virtual, beside a build: 1 of 10 timed out at 300 ms).
        long responseTimeoutMs = expected == ErrorClass.RESPONSE_TIMEOUT ? RESPONSE_TIMEOUT_MS : RESET_RESPONSE_TIMEOUT_MS;
        try (TestServer server = new TestServer(behaviour)) {
            LoadSpec spec = spec(server.uri("/hello"), new LoadModel.OpenLoop(FAILING_RATE_PER_SEC, LoadModel.InterArrival.CONSTANT))
                    .toBuilder().durationMs(FAILING_MS).connectTimeoutMs(CONNECT_TIMEOUT_MS).responseTimeoutMs(responseTimeoutMs)
                    .build();
            long startNs = System.nanoTime();
            RunSummary summary = run(spec, client);
            long elapsedMs = (System.nanoTime() - startNs) / 1_000_000;

            String about = client.name() + " against " + behaviour + ": " + summary.errors();
            assertThat(summary.sent()).as(about).isGreaterThanOrEqualTo((long) (FAILING_RATE_PER_SEC * FAILING_MS / 1_000));
            assertThat(summary.completed()).as(about).isZero();
            assertThat(summary.errorCount()).as(about).isEqualTo(summary.sent());
            // A refusing server lets the reachability check in, then closes: a connection racing that close is reset.
            assertThat(summary.errors().getOrDefault(expected, 0L)).as(about)
                    .isGreaterThanOrEqualTo(behaviour == Behaviour.REFUSE ? summary.sent() - 2 : summary.sent());
            if (behaviour != Behaviour.REFUSE) {
                assertThat(server.requests()).as("%s: requests the server received, against the summary's sent (a retry adds one)",
                        about).isEqualTo(summary.sent());
            }
            assertThat(summary.hardCapReached()).as(about).isFalse();
            // The library's own response timeout ends the run, a second before the driver's deadline would.
            assertThat(elapsedMs).as(about).isLessThan(FAILING_MS + responseTimeoutMs + CONNECT_TIMEOUT_MS);
        }
    }

    /**
     * Each protocol beyond cleartext HTTP/1.1, against a real server speaking it (the Jetty target, handler style, or
     * for h3 the Netty target, event loop style, HTTP/3 on the UDP port of its TCP port's number; each with a
     * certificate of its own made at start and trusted through its PEM file). One the library declares: every
     * request answered, on the protocol asked for (the driver fails a response on another version as
     * {@code PROTOCOL}), each received once. One it does not: refused before anything is sent, the protocols it speaks
     * named.
     */
    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("protocolsBeyondHttp1")
    public void speaksEachDeclaredProtocolAndRefusesTheOthers(ClientEntry client, Protocol protocol) throws Exception {
        assertEngineOnClasspath(client, ClientEngineContract.class.getClassLoader());
        TargetTls tls = protocol.tls() ? TargetTls.selfSigned("127.0.0.1") : null;
        Path pem = Files.createTempFile("gauntlet-contract-", ".pem");
        // h3 needs a server that serves it; a library that does not speak it is refused before any server is reached.
        boolean h3 = protocol.http3() && client.library().speaks(protocol);
        HelloServer server = h3 ? NettyTargets.eventLoop() : JettyTargets.handlerVirtual();
        RequestStats stats = new RequestStats();
        try {
            if (tls != null) {
                tls.writeCertificatePem(pem);
            }
            int port = server.start(new TargetSettings("127.0.0.1", "127.0.0.1", 0, 0, TargetSettings.DEFAULT_WORKERS, 2,
                    TargetSettings.DEFAULT_ASYNC_THREADS, 1_000, true, true, tls, protocol.http2(), h3), stats);
            URI url = URI.create((protocol.tls() ? "https" : "http") + "://127.0.0.1:" + port + "/hello?wait=0");
            LoadSpec spec = spec(url, new LoadModel.ClosedLoop(KEPT_ALIVE)).toBuilder()
                    .durationMs(REQUESTS_WITHIN_MS).maxRequests(REQUESTS).http2(protocol.http2(), 1).http3(protocol.http3())
                    .trust(protocol.tls() ? new TlsTrust(pem.toString(), false) : TlsTrust.SYSTEM).build();
            if (!client.library().speaks(protocol)) {
                assertThatThrownBy(() -> run(spec, client)).isInstanceOf(GeneratorException.class)
                        .hasMessageStartingWith("client " + client.name() + " speaks ")
                        .hasMessageContaining("not " + protocol.label());
                assertThat(stats.snapshot().started()).as("%s: requests sent over %s", client.name(), protocol.label()).isZero();
                return;
            }
            RunSummary summary = run(spec, client);

            String about = client.name() + " over " + protocol.label() + ": " + summary.errors();
            assertThat(summary.errorCount()).as(about).isZero();
            assertThat(summary.sent()).as(about).isGreaterThanOrEqualTo(REQUESTS);
            assertThat(stats.snapshot().started()).as("%s: requests the target received, against the summary's sent", about)
                    .isEqualTo(summary.sent());
        } finally {
            server.stop();
            Files.deleteIfExists(pem);
        }
    }

    /**
     * Over h2c, or h2 for a library without h2c, a server that resets every stream
     * ({@code RST_STREAM}), alternately {@code INTERNAL_ERROR} and {@code REFUSED_STREAM}: each request is
     * {@code STREAM_RESET}, as the lean engine counts it, and none is sent again (a refused stream is one a library may
     * retry on its own, the server never having processed it). Against {@link ScriptedHttp2Server}, which answers
     * nothing else.
     */
    @ParameterizedTest(name = "{0}", allowZeroInvocations = true)
    @MethodSource("http2Clients")
    public void aStreamTheServerResetsIsAStreamResetNotRetried(ClientEntry client) throws Exception {
        assertEngineOnClasspath(client, ClientEngineContract.class.getClassLoader());
        // In clear where the library speaks h2c, which spares a cold library's first TLS handshakes.
        TargetTls tls = client.library().speaks(Protocol.H2C) ? null : TargetTls.selfSigned("127.0.0.1");
        Path pem = Files.createTempFile("gauntlet-contract-", ".pem");
        ScriptedHttp2Server.Script resetEach = (exchange, streamId) -> exchange.reset(streamId,
                exchange.runRequest % 2 == 0 ? ScriptedHttp2Server.REFUSED_STREAM : ScriptedHttp2Server.INTERNAL_ERROR);
        try (ScriptedHttp2Server server = new ScriptedHttp2Server(tls == null ? null : tls.sslContext(), resetEach)) {
            if (tls != null) {
                tls.writeCertificatePem(pem);
            }
            LoadSpec spec = spec(server.uri("/hello"), new LoadModel.OpenLoop(FAILING_RATE_PER_SEC, LoadModel.InterArrival.CONSTANT))
                    .toBuilder().durationMs(FAILING_MS).connectTimeoutMs(CONNECT_TIMEOUT_MS).responseTimeoutMs(RESET_RESPONSE_TIMEOUT_MS)
                    .http2(true, 1).trust(tls == null ? TlsTrust.SYSTEM : new TlsTrust(pem.toString(), false)).build();
            RunSummary summary = run(spec, client);

            String about = client.name() + " against streams reset: " + summary.errors();
            assertThat(summary.sent()).as(about).isGreaterThanOrEqualTo((long) (FAILING_RATE_PER_SEC * FAILING_MS / 1_000));
            assertThat(summary.completed()).as(about).isZero();
            assertThat(summary.errors().getOrDefault(ErrorClass.STREAM_RESET, 0L)).as(about).isEqualTo(summary.sent());
            assertThat(server.requests.get()).as("%s: requests the server received, against the summary's sent (a retry adds one)",
                    about).isEqualTo(summary.sent());
        } finally {
            Files.deleteIfExists(pem);
        }
    }

    /**
     * The retry libraries make by default: a request that fails on a reused connection before any
     * response byte is sent again on a new one. The server read it, so a retry shows in its count. The response
     * timeout is short because once in a few hundred runs on a loaded machine jetty-async never ended a request on
     * the reset connection: that request then counts a timeout, within the measured phase, and the check still holds.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("clients")
    public void aResetOnAKeptAliveConnectionIsNotRetried(ClientEntry client) throws Exception {
        assertEngineOnClasspath(client, ClientEngineContract.class.getClassLoader());
        try (TestServer server = new TestServer(Behaviour.RESET_ON_REUSE)) {
            LoadSpec spec = spec(server.uri("/hello"), new LoadModel.ClosedLoop(1))
                    .toBuilder().durationMs(10_000).maxRequests(10).responseTimeoutMs(REUSE_RESPONSE_TIMEOUT_MS).build();
            RunSummary summary = run(spec, client);

            String about = client.name() + " against RESET_ON_REUSE: completed " + summary.completed() + ", " + summary.errors();
            assertThat(summary.sent()).as(about).isGreaterThanOrEqualTo(10);
            assertThat(server.requests()).as("%s: requests the server received, against the summary's sent (a retry adds one)",
                    about).isEqualTo(summary.sent());
            assertThat(summary.errors().getOrDefault(ErrorClass.RESET, 0L)).as(about).isPositive();
            assertThat(summary.completed() + summary.errorCount()).as(about).isEqualTo(summary.sent());
        }
    }

    /**
     * 200 held h2c streams against the Jetty target, which allows 128 at once on a connection, all reach it at once: a
     * library's HTTP/2 pool that opened no second connection would queue the rest. Not in the contract for every
     * library: some open one connection per request while the first one's SETTINGS are on their way, and OkHttp's then
     * exceed the server's limit (docs/clients.md). A module whose pool needed a setting for it calls this.
     *
     * @param client the client's catalogue name, e.g. {@code vertx-async}
     */
    public static void assertHoldsStreamsBeyondOneConnectionsLimit(String client) throws Exception {
        long holdMs = 2_000;
        HelloServer server = JettyTargets.handlerVirtual();
        RequestStats stats = new RequestStats();
        try {
            int port = server.start(new TargetSettings("127.0.0.1", "127.0.0.1", 0, 0, TargetSettings.DEFAULT_WORKERS, 2,
                    TargetSettings.DEFAULT_ASYNC_THREADS, 1_000, true, true, null, true, false), stats);
            URI url = URI.create("http://127.0.0.1:" + port + "/hello?wait=");
            // The library is built inside the run's clock: a first short run loads its classes, so that building it
            // again does not eat the held run's measured phase.
            run(heldStreams(url, 0, holdMs, new LoadModel.ClosedLoop(1)).toBuilder().maxRequests(10).build(), client);
            // 200 requests start at once and each is held two seconds: the measured phase ends before any returns.
            RunSummary summary = run(heldStreams(url, holdMs, holdMs, new LoadModel.ClosedLoop(HELD)), client);

            String about = client + ": sent " + summary.sent() + ", completed " + summary.completed() + ", "
                    + summary.errors();
            assertThat(summary.errorCount()).as(about).isZero();
            assertThat(summary.completed()).as(about).isEqualTo(HELD);
            assertThat(stats.snapshot().maxInFlight()).as("%s: streams the target held at once (a pool cap shows here)", about)
                    .isEqualTo(HELD);
        } finally {
            server.stop();
        }
    }

    private static LoadSpec heldStreams(URI urlWithoutWait, long waitMs, long holdMs, LoadModel model) {
        return spec(URI.create(urlWithoutWait + Long.toString(waitMs)), model).toBuilder().durationMs(holdMs - 100)
                .connectTimeoutMs(5_000).responseTimeoutMs(10_000).http2(true, 1).build();
    }

    private static RunSummary run(LoadSpec spec, String client) {
        return Generator.run(spec.toBuilder().client(client).build(), null, QUIET);
    }

    private static LoadSpec spec(URI url, LoadModel model) {
        return LoadSpec.of(url, model).toBuilder().warmupMs(0).build();
    }

    private static RunSummary run(LoadSpec spec, ClientEntry client) {
        return run(spec, client.name());
    }

    /** Fails, naming the class, when the client's engine class is not on the loader's classpath. */
    static void assertEngineOnClasspath(ClientEntry client, ClassLoader loader) {
        try {
            Class.forName(client.engineClass(), false, loader);
        } catch (ClassNotFoundException e) {
            throw new AssertionError(client.name() + ": its engine class " + client.engineClass()
                    + " in clients.yaml is not on the classpath of " + client.library().module(), e);
        }
    }

    /** A request head as received: its request line and its headers in order. */
    private record RequestHead(String requestLine, List<String[]> headers) {
        static RequestHead parse(String head) {
            String[] lines = head.split("\r\n");
            List<String[]> headers = new ArrayList<>();
            for (int i = 1; i < lines.length; i++) {
                int colon = lines[i].indexOf(':');
                headers.add(colon < 0 ? new String[]{lines[i], ""}
                        : new String[]{lines[i].substring(0, colon).trim(), lines[i].substring(colon + 1).trim()});
            }
            return new RequestHead(lines[0], headers);
        }

        List<String> values(String name) {
            return headers.stream().filter(header -> header[0].equalsIgnoreCase(name)).map(header -> header[1]).toList();
        }

        /** Headers whose name the other head does not have, as {@code Name: value; ...}. */
        String extraHeaders(RequestHead other) {
            List<String> extras = new ArrayList<>();
            for (String[] header : headers) {
                if (other.values(header[0]).isEmpty()) {
                    extras.add(header[0] + ": " + header[1]);
                }
            }
            return String.join("; ", extras);
        }
    }
}
