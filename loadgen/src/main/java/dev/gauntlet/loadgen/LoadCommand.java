package dev.gauntlet.loadgen;

import dev.gauntlet.api.AdminToken;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.SteadyRule;
import dev.gauntlet.api.TlsTrust;
import dev.gauntlet.hiccup.ParentWatch;
import dev.gauntlet.loadgen.failure.GeneratorException;
import dev.gauntlet.loadgen.split.LoadShares;
import dev.gauntlet.loadgen.split.Preflight;
import dev.gauntlet.loadgen.split.ShardedLoad;
import dev.gauntlet.loadgen.transport.SourceAddresses;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code gauntlet load}: the generator on its own against any URL, like wrk/wrk2. The runner's
 * CLI registers it as a subcommand:
 *
 * <pre>{@code
 * new CommandLine(new GauntletCommand()).addSubcommand(new LoadCommand());
 * }</pre>
 *
 * <p>Returns 0 when the run completed (request errors included) and 2 when it could not run;
 * wrong flags throw {@link CommandLine.ParameterException}.
 */
@Command(name = "load", mixinStandardHelpOptions = true, sortOptions = false,
        description = "Load one URL with an open loop (--rate), a closed loop (--connections), an open loop over a "
                + "fixed pool (--rate and --connections) or held requests (--max-concurrency) and print the achieved "
                + "rate, the latency percentiles and the errors.",
        footer = {"", "Examples:",
                "  gauntlet load http://127.0.0.1:8080/hello --connections 50 --duration 10s",
                "  gauntlet load http://127.0.0.1:8080/hello?wait=100 --rate 1000 --output run1/",
                "  gauntlet load http://127.0.0.1:8080/hello --connections 100 --warmup 2s --warmup-max 30s   # until steady",
                "  gauntlet load http://127.0.0.1:8080/hello --rate 50000 --connections 100   # as wrk2 -R50000 -c100",
                "  gauntlet load http://127.0.0.1:8080/hello?wait=1000 --rate 1000 --client okhttp-virtual",
                "  gauntlet load https://127.0.0.1:8443/hello --connections 10 --cacert /tmp/gauntlet-target-8443-1.pem",
                "  gauntlet load https://127.0.0.1:8443/hello --http2 --connections 4 --streams 25 --insecure   # h2load -c4 -m25",
                "  gauntlet load https://127.0.0.1:8443/hello --http3 --rate 1000 --insecure   # QUIC to UDP 8443 (a target's --http3)",
                "  gauntlet load http://127.0.0.1:8080/hello?wait=60000 --max-concurrency 15000 \\",
                "      --admin http://127.0.0.1:8081 --response-timeout 2m \\",
                "      --source-addresses 127.0.0.1-127.0.0.4",
                "  gauntlet load http://10.0.0.5:8080/hello --rate 200000 --kubernetes --shards 3 \\",
                "      --image registry.example/gauntlet-generator:0.1.0 --output run2/",
                "", "--kubernetes runs the load as an Indexed Job of --shards pods through the kubeconfig's cluster "
                + "(KUBECONFIG or ~/.kube/config); see docs/distributed.md."})
public final class LoadCommand implements Callable<Integer> {

    @Spec
    CommandSpec command;

    @Parameters(index = "0", paramLabel = "URL", description = "http://host:port/path or https://... to request")
    URI url;

    @Option(names = "--rate", paramLabel = "R", description = "open loop: R requests/s whatever is in flight, "
            + "each timed from its intended start; 10M/s a process at most (split a higher rate with --processes)")
    Double ratePerSec;

    @Option(names = "--connections", paramLabel = "C", description = "alone, closed loop: C connections, each sending its "
            + "next request when the previous completed; with --rate, a fixed pool: the R requests/s queue for the "
            + "first free one of C connections opened at the start")
    Long connections;

    @Option(names = "--max-concurrency", paramLabel = "N", description = "open N requests at once against a long wait and hold them")
    Long maxConcurrency;

