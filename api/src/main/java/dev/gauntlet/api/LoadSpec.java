package dev.gauntlet.api;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.net.URI;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * Everything a generator needs to run one bounded load against one URL; immutable, serialised to
 * JSON when the runner hands it to a generator process.
 *
 * <pre>{@code
 * LoadSpec spec = LoadSpec.of(URI.create("http://127.0.0.1:8080/hello?wait=100"),
 *                             new LoadModel.OpenLoop(1_000, LoadModel.InterArrival.EXPONENTIAL))
 *         .withPhases(5_000, 20_000);
 * LoadSpec held = LoadSpec.of(URI.create("http://127.0.0.1:8080/hello?wait=60000"), new LoadModel.MaxConcurrency(15_000))
 *         .toBuilder().adminUrl(URI.create("http://127.0.0.1:8081")).processes(2).build();
 * }</pre>
 *
 * @param warmupMs            warm-up phase, run and not recorded (0 for none)
 * @param rampMs              open loop: the rate rises from zero to the full rate over this first part of
 *                            the warm-up, so that connection pools and the JIT grow with the load instead
 *                            of meeting all of it at once (0: the full rate from the start)
 * @param durationMs          measured phase; it also ends at {@code maxRequests} when that is > 0
 * @param maxRequests         requests in the measured phase at most; 0 means bounded by duration only
 * @param hardCapMs           wall-clock cap of the whole run, warm-up and drain included; 0: derived
 * @param maxConnections      open loop, adaptive or unbounded: connections open at most, past which a
 *                            request waits; 0 means what the machine's limits allow
 * @param expectedStatus      a response with another status counts as a bad-status error
 * @param expectedBody        a response with another body counts as a bad-body error; null: not checked
 * @param seed                seeds the schedule's randomness, so a run's intended starts repeat
 * @param maxScheduleLagP99Ms schedule-lag p99 allowed before the verdict weighs it against the platform's hiccups
 * @param adminUrl            a Gauntlet target's admin base URL ({@code GET /stats}); null when none
 * @param sourceAddresses     local addresses the connections are spread over (empty: the system's
 *                            choice), to get past the ephemeral ports of one address
 * @param processes           generator processes the load is split over; their histograms merge
 * @param threads             engine threads in each generator process, each with its own connections and
 *                            histograms, merged as processes are (open and closed loops)
 * @param client              a client library engine from {@link ClientCatalogue} (e.g. {@code okhttp-virtual})
 *                            sends the requests; null: the built-in lean engine
 * @param startOffsetNs       a share of a split load: how long after the common start its schedule begins,
 *                            so that constant-rate shares interleave instead of starting together (0 for a whole load)
 * @param steady              warm up until the load is steady, {@code warmupMs} at least and the rule's maximum at
 *                            most ({@link SteadyRule}); null: a fixed warm-up of {@code warmupMs}
 * @param wakeGranularityUs   open loop on the built-in engine: its timer wakes no sooner than this many µs after
 *                            it last slept, and each wake sends every request then due (still timed from its
 *                            intended start); 0 wakes for each intended start; null: chosen as it runs from the
 *                            platform's measured wake-up latency ({@code docs/generator.md}, <i>The open loop's
 *                            wake-ups</i>)
 * @param http2               send the requests as HTTP/2 streams: negotiated by ALPN over TLS ({@code https}), with prior
 *                            knowledge in clear ({@code h2c}); false: HTTP/1.1
 * @param streams             HTTP/2 or HTTP/3: requests in flight on one connection at most (h2load's {@code -m}), within
 *                            the server's {@code SETTINGS_MAX_CONCURRENT_STREAMS} (QUIC's {@code initial_max_streams_bidi}); the load model's connections are
 *                            connections, each carrying up to this many; ignored over HTTP/1.1, so that a suite's
 *                            scenario gives it once for the targets it loads over HTTP/2; a client library engine
 *                            multiplexes as its library does (docs/clients.md) and ignores it too
 * @param trust               {@code https}: the certificates accepted; null for the JDK's ({@link TlsTrust#SYSTEM})
 * @param newConnectionPerRequest every request on a connection of its own, closed after its answer (HTTP/1.1 asks with
 *                            {@code Connection: close}): what a connection's set-up costs, a TLS handshake included
 *                            (HTTP/3: a QUIC handshake), measured as part of each request
 * @param http3               send the requests as HTTP/3 streams of QUIC connections, over UDP to the URL's port
 *                            ({@code https} only); the built-in engine's HTTP/3 is Netty's QUIC codec
 */
