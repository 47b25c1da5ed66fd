package dev.gauntlet.runner;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;

import java.net.URI;

import java.util.List;

/**
 * A benchmark suite: targets × scenarios × repetitions, with the JVM options of each role.
 * Built-in suites are YAML resources ({@code suites/quick.yaml}); users pass their own file.
 *
 * <pre>{@code
 * name: quick
 * targets: [dummy, jetty-handler-sync]
 * repetitions: 1
 * jvm: { target: [-Xmx1g], generator: [-Xmx512m] }
 * scenarios:
 *   - name: open-1k-wait100
 *     load: { type: open, ratePerSec: 1000, interArrival: EXPONENTIAL, connectionPolicy: ADAPTIVE }
 *     waitMs: 100
 *     warmupMs: 3000
 *     durationMs: 10000
 *     generator: { processes: 2, threads: 1, sourceAddresses: [127.0.0.1, 127.0.0.2] }   # optional
 *   - name: open-50k-pool100
 *     load: { type: open, ratePerSec: 50000, connectionPolicy: FIXED, connections: 100 }
 *     durationMs: 10000
 * }</pre>
 *
 * <p>An open loop's {@code connectionPolicy} is {@code ADAPTIVE} (the default), {@code FIXED} with
 * {@code connections} (a pool of that size, opened at the start) or {@code UNBOUNDED} (a connection
 * per waiting request, for a flood of new clients); see {@link LoadModel.ConnectionPolicy}.
 */
record Suite(String name, String description, List<String> targets, int repetitions, JvmOptions jvm,
             List<Scenario> scenarios) {

    Suite {
        if (name == null || !name.matches("[A-Za-z0-9._-]+")) {
            throw new IllegalArgumentException("name must be letters, digits, '.', '_' or '-', got " + name);
        }
        if (targets == null || targets.isEmpty()) {
            throw new IllegalArgumentException("targets must list at least one target");
        }
        if (scenarios == null || scenarios.isEmpty()) {
            throw new IllegalArgumentException("scenarios must list at least one scenario");
        }
        if (repetitions < 1) {
            repetitions = 1;
        }
        if (jvm == null) {
            jvm = new JvmOptions(null, null);
        }
        description = description == null ? "" : description;
        targets = List.copyOf(targets);
        scenarios = List.copyOf(scenarios);
    }

    Suite withTargets(List<String> targets) {
        return new Suite(name, description, targets, repetitions, jvm, scenarios);
    }

    /** JVM options per role; each role's defaults apply when a suite names none. */
    record JvmOptions(List<String> target, List<String> generator) {
        static final List<String> DEFAULT_TARGET = List.of("-Xms1g", "-Xmx1g");
        static final List<String> DEFAULT_GENERATOR = List.of("-Xms512m", "-Xmx512m");

        JvmOptions {
            target = target == null ? DEFAULT_TARGET : List.copyOf(target);
            generator = generator == null ? DEFAULT_GENERATOR : List.copyOf(generator);
        }
    }

    /**
     * One load applied to each target: a model, the wait every request asks for, its phases, and
     * optionally how the generator is set up for it.
     *
     * @param waitMs    the {@code wait} query parameter of every request: the server's processing time
     * @param generator generator settings beyond the defaults; null for none
     */
    record Scenario(String name, String description, LoadModel load, long waitMs, long warmupMs, long durationMs,
                    GeneratorSettings generator) {
        Scenario {
            if (name == null || !name.matches("[A-Za-z0-9._-]+")) {
                throw new IllegalArgumentException("scenario name must be letters, digits, '.', '_' or '-', got " + name);
            }
            if (load == null) {
                throw new IllegalArgumentException("scenario " + name + " needs a load");
            }
            if (waitMs < 0 || warmupMs < 0 || durationMs <= 0) {
                throw new IllegalArgumentException("scenario " + name + ": waitMs and warmupMs must be >= 0, durationMs > 0");
            }
            description = description == null ? "" : description;
            generator = generator == null ? GeneratorSettings.DEFAULTS : generator;
        }

        /** The load spec of this scenario against one target's URL, with the target's admin URL. */
        LoadSpec toSpec(URI helloUrl, URI adminUrl) {
            LoadSpec.Builder spec = LoadSpec.of(helloUrl, load).toBuilder()
                    .warmupMs(warmupMs).durationMs(durationMs).adminUrl(adminUrl)
                    .processes(generator.processes()).threads(generator.threads())
                    .sourceAddresses(generator.sourceAddresses())
                    .maxConnections(generator.maxConnections());
            if (generator.responseTimeoutMs() > 0) {
                spec.responseTimeoutMs(generator.responseTimeoutMs());
            }
            return spec.build();
        }
    }

    /**
     * How the generator runs a scenario; every field is optional (0 or empty: the generator's default).
     *
     * @param processes       generator processes the load is split over (past the open-files limit of one)
     * @param threads         engine threads in each generator process (open and closed loops; more cores)
     * @param sourceAddresses local addresses the connections spread over (each one, e.g. 127.0.0.2), past 64k ports per address
     * @param maxConnections  open loop: connections opened at most
     */
    record GeneratorSettings(int processes, int threads, List<String> sourceAddresses, int maxConnections,
                             long responseTimeoutMs) {
        static final GeneratorSettings DEFAULTS = new GeneratorSettings(1, 1, List.of(), 0, 0);

        GeneratorSettings {
            processes = processes == 0 ? 1 : processes;
            threads = threads == 0 ? 1 : threads;
            sourceAddresses = sourceAddresses == null ? List.of() : List.copyOf(sourceAddresses);
        }
    }
}
