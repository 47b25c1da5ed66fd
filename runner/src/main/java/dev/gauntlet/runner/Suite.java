package dev.gauntlet.runner;

import dev.gauntlet.api.LoadModel;

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
 *     load: { type: open, ratePerSec: 1000, interArrival: EXPONENTIAL }
 *     waitMs: 100
 *     warmupMs: 3000
 *     durationMs: 10000
 * }</pre>
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
     * One load applied to each target: a model, the wait every request asks for, and its phases.
     *
     * @param waitMs the {@code wait} query parameter of every request: the server's processing time
     */
    record Scenario(String name, String description, LoadModel load, long waitMs, long warmupMs, long durationMs) {
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
        }
    }
}
