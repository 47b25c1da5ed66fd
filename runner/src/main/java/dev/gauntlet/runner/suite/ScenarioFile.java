package dev.gauntlet.runner.suite;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.SteadyRule;

/**
 * A scenario as a suite file spells it, in YAML and in {@code suite.json}: the fields a user writes, each
 * checked with a message that names it, and the mapping to and from {@link Suite.Scenario}, whose load
 * is a {@link LoadSpec} template. Jackson reads and writes scenarios through this record only.
 *
 * <pre>{@code
 * - name: open-1k-wait100
 *   load: { type: open, ratePerSec: 1000 }
 *   waitMs: 100
 *   warmupMs: 3000
 *   durationMs: 10000
 *   generator: { processes: auto, rampMs: 2000 }
 * }</pre>
 *
 * @param generator generator settings beyond the defaults; null for none
 */
record ScenarioFile(String name, String description, LoadModel load, long waitMs, long warmupMs, long durationMs,
                    GeneratorSettings generator, boolean warmUp, SteadyRule steady) {
    ScenarioFile {
        Suite.checkName(name, "scenario name");
        if (load == null) {
            throw new IllegalArgumentException("scenario " + name + " needs a load");
        }
        Suite.checkMs("scenario " + name + ": waitMs", waitMs, 0);
        Suite.checkMs("scenario " + name + ": warmupMs", warmupMs, 0);
        Suite.checkMs("scenario " + name + ": durationMs", durationMs, 1);
        if (steady != null) {
            Suite.checkMs("scenario " + name + ": steady.maxMs", steady.maxMs(), 1);
        }
        description = description == null ? "" : description;
        generator = generator == null ? GeneratorSettings.DEFAULTS : generator;
        String rampProblem = LoadSpec.rampProblem(load, warmupMs, generator.rampMs());
        if (rampProblem != null) {
            throw new IllegalArgumentException("scenario " + name + ": generator.rampMs " + rampProblem);
        }
        if (steady != null && (warmUp || load.holdsRequests())) {
            throw new IllegalArgumentException("scenario " + name + ": steady applies to a measured open or closed "
                    + "loop; " + (warmUp ? "a warm-up scenario runs for its duration" : "max concurrency holds its "
                    + "requests from the measured phase's start") + ", so give it warmupMs alone");
        }
        if (steady != null && steady.maxMs() < warmupMs) {
            throw new IllegalArgumentException("scenario " + name + ": steady.maxMs (" + steady.maxMs()
                    + ") must be at least warmupMs (" + warmupMs + "), the warm-up's minimum");
        }
    }

    /** The file's form of a scenario: its template's fields back under the names a suite file gives them. */
    static ScenarioFile of(Suite.Scenario scenario) {
        LoadSpec template = scenario.template();
        // 0 is how a file leaves the response timeout to the generator, so the default reads back as it was given.
        long responseTimeoutMs = template.responseTimeoutMs() == LoadSpec.DEFAULT_RESPONSE_TIMEOUT_MS
                ? 0 : template.responseTimeoutMs();
        GeneratorSettings generator = new GeneratorSettings(
                scenario.autoProcesses() ? GeneratorSettings.AUTO_PROCESSES : template.processes(), template.threads(),
                template.sourceAddresses(), template.maxConnections(), responseTimeoutMs, template.rampMs(),
                template.client(), template.streams() == 1 ? 0 : template.streams(), template.newConnectionPerRequest());
        return new ScenarioFile(scenario.name(), scenario.description(), template.model(), scenario.waitMs(),
                template.warmupMs(), template.durationMs(), generator, scenario.warmUp(), template.steady());
    }

    /**
     * The scenario this file gives. What only a load spec checks (an engine's threads, a fixed pool against
     * {@code maxConnections}) is one line naming the scenario too.
     */
    Suite.Scenario toScenario() {
        LoadSpec.Builder template = Suite.Scenario.template(load).toBuilder()
                .warmupMs(warmupMs).rampMs(generator.rampMs()).durationMs(durationMs)
                // Left to SuiteScaling and not fitted (a suite read but not run): one process, the generator's default.
                .processes(generator.autoProcesses() ? 1 : generator.processes()).threads(generator.threads())
                .sourceAddresses(generator.sourceAddresses())
                .maxConnections(generator.maxConnections())
                .client(generator.client())
                .http2(false, generator.streams())
                .newConnectionPerRequest(generator.newConnectionPerRequest())
                .steady(steady);
        if (generator.responseTimeoutMs() > 0) {
            template.responseTimeoutMs(generator.responseTimeoutMs());
        }
        LoadSpec built;
        try {
            built = template.build();
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("scenario " + name + ": " + e.getMessage(), e);
        }
        return new Suite.Scenario(name, description, built, waitMs, warmUp, generator.autoProcesses());
    }
}
