package dev.gauntlet.runner.suite;

import dev.gauntlet.api.ConnectionBudget;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.loadgen.split.HostLimits;
import dev.gauntlet.runner.base.UserError;

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
public final class SuiteScaling {
    /**
     * Descriptors a target JVM holds besides its connections: jars, JFR, selectors, the admin
     * server. A few hundred in practice; 1,000 leaves room for a server that opens more.
     */
    static final int TARGET_RESERVED_FILES = 1_000;
    private SuiteScaling() {
    }

    /**
     * A suite as it runs here.
     *
     * @param factor  what open-loop rates were multiplied by; 1 when they were left as declared
     * @param changes one sentence per change, with its reason, for the header and {@code suite.json}
     */
    public record Fitted(Suite suite, double factor, List<String> changes) {
    }

    /**
     * @param targetCpus    the CPUs' worth of time the target may use here
     * @param scaleOverride {@code --scale}: the rate factor to use instead of the suite's rule; null for none
     */
    public static Fitted fit(Suite suite, double targetCpus, Double scaleOverride, HostLimits limits) {
        List<String> changes = new ArrayList<>();
        double factor = 1;
        if (scaleOverride != null) {
            factor = scaleOverride;
            changes.add("rates × " + decimal(factor) + ", as --scale says");
        } else if (suite.scaling() != null) {
            // Those in scaling.unscaled keep their rates, below; --scale is the user's choice for every scenario.
            int reference = suite.scaling().referenceTargetCpus();
            factor = targetCpus / reference;
            changes.add(String.format(Locale.ROOT, "rates × %s: the target gets %s CPU here, the original's had %d"
                            + " (rates scale with the target's CPUs; --scale F sets another factor)",
                    decimal(factor), decimal(targetCpus), reference));
        }
        List<String> unscaled = scaleOverride == null && suite.scaling() != null ? suite.scaling().unscaled() : List.of();
        if (factor != 1 && !unscaled.isEmpty()) {
            changes.add(String.join(", ", unscaled) + ": rates kept as declared (scaling.unscaled): requests that wait cost"
                    + " the target threads and memory, not CPU, so these hold as many at once as the original's did");
        }
        List<Suite.Scenario> scenarios = new ArrayList<>();
        for (Suite.Scenario scenario : suite.scenarios()) {
            boolean scales = factor != 1 && !unscaled.contains(scenario.name());
            Suite.Scenario scaled = scales ? scenario.withLoad(scenario.load().scaledBy(factor)) : scenario;
            Suite.Scenario capped = capped(scaled, limits, changes);
            scenarios.add(withProcesses(capped, !capped.load().equals(scaled.load()), limits, changes));
        }
        return new Fitted(suite.withScenarios(scenarios), factor, List.copyOf(changes));
    }

    /** {@code 0.5}, {@code 1}, {@code 0.33}: two decimals at most, no trailing zeros. */
    public static String decimal(double value) {
        return BigDecimal.valueOf(value).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }

    /** The scenario with its connection count cut to the ceiling, and a sentence in {@code changes} when it was. */
    private static Suite.Scenario capped(Suite.Scenario scenario, HostLimits limits, List<String> changes) {
        Ceiling ceiling = Ceiling.of(scenario, limits);
        LoadModel load = scenario.load();
        // What the load itself asks for (an open loop's fixed pool; 0 for one that opens its own).
        long wanted = load.connectionsOpened(0);
        if (wanted <= ceiling.connections()) {
            return scenario;
        }
        int cut = (int) ceiling.connections();
        changes.add(String.format(Locale.ROOT, "%s: %d %s cut to %d: %s", scenario.name(), wanted, load.connectionsCalled(), cut,
                ceiling.reason()));
        return scenario.withLoad(load.withConnections(cut));
    }

    /**
     * The scenario with {@code processes: auto} resolved to the fewest generator processes whose shares of its
     * connections each fit one process's open files, and a sentence in {@code changes} when the choice was not
     * a matter of course: its count was cut to the ceiling, or it needs more than one process. A number stays.
     */
    private static Suite.Scenario withProcesses(Suite.Scenario scenario, boolean cut, HostLimits limits,
                                                List<String> changes) {
        if (!scenario.autoProcesses()) {
            return scenario;
        }
        LoadSpec template = scenario.template();
        long connections = scenario.load().connectionsOpened(template.maxConnections());
        long perProcess = connectionsPerGeneratorProcess(template, limits);
        int processes = (int) Math.max(1, Math.ceilDiv(connections, perProcess));
        if (processes > GeneratorSettings.MAX_PROCESSES) {
            throw new UserError(String.format(Locale.ROOT, "%s: %d connections need %d generator processes here (one may"
                            + " open %d files), more than %d: raise the open-files limit (ulimit -n) or give fewer connections",
                    scenario.name(), connections, processes, limits.openFiles(), GeneratorSettings.MAX_PROCESSES));
        }
        if (cut || processes > 1) {
            changes.add(String.format(Locale.ROOT, "%s: %d generator process%s for %d %s (generator.processes auto):"
                            + " one may open %d files here, less %d for its JVM", scenario.name(), processes,
                    processes == 1 ? "" : "es", connections,
                    scenario.load().connectionsCalled(), limits.openFiles(), budget(template, limits).reservedFiles()));
        }
        return scenario.withProcesses(processes);
    }

    /** What one generator process of a scenario's template may open here, as its preflight counts it. */
    private static ConnectionBudget budget(LoadSpec template, HostLimits limits) {
        return new ConnectionBudget(limits.openFiles(), limits.ephemeralPorts(), template.sourceAddresses().size(),
                template.threads());
    }

    /** The connections one generator process may open here: its open files less what its JVM keeps, one at least. */
    private static long connectionsPerGeneratorProcess(LoadSpec template, HostLimits limits) {
        return Math.max(1, budget(template, limits).files());
    }

    /**
     * The most connections one scenario can hold to one target here, and which limit binds. The
     * target inherits the runner's open-files limit; each generator process has the same. With
     * {@code processes: auto} the generator is never the bound: it gets as many processes as the
     * count needs.
     */
    record Ceiling(long connections, String reason) {
        static Ceiling of(Suite.Scenario scenario, HostLimits limits) {
            LoadSpec template = scenario.template();
            long target = limits.openFiles() - TARGET_RESERVED_FILES;
            long generators = scenario.autoProcesses() ? Long.MAX_VALUE
                    : template.processes() * connectionsPerGeneratorProcess(template, limits);
            long ports = budget(template, limits).ports();
            if (target <= generators && target <= ports) {
                // The one bound the suite cannot lift itself: say where the whole count would fit.
                long wanted = scenario.load().connectionsOpened(0);
                return new Ceiling(target, String.format(Locale.ROOT, "a process may open %d files here, the target"
                        + " keeps %d for its JVM; all %d fit where the target may open %d (ulimit -n on a larger machine,"
                        + " or a cluster node's limit with --kubernetes, docs/distributed.md)", limits.openFiles(),
                        TARGET_RESERVED_FILES, wanted, wanted + TARGET_RESERVED_FILES));
            }
            if (generators <= ports) {
                return new Ceiling(generators, String.format(Locale.ROOT, "%d generator process(es) may open %d files"
                        + " each, less %d for the JVM (more with generator.processes, or auto)", template.processes(),
                        limits.openFiles(), budget(template, limits).reservedFiles()));
            }
            return new Ceiling(ports, String.format(Locale.ROOT, "%d source address(es) × %d ephemeral ports"
                    + " (more with generator.sourceAddresses)", Math.max(1, template.sourceAddresses().size()),
                    limits.ephemeralPorts()));
        }
    }
}
