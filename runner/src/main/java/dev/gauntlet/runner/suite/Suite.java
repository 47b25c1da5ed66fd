package dev.gauntlet.runner.suite;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonValue;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.Protocol;
import dev.gauntlet.api.ProtocolTarget;
import dev.gauntlet.api.SteadyRule;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.runner.base.UserError;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * A benchmark suite: targets × scenarios × forks × repetitions, with the JVM options of each role.
 * Built-in suites are YAML resources ({@code suites/quick.yaml}); users pass their own file.
 *
 * <pre>{@code
 * name: quick
 * targets: [dummy, jetty-handler-sync]              # or [all]: the whole catalogue
 * clients: [okhttp-virtual, jdk-async]         # optional: each scenario once per client library engine
 * forks: 3                                     # each target started afresh 3 times, in turn (default 1)
 * repetitions: 1                                # runs of each scenario in one fork (one target JVM)
 * repeat: scenario                              # or sweep; see Repeat
 * untilResolved: { maxForks: 8, maxMinutes: 45 }  # optional: more forks until every ranked pair is resolved
 * baselines: [dummy]                            # the report's references, never best; see Baselines
 * scaling: { referenceTargetCpus: 2, unscaled: [slow] }   # optional; see Scaling
 * table: runs                                   # or sweep, latency-diff, ranking, clients, protocols; see Table
 * jvm: { target: [-Xmx1g], generator: [-Xmx512m], perTarget: { dummy: [-Xmx256m] } }   # see JvmOptions
 * resources:                                    # optional; see Resources
 *   target: { cpus: "0", cpuQuota: 0.5, memory: 1536m }
 *   generator: { cpus: "1", memory: 1g }
 * placement: kubernetes                         # optional: local (the default) or a cluster; see ClusterSettings
 * kubernetes: { image: registry.example/gauntlet:0.1.0, shards: 2 }
 * profiles:                                     # optional: variants --profile NAME lays over it; see SuiteProfiles
 *   long: { description: 60 s measured, scenarios: [ { name: open-1k-wait100, durationMs: 60000 } ] }
 * scenarios:
 *   - name: open-1k-wait100
 *     load: { type: open, ratePerSec: 1000, interArrival: EXPONENTIAL, connectionPolicy: ADAPTIVE }
 *     waitMs: 100
 *     warmupMs: 3000                              # with steady: the warm-up's minimum
 *     steady: { maxMs: 30000, windows: 3, tolerancePercent: 10 }   # optional: warm up until steady, 30 s at most
 *     durationMs: 10000
 *     generator: { processes: auto, threads: 1, sourceAddresses: [127.0.0.1, 127.0.0.2] }   # optional
 *     # generator: { client: okhttp-virtual }   # a client library engine instead of the built-in one
 *   - name: open-50k-pool100
 *     load: { type: open, ratePerSec: 50000, connectionPolicy: FIXED, connections: 100 }
 *     durationMs: 10000
 *   - name: warm-up
 *     warmUp: true                                # run before what follows, never recorded
 *     load: { type: closed, connections: 1000 }
 *     durationMs: 10000
 * }</pre>
 *
 * <p>An open loop's {@code connectionPolicy} is {@code ADAPTIVE} (the default), {@code FIXED} with
 * {@code connections} (a pool of that size, opened at the start) or {@code UNBOUNDED} (a connection
 * per waiting request, for a flood of new clients); see {@link LoadModel.ConnectionPolicy}.
 */