    @Option(names = "--connection-policy", paramLabel = "adaptive|fixed|unbounded", converter = LoadOptions.PolicyChoice.class,
            description = "open loop: adaptive (the default) keeps about twice the connections the rate needs at the "
                    + "median service time, opened ahead; fixed is --connections C; unbounded opens one for every "
                    + "request that finds none free")
    LoadModel.ConnectionPolicy connectionPolicy;

    @Option(names = "--inter-arrival", paramLabel = "exponential|constant", defaultValue = "exponential",
            converter = LoadOptions.InterArrivalConverter.class, description = "open loop: gaps between starts (default: ${DEFAULT-VALUE})")
    LoadModel.InterArrival interArrival;

    @Option(names = "--duration", paramLabel = "T", defaultValue = "10s", converter = LoadOptions.DurationConverter.class,
            description = "measured phase, e.g. 500ms, 10s, 2m; every duration is 7 days (10080m) at most "
                    + "(default: ${DEFAULT-VALUE})")
    long durationMs;

    @Option(names = "--warmup", paramLabel = "T", defaultValue = "2s", converter = LoadOptions.DurationConverter.class,
            description = "warm-up, run and not recorded; with --warmup-max, its minimum (default: ${DEFAULT-VALUE})")
    long warmupMs;

    @Option(names = "--warmup-max", paramLabel = "T", converter = LoadOptions.DurationConverter.class,
            description = "warm up until steady, at most T: the measured phase starts once the last one-second windows "
                    + "agree (throughput, or latency and lateness) and both sides' JIT is nearly idle; reached "
                    + "unsettled, the run is not-steady (default: a fixed warm-up of --warmup)")
    Long warmupMaxMs;

    @Option(names = "--steady-windows", paramLabel = "K", defaultValue = "" + SteadyRule.DEFAULT_WINDOWS,
            description = "with --warmup-max: how many one-second windows must agree (default: ${DEFAULT-VALUE})")
    int steadyWindows;

    @Option(names = "--steady-tolerance", paramLabel = "PERCENT", defaultValue = "" + SteadyRule.DEFAULT_TOLERANCE_PERCENT,
            description = "how far from their mean the windows, and the measured phase's halves, may lie "
                    + "(default: ${DEFAULT-VALUE})")
    double steadyTolerancePercent;

    @Option(names = "--ramp", paramLabel = "T", defaultValue = "0s", converter = LoadOptions.DurationConverter.class,
            description = "open loop: raise the rate from zero to R over the first T of the warm-up, so that a "
                    + "client library's pools and JIT grow with the load (default: the full rate from the start)")
    long rampMs;

    @Option(names = "--requests", paramLabel = "N", defaultValue = "0",
            description = "end the measured phase after N requests as well (default: duration only)")
    long maxRequests;

    @Option(names = "--connect-timeout", paramLabel = "T", defaultValue = "2s", converter = LoadOptions.DurationConverter.class,
            description = "connect timeout (default: ${DEFAULT-VALUE})")
    long connectTimeoutMs;

    @Option(names = "--response-timeout", paramLabel = "T", defaultValue = "30s", converter = LoadOptions.DurationConverter.class,
            description = "response timeout from the send (default: ${DEFAULT-VALUE})")
    long responseTimeoutMs;

    @Option(names = "--max-connections", paramLabel = "N",
            description = "adaptive or unbounded open loop: connections open at most; with --client, requests in "
                    + "flight at most (default: what open files and ephemeral ports allow)")
    Long maxConnections;

    @Option(names = "--expect-status", paramLabel = "CODE", defaultValue = "200",
            description = "another status counts as a bad-status error (default: ${DEFAULT-VALUE})")
    int expectedStatus;

    @Option(names = "--expect-body", paramLabel = "TEXT", defaultValue = "hello",
            description = "another body counts as a bad-body error (default: ${DEFAULT-VALUE})")
    String expectedBody;