public record LoadSpec(
        URI url,
        LoadModel model,
        long warmupMs,
        long rampMs,
        long durationMs,
        long maxRequests,
        long connectTimeoutMs,
        long responseTimeoutMs,
        long hardCapMs,
        int maxConnections,
        int expectedStatus,
        String expectedBody,
        long seed,
        double maxScheduleLagP99Ms,
        URI adminUrl,
        List<String> sourceAddresses,
        int processes,
        int threads,
        String client,
        long startOffsetNs,
        SteadyRule steady,
        Long wakeGranularityUs,
        // Left out of the JSON at their defaults: a spec of HTTP/1.1 in clear is written as before they were added.
        @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean http2,
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = OneStream.class) int streams,
        @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = SystemTrust.class) TlsTrust trust,
        @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean newConnectionPerRequest,
        @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean http3) {

    public static final long DEFAULT_WARMUP_MS = 2_000;
    public static final long DEFAULT_DURATION_MS = 10_000;
    public static final long DEFAULT_CONNECT_TIMEOUT_MS = 2_000;
    public static final long DEFAULT_RESPONSE_TIMEOUT_MS = 30_000;
    /** What the machine's limits allow: open files and ephemeral ports. */
    public static final int DEFAULT_MAX_CONNECTIONS = 0;
    public static final double DEFAULT_MAX_SCHEDULE_LAG_P99_MS = 1.0;
    /**
     * The longest warm-up, measured phase or timeout: a week, longer than any benchmark run, and their
     * sums stay far from overflowing the nanosecond clock the engines time them on.
     */
    public static final long MAX_DURATION_MS = TimeUnit.DAYS.toMillis(7);
    /**
     * Generator processes or engine threads a load is split over at most: more than one machine's CPUs,
     * which more would only take turns on; a larger load spreads over machines ({@code --kubernetes}).
     */
    public static final int MAX_PROCESSES = 256;
    public static final int MAX_THREADS = 256;
    /** The coarsest wake granularity: ten times wrk2's timer, a lateness no latency figure would be read past. */
    public static final long MAX_WAKE_GRANULARITY_US = 10_000;
    /** HTTP/2 streams a connection carries at most: the protocol's own limit is far beyond any server's setting. */
    public static final int MAX_STREAMS = 10_000;

    public LoadSpec {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(model, "model");
        if (!("http".equals(url.getScheme()) || "https".equals(url.getScheme())) || url.getHost() == null) {
            throw new IllegalArgumentException("url must be http://host[:port]/path or https://..., got " + url);
        }
        if (streams == 0) {
            streams = 1;
        }
        if (streams < 1 || streams > MAX_STREAMS) {
            throw new IllegalArgumentException("streams per connection must be 1 to " + MAX_STREAMS + ", got " + streams);
        }
        if (http3 && !tls(url)) {
            throw new IllegalArgumentException("HTTP/3 needs an https:// URL: QUIC is always encrypted");
        }
        if (http3 && http2) {
            throw new IllegalArgumentException("HTTP/2 or HTTP/3, not both");
        }
        if (newConnectionPerRequest && (http2 || http3) && streams > 1) {
            throw new IllegalArgumentException("a new connection per request carries one stream: drop the streams");
        }
        if (newConnectionPerRequest && client != null) {
            throw new IllegalArgumentException("a new connection per request is the built-in engine's; a client library "
                    + "keeps its own pool");
        }
        if (trust == null) {
            trust = TlsTrust.SYSTEM;
        }
        if (!trust.equals(TlsTrust.SYSTEM) && !tls(url)) {
            throw new IllegalArgumentException("a certificate to trust or insecure is for an https url, got " + url);
        }
        if (warmupMs < 0 || durationMs <= 0 || maxRequests < 0) {
            throw new IllegalArgumentException("warm-up must be >= 0 and duration > 0");
        }
        String rampProblem = rampProblem(model, warmupMs, rampMs);
        if (rampProblem != null) {
            throw new IllegalArgumentException("the ramp " + rampProblem);
        }
        if (connectTimeoutMs <= 0 || responseTimeoutMs <= 0) {
            throw new IllegalArgumentException("timeouts must be > 0");
        }
        if (Math.max(Math.max(warmupMs, durationMs), Math.max(connectTimeoutMs, responseTimeoutMs)) > MAX_DURATION_MS) {
            throw new IllegalArgumentException("the warm-up, the measured phase and the timeouts are " + MAX_DURATION_MS
                    + " ms (7 days) at most, got " + warmupMs + ", " + durationMs + ", " + connectTimeoutMs + " and "
                    + responseTimeoutMs + " ms");
        }
        if (maxConnections < 0) {
            throw new IllegalArgumentException("max connections must be >= 1, or 0 for what the limits allow");
        }
        if (model instanceof LoadModel.OpenLoop open && open.connectionPolicy() == LoadModel.ConnectionPolicy.FIXED
                && maxConnections > 0 && maxConnections < open.connections()) {
            throw new IllegalArgumentException("a fixed pool of " + open.connections() + " connections exceeds max connections "
                    + maxConnections);
        }
        if (adminUrl != null && (!"http".equals(adminUrl.getScheme()) || adminUrl.getHost() == null)) {
            throw new IllegalArgumentException("admin url must be http://host:port, got " + adminUrl);
        }
        sourceAddresses = sourceAddresses == null ? List.of() : List.copyOf(sourceAddresses);
        if (processes == 0) {
            processes = 1;
        }
        if (processes < 1 || processes > MAX_PROCESSES) {
            throw new IllegalArgumentException("processes must be 1 to " + MAX_PROCESSES + ", got " + processes);
        }
        if (threads == 0) {
            threads = 1;
        }
        if (threads < 1 || threads > MAX_THREADS) {
            throw new IllegalArgumentException("threads must be 1 to " + MAX_THREADS + ", got " + threads);
        }
        if (threads > 1 && model.holdsRequests()) {
            throw new IllegalArgumentException("max concurrency runs on one thread: its limit is the process's open "
                    + "files, not CPU; split it with processes instead");
        }
        if (client != null && threads > 1) {
            throw new IllegalArgumentException("a client library engine runs from one driver thread, got " + threads
                    + " threads: engine threads (--threads, generator.threads) are the built-in engine's; drop them, or "
                    + "split a client's load with processes");
        }
        if (startOffsetNs < 0) {
            throw new IllegalArgumentException("start offset must be >= 0, got " + startOffsetNs);
        }
        if (steady != null && model.holdsRequests()) {
            throw new IllegalArgumentException("max concurrency holds its requests from the measured phase's start: "
                    + "it has no steady state to warm up to; give it a fixed warm-up");
        }
        if (steady != null && steady.maxMs() < warmupMs) {
            throw new IllegalArgumentException("the warm-up's maximum (" + steady.maxMs() + " ms) must be at least its "
                    + "minimum (" + warmupMs + " ms)");
        }
        if (wakeGranularityUs != null && (wakeGranularityUs < 0 || wakeGranularityUs > MAX_WAKE_GRANULARITY_US)) {
            throw new IllegalArgumentException("the wake granularity must be 0 to " + MAX_WAKE_GRANULARITY_US
                    + " µs (10 ms), got " + wakeGranularityUs + " µs");
        }
        if (wakeGranularityUs != null && (client != null || !model.schedulesByRate())) {
            throw new IllegalArgumentException("a wake granularity is for the built-in engine's open loop: "
                    + (client != null ? "a client library engine's library sends when it can" : "this load has no rate"));
        }
        if (hardCapMs <= 0) {
            hardCapMs = defaultHardCapMs(steady == null ? warmupMs : steady.maxMsFrom(warmupMs), durationMs,
                    responseTimeoutMs);
        }
    }

    /** Jackson's filter for {@code streams}: equal to what it leaves out, the default of one. */
    static final class OneStream {
        @Override
        public boolean equals(Object value) {
            return Integer.valueOf(1).equals(value);
        }

        @Override
        public int hashCode() {
            return 1;
        }
    }

    /** Jackson's filter for {@code trust}: equal to what it leaves out, the JDK's trust. */
    static final class SystemTrust {
        @Override
        public boolean equals(Object value) {
            return TlsTrust.SYSTEM.equals(value);
        }

        @Override
        public int hashCode() {
            return TlsTrust.SYSTEM.hashCode();
        }
    }

    /** Whether the connections are TLS: an {@code https} url. */
    public boolean tls() {
        return tls(url);
    }

    private static boolean tls(URI url) {
        return "https".equals(url.getScheme());
    }

    /** What goes over the wire: HTTP/1.1 or HTTP/2, in clear or over TLS, or HTTP/3. */
    public Protocol protocol() {
        return Protocol.of(tls(), http2, http3);
    }

    /** The longest the warm-up may last: its fixed length, or the steady rule's maximum. */
    public long warmupMaxMs() {
        return steady == null ? warmupMs : steady.maxMsFrom(warmupMs);
    }

    /**
     * What is wrong with a ramp of {@code rampMs} for this load and warm-up, to follow the ramp's
     * name in a message ({@code "must be within the warm-up, ..."}); null when it is right.
     */
    public static String rampProblem(LoadModel model, long warmupMs, long rampMs) {
        if (rampMs < 0 || rampMs > warmupMs) {
            return "must be within the warm-up, 0 to " + warmupMs + " ms, got " + rampMs;
        }
        if (rampMs > 0 && !model.schedulesByRate()) {
            return "raises an open loop's rate; this load has none";
        }
        return null;
    }

    /**
     * The wait the target is asked for: the {@code wait} query parameter of the target contract
     * ({@code /hello?wait=MS}), 0 when the URL has none or it is not a whole number. The generator
     * sizes its pool and judges the target's service time by it.
     */
    public long declaredWaitMs() {
        String query = url.getRawQuery();
        if (query == null) {
            return 0;
        }
        for (String parameter : query.split("&")) {
            if (parameter.startsWith("wait=")) {
                try {
                    return Math.max(0, Long.parseLong(parameter.substring("wait=".length())));
                } catch (NumberFormatException notAWait) {
                    return 0;
                }
            }
        }
        return 0;
    }

    /** A spec with every default: the warm-up, duration and timeouts above, validation of 200 + body. */
    public static LoadSpec of(URI url, LoadModel model) {
        return new LoadSpec(url, model, DEFAULT_WARMUP_MS, 0, DEFAULT_DURATION_MS, 0,
                DEFAULT_CONNECT_TIMEOUT_MS, DEFAULT_RESPONSE_TIMEOUT_MS, 0, DEFAULT_MAX_CONNECTIONS,
                200, "hello", 42, DEFAULT_MAX_SCHEDULE_LAG_P99_MS, null, List.of(), 1, 1, null, 0, null, null, false, 1,
                TlsTrust.SYSTEM, false, false);
    }

    public LoadSpec withPhases(long warmupMs, long durationMs) {
        return toBuilder().warmupMs(warmupMs).durationMs(durationMs).build();
    }

    public Builder toBuilder() {
        return new Builder(this);
    }

    /** Warm-up plus measurement plus time for the last responses to arrive, plus a margin. */
    private static long defaultHardCapMs(long warmupMs, long durationMs, long responseTimeoutMs) {
        return warmupMs + durationMs + Math.max(responseTimeoutMs, 1_000) + 5_000;
    }

    /** Changes a few fields of a spec; a change of phases or timeouts derives the hard cap anew. */
    public static final class Builder {
        private URI url;
        private LoadModel model;
        private long warmupMs;
        private long rampMs;
        private long durationMs;
        private long maxRequests;
        private long connectTimeoutMs;
        private long responseTimeoutMs;
        private long hardCapMs;
        private int maxConnections;
        private int expectedStatus;
        private String expectedBody;
        private long seed;
        private double maxScheduleLagP99Ms;
        private URI adminUrl;
        private List<String> sourceAddresses;
        private int processes;
        private int threads;
        private String client;
        private long startOffsetNs;
        private SteadyRule steady;
        private Long wakeGranularityUs;
        private boolean http2;
        private boolean http3;
        private int streams;
        private TlsTrust trust;
        private boolean newConnectionPerRequest;

        private Builder(LoadSpec spec) {
            url = spec.url;
            model = spec.model;
            warmupMs = spec.warmupMs;
            rampMs = spec.rampMs;
            durationMs = spec.durationMs;
            maxRequests = spec.maxRequests;
            connectTimeoutMs = spec.connectTimeoutMs;
            responseTimeoutMs = spec.responseTimeoutMs;
            hardCapMs = spec.hardCapMs;
            maxConnections = spec.maxConnections;
            expectedStatus = spec.expectedStatus;
            expectedBody = spec.expectedBody;
            seed = spec.seed;
            maxScheduleLagP99Ms = spec.maxScheduleLagP99Ms;
            adminUrl = spec.adminUrl;
            sourceAddresses = spec.sourceAddresses;
            processes = spec.processes;
            threads = spec.threads;
            client = spec.client;
            startOffsetNs = spec.startOffsetNs;
            steady = spec.steady;
            wakeGranularityUs = spec.wakeGranularityUs;
            http2 = spec.http2;
            http3 = spec.http3;
            streams = spec.streams;
            trust = spec.trust;
            newConnectionPerRequest = spec.newConnectionPerRequest;
        }

        /** The URL every request goes to: a spec made once and pointed at each target in turn takes each one's. */
        public Builder url(URI url) {
            this.url = url;
            return this;
        }

        public Builder model(LoadModel model) {
            this.model = model;
            return this;
        }

        public Builder warmupMs(long warmupMs) {
            this.warmupMs = warmupMs;
            this.hardCapMs = 0;
            return this;
        }

        public Builder rampMs(long rampMs) {
            this.rampMs = rampMs;
            return this;
        }

        public Builder durationMs(long durationMs) {
            this.durationMs = durationMs;
            this.hardCapMs = 0;
            return this;
        }

        public Builder maxRequests(long maxRequests) {
            this.maxRequests = maxRequests;
            return this;
        }

        public Builder connectTimeoutMs(long connectTimeoutMs) {
            this.connectTimeoutMs = connectTimeoutMs;
            this.hardCapMs = 0;
            return this;
        }

        public Builder responseTimeoutMs(long responseTimeoutMs) {
            this.responseTimeoutMs = responseTimeoutMs;
            this.hardCapMs = 0;
            return this;
        }

        public Builder hardCapMs(long hardCapMs) {
            this.hardCapMs = hardCapMs;
            return this;
        }

        public Builder maxConnections(int maxConnections) {
            this.maxConnections = maxConnections;
            return this;
        }

        public Builder expectedStatus(int expectedStatus) {
            this.expectedStatus = expectedStatus;
            return this;
        }

        public Builder expectedBody(String expectedBody) {
            this.expectedBody = expectedBody;
            return this;
        }

        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        public Builder maxScheduleLagP99Ms(double maxScheduleLagP99Ms) {
            this.maxScheduleLagP99Ms = maxScheduleLagP99Ms;
            return this;
        }

        public Builder adminUrl(URI adminUrl) {
            this.adminUrl = adminUrl;
            return this;
        }

        public Builder sourceAddresses(List<String> sourceAddresses) {
            this.sourceAddresses = sourceAddresses;
            return this;
        }

        public Builder processes(int processes) {
            this.processes = processes;
            return this;
        }

        public Builder threads(int threads) {
            this.threads = threads;
            return this;
        }

        public Builder client(String client) {
            this.client = client;
            return this;
        }

        public Builder startOffsetNs(long startOffsetNs) {
            this.startOffsetNs = startOffsetNs;
            return this;
        }

        /** Warm up until steady by {@code steady}, the warm-up being the minimum; null: a fixed warm-up. */
        public Builder steady(SteadyRule steady) {
            this.steady = steady;
            this.hardCapMs = 0;
            return this;
        }

        /** µs the open loop's timer waits at least between wakes; 0: a wake per intended start; null: chosen as it runs. */
        public Builder wakeGranularityUs(Long wakeGranularityUs) {
            this.wakeGranularityUs = wakeGranularityUs;
            return this;
        }

        /** HTTP/2 with up to {@code streams} requests in flight on a connection; false and 1: HTTP/1.1. */
        public Builder http2(boolean http2, int streams) {
            this.http2 = http2;
            this.streams = streams;
            return this;
        }

        /** HTTP/3 (QUIC), its streams per connection as {@link #http2}'s; false: as {@link #http2} says. */
        public Builder http3(boolean http3) {
            this.http3 = http3;
            return this;
        }

        public Builder trust(TlsTrust trust) {
            this.trust = trust;
            return this;
        }

        public Builder newConnectionPerRequest(boolean newConnectionPerRequest) {
            this.newConnectionPerRequest = newConnectionPerRequest;
            return this;
        }

        public LoadSpec build() {
            return new LoadSpec(url, model, warmupMs, rampMs, durationMs, maxRequests, connectTimeoutMs, responseTimeoutMs,
                    hardCapMs, maxConnections, expectedStatus, expectedBody, seed, maxScheduleLagP99Ms, adminUrl,
                    sourceAddresses, processes, threads, client, startOffsetNs, steady, wakeGranularityUs, http2, streams,
                    trust, newConnectionPerRequest, http3);
        }
    }
}