@JsonIgnoreProperties(SuiteProfiles.FIELD)
public record Suite(String name, String description, List<String> targets, List<String> clients, int forks, int repetitions, Repeat repeat,
             Scaling scaling, Table table, JvmOptions jvm, Resources resources, List<Scenario> scenarios,
             @JsonInclude(value = JsonInclude.Include.CUSTOM, valueFilter = Placement.LocalFilter.class) Placement placement,
             @JsonInclude(JsonInclude.Include.NON_NULL) ClusterSettings kubernetes,
             @JsonInclude(JsonInclude.Include.NON_EMPTY) List<Protocol> protocols,
             @JsonInclude(JsonInclude.Include.NON_NULL) UntilResolved untilResolved,
             @JsonInclude(JsonInclude.Include.NON_NULL) List<String> baselines) {
    /** The one-element target list that stands for the whole catalogue. */
    static final String ALL_TARGETS = "all";
    public static final int MAX_REPETITIONS = 100;
    /** Each fork starts every target afresh: 4 s a start, so 50 forks of a dozen targets are 40 min of starts alone. */
    public static final int MAX_FORKS = 50;
    /** The longest phase, wait or timeout a suite may give: the generator's own bound, far from any overflow. */
    static final long MAX_PHASE_MS = LoadSpec.MAX_DURATION_MS;

    public Suite {
        checkName(name, "name");
        if (targets == null || targets.isEmpty()) {
            throw new IllegalArgumentException("targets must list at least one target");
        }
        if (scenarios == null || scenarios.isEmpty()) {
            throw new IllegalArgumentException("scenarios must list at least one scenario");
        }
        if (forks == 0) {
            forks = 1;
        }
        if (forks < 1 || forks > MAX_FORKS) {
            throw new IllegalArgumentException("forks must be 1 to " + MAX_FORKS + ", got " + forks);
        }
        if (repetitions == 0) {
            repetitions = 1;
        }
        if (repetitions < 1 || repetitions > MAX_REPETITIONS) {
            throw new IllegalArgumentException("repetitions must be 1 to " + MAX_REPETITIONS + ", got " + repetitions);
        }
        repeat = repeat == null ? Repeat.SCENARIO : repeat;
        table = table == null ? Table.RUNS : table;
        if (jvm == null) {
            jvm = new JvmOptions(null, null, null);
        }
        if (resources == null) {
            resources = Resources.NONE;
        }
        placement = placement == null ? Placement.LOCAL : placement;
        if (kubernetes != null && placement != Placement.KUBERNETES) {
            throw new IllegalArgumentException("kubernetes: says how the suite uses a cluster: it goes with placement: kubernetes");
        }
        if (placement == Placement.KUBERNETES && kubernetes == null) {
            kubernetes = ClusterSettings.DEFAULTS;
        }
        description = description == null ? "" : description;
        targets = List.copyOf(targets);
        clients = clients == null ? List.of() : List.copyOf(clients);
        scenarios = List.copyOf(scenarios);
        protocols = protocols == null ? List.of() : List.copyOf(protocols);
        baselines = Baselines.checked(baselines, targets, ALL_TARGETS);
        if (!targets.equals(List.of(ALL_TARGETS))) {
            jvm.checkNamed(targets);
        }
        if (scaling != null) {
            scaling.checkNamed(scenarios);
        }
        if (placement == Placement.KUBERNETES && protocols.stream().anyMatch(p -> p != Protocol.HTTP1)) {
            throw new IllegalArgumentException("protocols beyond http1 run on this machine for now: a target pod serves "
                    + "HTTP/1.1 in clear");
        }
    }

    /**
     * A suite's or scenario's name: it names a directory of the results, so no separator and neither {@code .} nor
     * {@code ..}.
     */
    static void checkName(String name, String field) {
        if (name == null || !name.matches("[A-Za-z0-9._-]+") || name.equals(".") || name.equals("..")) {
            throw new IllegalArgumentException(field + " must be letters, digits, '.', '_' or '-' (not . or ..), got " + name);
        }
    }

    /** A count or length of a suite's field, or a one-line error naming it, its value and the range it must be in. */
    static void checkRange(String field, long value, long min, long max) {
        if (value < min || value > max) {
            throw new IllegalArgumentException(field + " must be " + min + " to " + max + ", got " + value);
        }
    }

    /** A length in milliseconds: 0 (or 1) to {@link #MAX_PHASE_MS}. */
    static void checkMs(String field, long valueMs, long minMs) {
        checkRange(field, valueMs, minMs, MAX_PHASE_MS);
    }

    /** The suite of these targets instead; of its own baselines, those still among them. */
    public Suite withTargets(List<String> targets) {
        return new Suite(name, description, targets, clients, forks, repetitions, repeat, scaling, table,
                jvm.among(targets), resources, scenarios, placement, kubernetes, protocols, untilResolved,
                Baselines.among(baselines, targets));
    }

    /**
     * The suite with {@code targets: [all]} spelled out as every target of the catalogue, in its order; with
     * {@code protocols}, each target as {@code NAME@PROTOCOL} once per protocol it serves ({@link ProtocolTarget}), one
     * JVM each. A name that gives its protocol already stays as it is.
     */
    public Suite withCatalogue(TargetCatalogue catalogue) {
        List<String> named = named(catalogue);
        if (protocols.isEmpty()) {
            return named.equals(targets) ? this : withTargets(named);
        }
        List<String> expanded = new ArrayList<>();
        for (String name : named) {
            if (name.contains("@")) {
                expanded.add(name);
                continue;
            }
            Optional<TargetCatalogue.TargetEntry> entry = catalogue.target(name);
            for (Protocol protocol : protocols) {
                if (entry.isEmpty() || entry.get().serves(protocol)) {
                    expanded.add(ProtocolTarget.name(name, protocol));
                }
            }
        }
        return withTargets(expanded);
    }

    private List<String> named(TargetCatalogue catalogue) {
        return targets.equals(List.of(ALL_TARGETS))
                ? catalogue.targets().stream().map(TargetCatalogue.TargetEntry::name).toList() : targets;
    }

    /** What {@link #withCatalogue} leaves out: each target's protocols of the suite it does not serve, as a line each. */
    public List<String> protocolsNotServed(TargetCatalogue catalogue) {
        List<String> notes = new ArrayList<>();
        for (String name : named(catalogue)) {
            catalogue.target(name).ifPresent(entry -> {
                List<String> missing = protocols.stream().filter(p -> !entry.serves(p)).map(Protocol::label).toList();
                if (!missing.isEmpty()) {
                    notes.add(name + " serves no " + String.join(", ", missing) + ": left out");
                }
            });
        }
        return notes;
    }

    /** The suite run in a cluster, as {@code --kubernetes} asks; {@code settings} replace the suite's own. */
    public Suite inCluster(ClusterSettings settings) {
        return new Suite(name, description, targets, clients, forks, repetitions, repeat, scaling, table, jvm, resources, scenarios,
                Placement.KUBERNETES, settings, protocols, untilResolved, baselines);
    }

    public Suite withForks(int forks) {
        return new Suite(name, description, targets, clients, forks, repetitions, repeat, scaling, table, jvm, resources,
                scenarios, placement, kubernetes, protocols, untilResolved, baselines);
    }

    public Suite withUntilResolved(UntilResolved untilResolved) {
        return new Suite(name, description, targets, clients, forks, repetitions, repeat, scaling, table, jvm, resources,
                scenarios, placement, kubernetes, protocols, untilResolved, baselines);
    }

    public Suite withRepetitions(int repetitions) {
        return new Suite(name, description, targets, clients, forks, repetitions, repeat, scaling, table, jvm, resources,
                scenarios, placement, kubernetes, protocols, untilResolved, baselines);
    }

    /** The same suite run on the machine at hand: its scenarios as {@link SuiteScaling} resolved them, no rule left to apply. */
    Suite withScenarios(List<Scenario> resolved) {
        return new Suite(name, description, targets, clients, forks, repetitions, repeat, null, table, jvm, resources,
                resolved, placement, kubernetes, protocols, untilResolved, baselines);
    }

    public Suite withClients(List<String> clients) {
        return new Suite(name, description, targets, clients, forks, repetitions, repeat, scaling, table, jvm, resources,
                scenarios, placement, kubernetes, protocols, untilResolved, baselines);
    }

    /**
     * The suite with its {@code clients} spelled out as scenarios: each scenario once per client, in
     * the clients' order, named {@code <scenario>.<client>} and run by that client's engine; warm-up
     * scenarios stay the built-in engine's. A suite without clients is returned as it is.
     */
    public Suite withClientScenarios() {
        if (clients.isEmpty()) {
            return this;
        }
        List<Scenario> expanded = new ArrayList<>();
        for (Scenario scenario : scenarios) {
            if (scenario.warmUp()) {
                expanded.add(scenario);
            } else {
                for (String client : clients) {
                    try {
                        expanded.add(scenario.forClient(client));
                    } catch (IllegalArgumentException e) {
                        throw new UserError("scenario " + scenario.name() + " with client " + client + ": " + e.getMessage());
                    }
                }
            }
        }
        return new Suite(name, description, targets, List.of(), forks, repetitions, repeat, scaling, table, jvm, resources,
                expanded, placement, kubernetes, protocols, untilResolved, baselines);
    }

    /**
     * The order of a fork's runs, all on one target JVM. Forks run in turn, every target once in each, so that the
     * machine's drift over time falls on every target alike.
     */
    public enum Repeat {
        /** Each scenario N times in a row, then the next (the server study). */
        SCENARIO,
        /** All scenarios in order, then all again, N sweeps (the concurrency sweep). */
        SWEEP;

        @JsonCreator
        static Repeat named(String name) {
            if (name.equals("round")) {
                // What latency-diff's rounds were, each target afresh in turn, is what every fork is now.
                throw new IllegalArgumentException("repeat: round is now forks: N (each fork starts every target afresh,"
                        + " in turn); write forks: N and leave repeat out");
            }
            for (Repeat repeat : values()) {
                if (repeat.label().equals(name)) {
                    return repeat;
                }
            }
            throw new IllegalArgumentException("repeat must be scenario or sweep, got " + name);
        }

        @JsonValue
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** How the table printed at the end shows the rows; {@code results.json} holds every row either way. */
    public enum Table {
        /** A row per run, and best, median and spread over repetitions per target × scenario. */
        @JsonProperty("runs") RUNS,
        /** A target per row, a column per scenario: the median requests/s over the sweeps and the most errors. */
        @JsonProperty("sweep") SWEEP,
        /** The median round trip of each target and its difference to the {@code dummy} baseline. */
        @JsonProperty("latency-diff") LATENCY_DIFF,
        /** One row per target × scenario, the highest achieved rate first. */
        @JsonProperty("ranking") RANKING,
        /**
         * The client study's table: per client and scenario the time max and average, the generator's
         * heap, platform threads, direct memory and CPU, percentiles, errors by class and the verdict.
         */
        @JsonProperty("clients") CLIENTS,
        /**
         * The protocols study's table: per target and scenario a line a protocol, the rate, the tail and each side's
         * CPU per request.
         */
        @JsonProperty("protocols") PROTOCOLS
    }

    /**
     * A suite declared in the terms of a study made on another machine. Open-loop rates are multiplied
     * by the CPUs the target gets here divided by {@code referenceTargetCpus}, the target CPUs of the
     * original ({@code --scale} overrides that factor); see {@link SuiteScaling}. The scenarios named in
     * {@code unscaled} keep their rates: a case bound by its wait costs the target threads and memory for
     * the requests it holds (rate × wait), not CPU, and a scaled rate would hold fewer than the original did.
     */
    record Scaling(int referenceTargetCpus, @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> unscaled) {
        Scaling {
            if (referenceTargetCpus < 1) {
                throw new IllegalArgumentException("scaling.referenceTargetCpus must be >= 1, got " + referenceTargetCpus);
            }
            unscaled = unscaled == null ? List.of() : List.copyOf(unscaled);
        }

        /** Each name in {@code unscaled} is one of {@code scenarios}, or a one-line error says which is not. */
        void checkNamed(List<Scenario> scenarios) {
            List<String> names = scenarios.stream().map(Scenario::name).toList();
            unscaled.stream().filter(name -> !names.contains(name)).findFirst().ifPresent(name -> {
                throw new IllegalArgumentException("scaling.unscaled names " + name + ", which is not among the suite's"
                        + " scenarios " + names);
            });
        }
    }

    /**
     * One load applied to each target: a {@link LoadSpec} template that holds every field of the load but the
     * target's URLs, which {@link #toSpec} fills in, and what is the scenario's own. Suite files spell it as
     * {@link ScenarioFile}.
     *
     * @param template      the load, its phases and its generator settings, pointed at no target
     * @param waitMs        the {@code wait} query parameter of every request: the server's processing time
     * @param warmUp        run once before the scenarios that follow it and never recorded (no row, no repetitions):
     *                      it warms the target's JIT, pools and connections
     * @param autoProcesses {@code generator.processes: auto}: {@link SuiteScaling} picks the template's processes
     *                      on the machine at hand; till then it says one
     */
    public record Scenario(String name, String description, LoadSpec template, long waitMs, boolean warmUp,
                           boolean autoProcesses) {
        /** Where a template points: nowhere ({@code .invalid} resolves to no host), until {@link #toSpec} names a target. */
        private static final URI NO_TARGET = URI.create("http://no-target.invalid/");

        public Scenario {
            checkName(name, "scenario name");
            if (template == null || !template.url().equals(NO_TARGET) || template.adminUrl() != null) {
                throw new IllegalArgumentException("scenario " + name + " needs a load template that names no target");
            }
            checkMs("scenario " + name + ": waitMs", waitMs, 0);
            description = description == null ? "" : description;
        }

        /** A template of {@code model} with every default of {@link LoadSpec#of}, to change with its builder. */
        public static LoadSpec template(LoadModel model) {
            return LoadSpec.of(NO_TARGET, model);
        }

        /** Reads a scenario as a suite file gives it; a broken one is a one-line error naming its field. */
        @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
        static Scenario read(ScenarioFile file) {
            return file.toScenario();
        }

        /** The scenario as a suite file gives it, for {@code suite.json}. */
        @JsonValue
        ScenarioFile file() {
            return ScenarioFile.of(this);
        }

        /** Its load model. */
        public LoadModel load() {
            return template.model();
        }

        /** The client library engine that runs it; null for the built-in engine. */
        public String client() {
            return template.client();
        }

        /** The longest its warm-up may last: {@code warmupMs}, or the steady rule's maximum. */
        public long warmupMaxMs() {
            return template.warmupMaxMs();
        }

        /**
         * The shortest its warm-up can last: {@code warmupMs}, or with a steady rule the windows it
         * judges and the second before the measured phase starts, if that is longer.
         */
        long warmupLeastMs() {
            SteadyRule steady = template.steady();
            return steady == null ? template.warmupMs()
                    : Math.min(warmupMaxMs(), Math.max(template.warmupMs(), (2L * steady.windows() + 1) * SteadyRule.WINDOW_MS));
        }

        /** {@code 7 s}, or with a warm-up until steady {@code warm-up 2-30 s until steady + 5 s}. */
        public String phases() {
            long warmupMs = template.warmupMs();
            long durationMs = template.durationMs();
            SteadyRule steady = template.steady();
            if (steady == null) {
                return SuiteScaling.decimal((warmupMs + durationMs) / 1000.0) + " s";
            }
            return "warm-up " + SuiteScaling.decimal(warmupMs / 1000.0) + "-" + SuiteScaling.decimal(warmupMaxMs() / 1000.0)
                    + " s until steady (±" + SuiteScaling.decimal(steady.tolerancePercent()) + " % over " + steady.windows()
                    + " windows) + " + SuiteScaling.decimal(durationMs / 1000.0) + " s";
        }

        Scenario withLoad(LoadModel newLoad) {
            return new Scenario(name, description, template.toBuilder().model(newLoad).build(), waitMs, warmUp,
                    autoProcesses);
        }

        /** This scenario on {@code processes} generator processes, no longer {@code auto}. */
        Scenario withProcesses(int processes) {
            return new Scenario(name, description, template.toBuilder().processes(processes).build(), waitMs, warmUp,
                    false);
        }

        /** This scenario run by {@code client}'s engine, named {@code <name>.<client>}. */
        Scenario forClient(String client) {
            return new Scenario(name + "." + client, description, template.toBuilder().client(client).build(), waitMs,
                    warmUp, autoProcesses);
        }

        /** The load spec of this scenario against one target's URL, with the target's admin URL. */
        public LoadSpec toSpec(URI helloUrl, URI adminUrl) {
            return template.toBuilder().url(helloUrl).adminUrl(adminUrl).build();
        }
    }
}