    @Option(names = "--any-body", description = "do not check the body")
    boolean anyBody;

    @Option(names = "--admin", paramLabel = "URL",
            description = "a Gauntlet target's admin base URL, e.g. http://127.0.0.1:8081: its /stats say how many requests it started;"
                    + " resetting them at the measured phase needs its admin token: $GAUNTLET_ADMIN_TOKEN, else ~/.gauntlet/admin-token")
    URI adminUrl;

    @Option(names = "--source-addresses", paramLabel = "RANGE",
            description = "spread connections over local addresses, e.g. 127.0.0.1-127.0.0.8, past the ephemeral ports of one")
    String sourceAddresses;

    @Option(names = "--processes", paramLabel = "N", defaultValue = "1",
            description = "split the load over N generator processes, 1 to " + LoadSpec.MAX_PROCESSES + ", and merge their "
                    + "histograms (default: ${DEFAULT-VALUE})")
    long processes;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1",
            description = "open and closed loops: N engine threads in each process, 1 to " + LoadSpec.MAX_THREADS
                    + ", each with its own share, connections and histograms, merged exactly (default: ${DEFAULT-VALUE})")
    long threads;

    @Option(names = "--max-lag-p99", paramLabel = "MS", defaultValue = "1.0",
            description = "schedule-lag p99 allowed before the verdict weighs it against the platform's hiccups (default: ${DEFAULT-VALUE} ms)")
    double maxLagP99Ms;

    @Option(names = "--wake-granularity", paramLabel = "auto|0|G", defaultValue = "auto",
            description = "open loop, built-in engine: its timer wakes no sooner than G (e.g. 250us, 1ms) after it last "
                    + "slept and each wake sends every request then due, still timed from its intended start: fewer "
                    + "wake-ups per request for a lateness of G at most; 0 wakes for each intended start; auto takes G "
                    + "from the platform's wake-up p99 over the last second, 1ms at most (default: ${DEFAULT-VALUE})")
    String wakeGranularity;

    @Option(names = "--client", paramLabel = "NAME", description = "send with a client library engine instead of the "
            + "built-in one, e.g. okhttp-virtual (see 'gauntlet clients'): its blocking call on a platform or virtual "
            + "thread per request, or its async API")
    String client;

    @Option(names = "--http2", description = "send the requests as HTTP/2 streams: over TLS for https:// (ALPN h2), "
            + "in clear with prior knowledge (h2c) for http://")
    boolean http2;

    @Option(names = "--http3", description = "send the requests as HTTP/3 streams of QUIC connections, over UDP to the "
            + "https:// URL's port (a target started with --tls --http3 serves h3 on its TLS port's number); on Netty's "
            + "QUIC codec")
    boolean http3;

    @Option(names = "--streams", paramLabel = "M", defaultValue = "1", description = "with --http2 or --http3: requests "
            + "in flight on one connection at most, as h2load's -m, within the server's limit; the connections are --connections' "
            + "(default: ${DEFAULT-VALUE})")
    long streams;

    @Option(names = "--cacert", paramLabel = "FILE", description = "https: trust the certificate in this PEM file (e.g. "
            + "the one a --tls target prints) instead of the JDK's authorities; the host name is still checked")
    Path caCertificate;

    @Option(names = "--insecure", description = "https: accept any certificate for any host, as h2load and wrk do")
    boolean insecure;

    @Option(names = "--new-connection-per-request", description = "every request on a new connection, closed after "
            + "its answer (HTTP/1.1: Connection: close): the cost of setting one up, a TLS handshake included, in each "
            + "request's time, as ab without -k")
    boolean newConnectionPerRequest;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42", description = "seed of the open loop's schedule")
    long seed;

    @Option(names = "--output", paramLabel = "DIR", description = "write summary.json and the .hlog interval logs into DIR")
    Path outputDir;

    @Option(names = "--json", description = "print the summary as JSON on stdout instead of the table")
    boolean json;

    @Option(names = "--jit-warmup", negatable = true, defaultValue = "true", fallbackValue = "true",
            description = "first warm the generator's own JIT against a loopback sink in its own process, until its "
                    + "compiler is idle, 3 s at most (default: on; --no-jit-warmup measures a cold generator)")
    boolean jitWarmup;

    @Option(names = "--kubernetes", description = "spread the load over --shards pods of a Kubernetes Indexed Job, "
            + "started together and merged into one result (./gauntlet load only)")
    boolean kubernetes;

    @Option(names = "--shards", paramLabel = "N", description = "with --kubernetes: pods the load is split over, "
            + "one per load node (default: " + DEFAULT_SHARDS + ")")
    Integer shards;

    @Option(names = "--namespace", paramLabel = "NS", description = "with --kubernetes: the namespace (default: the kubeconfig's); "
            + "the shards' host networking needs its Pod Security level to be privileged")
    String namespace;

    @Option(names = "--image", paramLabel = "IMAGE", description = "with --kubernetes: an image with a JDK 25 and the "
            + "generator's jars in /opt/gauntlet/lib (default: " + DEFAULT_IMAGE + "; docs/distributed.md builds it)")
    String image;

    @Option(names = "--node-selector", paramLabel = "KEY=VALUE", description = "with --kubernetes: run shards only on "
            + "nodes with this label; repeatable")
    Map<String, String> nodeSelector;

    @Option(names = "--shard-cpus", paramLabel = "N", description = "with --kubernetes: CPUs each shard requests and "
            + "is limited to, for Guaranteed QoS (default: " + DEFAULT_SHARD_CPUS + ")")
    Integer shardCpus;

    @Option(names = "--shard-memory", paramLabel = "SIZE", description = "with --kubernetes: memory each shard requests "
            + "and is limited to, e.g. 2Gi (default: " + DEFAULT_SHARD_MEMORY + ")")
    String shardMemory;

    @Option(names = "--start-lead", paramLabel = "T", converter = LoadOptions.DurationConverter.class, description = "with "
            + "--kubernetes: the common start is this long after every shard reported ready (default: 5s)")
    Long startLeadMs;

    @Option(names = "--ready-timeout", paramLabel = "T", converter = LoadOptions.DurationConverter.class, description = "with "
            + "--kubernetes: how long the shards may take to be ready, scheduled and their checks passed, before the run "
            + "gives up (default: 5m)")
    Long readyTimeoutMs;

    static final int DEFAULT_SHARDS = 3;
    static final String DEFAULT_IMAGE = "gauntlet-generator:0.1.0";
    static final int DEFAULT_SHARD_CPUS = 1;
    static final String DEFAULT_SHARD_MEMORY = "1Gi";
    private static final long DEFAULT_START_LEAD_MS = 5_000;
    private static final long DEFAULT_READY_TIMEOUT_MS = 300_000;

    private final ShardedLoad shardedLoad;

    /** On its own: no cluster client on the classpath, so {@code --kubernetes} is refused. */
    public LoadCommand() {
        this(null);
    }

    /** As the runner registers it: {@code --kubernetes} runs through {@code shardedLoad}. */
    public LoadCommand(ShardedLoad shardedLoad) {
        this.shardedLoad = shardedLoad;
    }

    /** The command on its own, without the runner: {@code java -cp ... dev.gauntlet.loadgen.LoadCommand URL ...}. */
    public static void main(String[] args) {
        ParentWatch.start();
        CommandLine commandLine = new CommandLine(new LoadCommand());
        commandLine.setParameterExceptionHandler((e, ignored) -> {
            commandLine.getErr().println("gauntlet load: " + e.getMessage());
            return 2;
        });
        System.exit(commandLine.execute(args));
    }

    @Override
    public Integer call() throws Exception {
        LoadSpec spec = spec();
        ShardedLoad.Placement placement = placement();
        RunSummary summary;
        try {
            if (placement != null) {
                // The shards check their own share too, in their pods: this says it before any pod starts.
                Preflight.checkRate(LoadShares.shard(spec, 0, placement.shards()));
                // The token a local run's generator would show; only to a target whose counts it resets.
                String adminToken = spec.adminUrl() == null ? null : AdminToken.forClient();
                summary = shardedLoad.run(spec, placement, adminToken, outputDir, System.err);
            } else {
                summary = GeneratorMain.run(spec, outputDir, jitWarmup);
            }
        } catch (GeneratorException e) {
            command.commandLine().getErr().println("gauntlet load: " + e.getMessage());
            return 2;
        }
        PrintWriter out = command.commandLine().getOut();
        if (json) {
            out.println(Json.json().writeValueAsString(summary));
        } else {
            SummaryTable.print(summary, out);
        }
        out.flush();
        return 0;
    }

    LoadSpec spec() {
        String protocolProblem = LoadOptions.protocolProblem(url, http2, http3, streams);
        if (protocolProblem != null) {
            throw new CommandLine.ParameterException(command.commandLine(), protocolProblem);
        }
        try {
            return LoadSpec.of(url, model()).toBuilder()
                    .warmupMs(warmupMs).rampMs(rampMs).durationMs(positive("--duration", durationMs))
                    .maxRequests(inRange("--requests", maxRequests, 0, Long.MAX_VALUE))
                    .connectTimeoutMs(positive("--connect-timeout", connectTimeoutMs))
                    .responseTimeoutMs(positive("--response-timeout", responseTimeoutMs))
                    .maxConnections(maxConnections == null ? LoadSpec.DEFAULT_MAX_CONNECTIONS
                            : connectionCount("--max-connections", maxConnections))
                    .expectedStatus(expectedStatus).expectedBody(anyBody ? null : expectedBody).seed(seed)
                    .maxScheduleLagP99Ms(maxLagP99Ms).adminUrl(adminUrl)
                    .sourceAddresses(sourceAddresses == null ? List.of() : SourceAddresses.expand(sourceAddresses))
                    .processes((int) inRange("--processes", processes, 1, LoadSpec.MAX_PROCESSES))
                    .threads((int) inRange("--threads", threads, 1, LoadSpec.MAX_THREADS))
                    .client(client)
                    .http2(http2, (int) inRange("--streams", streams, 1, LoadSpec.MAX_STREAMS))
                    .http3(http3)
                    .trust(new TlsTrust(caCertificate == null ? null : caCertificate.toAbsolutePath().toString(), insecure))
                    .newConnectionPerRequest(newConnectionPerRequest)
                    .wakeGranularityUs(LoadOptions.parseWakeGranularityUs(wakeGranularity))
                    .steady(warmupMaxMs == null ? null : new SteadyRule(warmupMaxMs, steadyWindows, steadyTolerancePercent))
                    .build();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(command.commandLine(), e.getMessage());
        }
    }

    /** Where the shards run with --kubernetes; null without it (and then no shard option may be given). */
    ShardedLoad.Placement placement() {
        if (!kubernetes) {
            if (shards != null || namespace != null || image != null || nodeSelector != null || shardCpus != null
                    || shardMemory != null || startLeadMs != null || readyTimeoutMs != null) {
                throw new CommandLine.ParameterException(command.commandLine(),
                        "--shards, --namespace, --image, --node-selector, --shard-cpus, --shard-memory, --start-lead and "
                                + "--ready-timeout place the shards of --kubernetes: add --kubernetes");
            }
            return null;
        }
        if (client != null) {
            throw new CommandLine.ParameterException(command.commandLine(),
                    "--kubernetes runs the built-in engine: the shards' image carries no client library; drop --client");
        }
        if (shardedLoad == null) {
            throw new CommandLine.ParameterException(command.commandLine(),
                    "--kubernetes needs the runner's cluster client: use ./gauntlet load");
        }
        if (shardMemory != null && !shardMemory.matches("\\d+(Ki|Mi|Gi|Ti|k|M|G|T)?")) {
            throw new CommandLine.ParameterException(command.commandLine(),
                    "--shard-memory must be a Kubernetes quantity such as 512Mi or 2Gi, got '" + shardMemory + "'");
        }
        return new ShardedLoad.Placement((int) positiveOption("--shards", shards == null ? DEFAULT_SHARDS : shards),
                namespace, image == null ? DEFAULT_IMAGE : image, nodeSelector == null ? Map.of() : Map.copyOf(nodeSelector),
                (int) positiveOption("--shard-cpus", shardCpus == null ? DEFAULT_SHARD_CPUS : shardCpus),
                shardMemory == null ? DEFAULT_SHARD_MEMORY : shardMemory,
                startLeadMs == null ? DEFAULT_START_LEAD_MS : positiveOption("--start-lead", startLeadMs),
                readyTimeoutMs == null ? DEFAULT_READY_TIMEOUT_MS : positiveOption("--ready-timeout", readyTimeoutMs));
    }

    private long positiveOption(String flag, long value) {
        try {
            return positive(flag, value);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(command.commandLine(), e.getMessage());
        }
    }

    /** --rate alone, --connections alone, both (a fixed pool) or --max-concurrency alone. */
    private LoadModel model() {
        if (maxConcurrency != null) {
            if (ratePerSec != null || connections != null) {
                throw new IllegalArgumentException("--max-concurrency goes alone, without --rate or --connections");
            }
            return new LoadModel.MaxConcurrency(connectionCount("--max-concurrency", maxConcurrency));
        }
        if (ratePerSec == null) {
            if (connections == null) {
                throw new IllegalArgumentException("give --rate R (open loop), --connections C (closed loop), both "
                        + "(R requests/s over C connections) or --max-concurrency N");
            }
            if (connectionPolicy != null) {
                throw new IllegalArgumentException("--connection-policy is for the open loop: add --rate R");
            }
            return new LoadModel.ClosedLoop(connectionCount("--connections", connections));
        }
        LoadModel.ConnectionPolicy policy = connectionPolicy != null ? connectionPolicy
                : connections != null ? LoadModel.ConnectionPolicy.FIXED : LoadModel.ConnectionPolicy.ADAPTIVE;
        String name = policy.name().toLowerCase(Locale.ROOT);
        if (policy == LoadModel.ConnectionPolicy.FIXED) {
            if (connections == null) {
                throw new IllegalArgumentException("--connection-policy fixed needs --connections C, the pool's size");
            }
            if (maxConnections != null) {
                throw new IllegalArgumentException("--max-connections caps the adaptive and unbounded policies; "
                        + "the fixed pool's size is --connections");
            }
        } else if (connections != null) {
            throw new IllegalArgumentException("--connections with --rate is a fixed pool; the " + name
                    + " policy opens its own (cap it with --max-connections)");
        }
        if (!(ratePerSec > 0) || Double.isInfinite(ratePerSec)) {
            throw new IllegalArgumentException("--rate must be a finite number of requests/s above 0, got " + ratePerSec);
        }
        return new LoadModel.OpenLoop(ratePerSec, interArrival, policy,
                policy == LoadModel.ConnectionPolicy.FIXED ? connectionCount("--connections", connections) : 0);
    }

    private static long positive(String flag, long value) {
        return inRange(flag, value, 1, Long.MAX_VALUE);
    }

    /** A count of connections or held requests: the machine's limits bound it further, checked before the run. */
    private static int connectionCount(String flag, long value) {
        return (int) inRange(flag, value, 1, Integer.MAX_VALUE);
    }

    private static long inRange(String flag, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(flag + " must be " + (max == Long.MAX_VALUE ? ">= " + min : min + " to " + max)
                    + ", got " + value);
        }
        return value;
    }
}
