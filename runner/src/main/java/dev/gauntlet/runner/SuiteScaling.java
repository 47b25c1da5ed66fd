package dev.gauntlet.runner;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.loadgen.split.HostLimits;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Fits a suite to the machine at hand and says what it changed and why. Three rules:
 *
 * <ul>
 *   <li><b>Rates</b>: a suite with a {@code scaling} section was declared in the terms of a study
 *   made on another machine; its open-loop rates are multiplied by the CPUs the target gets here
 *   divided by the original target's ({@code --scale F} sets the factor instead, for any suite).</li>
 *   <li><b>Ceiling</b>: in every suite, a closed loop's connections, a fixed pool's and the
 *   max-concurrency model's held requests are cut to what the open-files limits of the target
 *   and the generator processes and the ephemeral ports of the source addresses allow together.</li>
 *   <li><b>Generator processes</b>: a scenario whose {@code generator.processes} is {@code auto} (or
 *   absent) gets the fewest processes whose shares of its connections, after the cut, each fit one
 *   process's open files. Every process beyond one costs CPU the generator may not have: on two
 *   CPUs, two processes holding 19,000 connections shared one CPU and timed out connecting.</li>
 * </ul>
 *
 * <pre>{@code
 * SuiteScaling.Fitted fitted = SuiteScaling.fit(suite, isolation.target().cpuShare(), null, HostLimits.read());
 * fitted.changes().forEach(System.err::println);   // "rates × 0.5: ...", "concurrency: 54000 held requests cut to 19000: ..."
 * Suite here = fitted.suite();                       // every scenario's generator.processes a number
 * }</pre>
 */
final class SuiteScaling {
    /**
     * Descriptors a target JVM holds besides its connections: jars, JFR, selectors, the admin
     * server. A few hundred in practice; 1,000 leaves room for a server that opens more.
     */
    static final int TARGET_RESERVED_FILES = 1_000;
    /** The same for a generator process: its jars, logs and selector, beside the connections its preflight counts. */
    static final int GENERATOR_RESERVED_FILES = 200;

    private SuiteScaling() {
    }

    /**
     * A suite as it runs here.
     *
     * @param factor  what open-loop rates were multiplied by; 1 when they were left as declared
     * @param changes one sentence per change, with its reason, for the header and {@code suite.json}
     */
    record Fitted(Suite suite, double factor, List<String> changes) {
    }

    /**
     * @param targetCpus    the CPUs' worth of time the target may use here
     * @param scaleOverride {@code --scale}: the rate factor to use instead of the suite's rule; null for none
     */
    static Fitted fit(Suite suite, double targetCpus, Double scaleOverride, HostLimits limits) {
        List<String> changes = new ArrayList<>();
        double factor = 1;
        if (scaleOverride != null) {
            factor = scaleOverride;
            changes.add("rates × " + decimal(factor) + ", as --scale says");
        } else if (suite.scaling() != null) {
            int reference = suite.scaling().referenceTargetCpus();
            factor = targetCpus / reference;
            changes.add(String.format(Locale.ROOT, "rates × %s: the target gets %s CPU here, the original's had %d"
                            + " (rates scale with the target's CPUs; --scale F sets another factor)",
                    decimal(factor), decimal(targetCpus), reference));
        }
        List<Suite.Scenario> scenarios = new ArrayList<>();
        for (Suite.Scenario scenario : suite.scenarios()) {
            Suite.Scenario scaled = factor == 1 ? scenario : scenario.withLoad(scaledRate(scenario.load(), factor));
            Suite.Scenario capped = capped(scaled, limits, changes);
            scenarios.add(withProcesses(capped, !capped.load().equals(scaled.load()), limits, changes));
        }
        return new Fitted(suite.withScenarios(scenarios), factor, List.copyOf(changes));
    }

    /** {@code 0.5}, {@code 1}, {@code 0.33}: two decimals at most, no trailing zeros. */
    static String decimal(double value) {
        return BigDecimal.valueOf(value).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }

    private static LoadModel scaledRate(LoadModel load, double factor) {
        if (!(load instanceof LoadModel.OpenLoop open)) {
            return load;
        }
        // Whole requests per second, never below one: a rate of 0.3/s would measure nothing in a few seconds.
        double rate = Math.max(1, Math.round(open.ratePerSec() * factor));
        return new LoadModel.OpenLoop(rate, open.interArrival(), open.connectionPolicy(), open.connections());
    }

    /** The scenario with its connection count cut to the ceiling, and a sentence in {@code changes} when it was. */
    private static Suite.Scenario capped(Suite.Scenario scenario, HostLimits limits, List<String> changes) {
        Ceiling ceiling = Ceiling.of(scenario.generator(), limits);
        LoadModel load = scenario.load();
        int wanted = switch (load) {
            case LoadModel.ClosedLoop closed -> closed.connections();
            case LoadModel.MaxConcurrency held -> held.requests();
            case LoadModel.OpenLoop open -> open.connections();
        };
        if (wanted <= ceiling.connections()) {
            return scenario;
        }
        int cut = (int) ceiling.connections();
        LoadModel fitted = switch (load) {
            case LoadModel.ClosedLoop ignored -> new LoadModel.ClosedLoop(cut);
            case LoadModel.MaxConcurrency ignored -> new LoadModel.MaxConcurrency(cut);
            case LoadModel.OpenLoop open -> LoadModel.OpenLoop.fixedPool(open.ratePerSec(), open.interArrival(), cut);
        };
        changes.add(String.format(Locale.ROOT, "%s: %d %s cut to %d: %s", scenario.name(), wanted,
                load instanceof LoadModel.MaxConcurrency ? "held requests" : "connections", cut, ceiling.reason()));
        return scenario.withLoad(fitted);
    }

    /**
     * The scenario with {@code processes: auto} resolved to the fewest generator processes whose shares of its
     * connections each fit one process's open files, and a sentence in {@code changes} when the choice was not
     * a matter of course: its count was cut to the ceiling, or it needs more than one process. A number stays.
     */
    private static Suite.Scenario withProcesses(Suite.Scenario scenario, boolean cut, HostLimits limits,
                                                List<String> changes) {
        Suite.GeneratorSettings generator = scenario.generator();
        if (!generator.autoProcesses()) {
            return scenario;
        }
        long connections = connectionsHeld(scenario);
        long perProcess = connectionsPerGeneratorProcess(limits);
        int processes = (int) Math.max(1, Math.ceilDiv(connections, perProcess));
        if (processes > Suite.GeneratorSettings.MAX_PROCESSES) {
            throw new UserError(String.format(Locale.ROOT, "%s: %d connections need %d generator processes here (one may"
                            + " open %d files), more than %d: raise the open-files limit (ulimit -n) or give fewer connections",
                    scenario.name(), connections, processes, limits.openFiles(), Suite.GeneratorSettings.MAX_PROCESSES));
        }
        if (cut || processes > 1) {
            changes.add(String.format(Locale.ROOT, "%s: %d generator process%s for %d %s (generator.processes auto):"
                            + " one may open %d files here, less %d for its JVM", scenario.name(), processes,
                    processes == 1 ? "" : "es", connections,
                    scenario.load() instanceof LoadModel.MaxConcurrency ? "held requests" : "connections",
                    limits.openFiles(), GENERATOR_RESERVED_FILES));
        }
        return scenario.withGenerator(generator.withProcesses(processes));
    }

    /**
     * The connections a generator opens at most for this scenario, as its preflight counts them: a closed loop's,
     * a fixed pool's, the held requests, or an open loop's {@code maxConnections} (0: left to the machine).
     */
    private static long connectionsHeld(Suite.Scenario scenario) {
        return switch (scenario.load()) {
            case LoadModel.ClosedLoop closed -> closed.connections();
            case LoadModel.MaxConcurrency held -> held.requests();
            case LoadModel.OpenLoop open when open.connectionPolicy() == LoadModel.ConnectionPolicy.FIXED -> open.connections();
            case LoadModel.OpenLoop ignored -> scenario.generator().maxConnections();
        };
    }

    /** The connections one generator process may open here: its open files less what its JVM keeps. */
    static long connectionsPerGeneratorProcess(HostLimits limits) {
        return Math.max(1, limits.openFiles() - GENERATOR_RESERVED_FILES);
    }

    /**
     * The most connections one scenario can hold to one target here, and which limit binds. The
     * target inherits the runner's open-files limit; each generator process has the same. With
     * {@code processes: auto} the generator is never the bound: it gets as many processes as the
     * count needs.
     */
    record Ceiling(long connections, String reason) {
        static Ceiling of(Suite.GeneratorSettings generator, HostLimits limits) {
            long target = limits.openFiles() - TARGET_RESERVED_FILES;
            long generators = generator.autoProcesses() ? Long.MAX_VALUE
                    : generator.processes() * connectionsPerGeneratorProcess(limits);
            long ports = (long) Math.max(1, generator.sourceAddresses().size()) * limits.ephemeralPorts();
            if (target <= generators && target <= ports) {
                return new Ceiling(target, String.format(Locale.ROOT, "a process may open %d files here, the target"
                        + " keeps %d for its JVM", limits.openFiles(), TARGET_RESERVED_FILES));
            }
            if (generators <= ports) {
                return new Ceiling(generators, String.format(Locale.ROOT, "%d generator process(es) may open %d files"
                        + " each, less %d for the JVM (more with generator.processes, or auto)", generator.processes(),
                        limits.openFiles(), GENERATOR_RESERVED_FILES));
            }
            return new Ceiling(ports, String.format(Locale.ROOT, "%d source address(es) × %d ephemeral ports"
                    + " (more with generator.sourceAddresses)", Math.max(1, generator.sourceAddresses().size()),
                    limits.ephemeralPorts()));
        }
    }
}
