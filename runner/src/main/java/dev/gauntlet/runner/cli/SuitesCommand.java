package dev.gauntlet.runner.cli;

import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.loadgen.split.HostLimits;
import dev.gauntlet.runner.isolation.Isolation;
import dev.gauntlet.runner.suite.RunPlan;
import dev.gauntlet.runner.suite.Suite;
import dev.gauntlet.runner.suite.SuiteLoader;
import dev.gauntlet.runner.suite.SuiteScaling;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * {@code gauntlet suites}: every built-in suite as it would run on this machine — what it is for,
 * its default targets, its scenarios after scaling, and the wall time to expect.
 */
@Command(name = "suites", mixinStandardHelpOptions = true,
        description = "List the built-in suites: what each measures, its default targets and scenarios as scaled to this"
                + " machine, and about how long it takes here.",
        footer = {"", "Examples:", "  ./gauntlet suites", "  ./gauntlet run --suite server",
                "  ./gauntlet run --suite latency-diff --targets dummy,netty-event-loop"})
public final class SuitesCommand implements Runnable {

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        TargetCatalogue catalogue = TargetCatalogue.builtIn();
        HostLimits limits = HostLimits.read();
        for (String name : SuiteLoader.BUILT_IN) {
            Suite suite = SuiteLoader.load(name).withCatalogue(catalogue);
            SuiteScaling.Fitted fitted;
            try (Isolation isolation = Isolation.plan(suite.resources(), Isolation.Network.LOOPBACK)) {
                fitted = SuiteScaling.fit(suite, isolation.target().cpuShare(), null, limits);
            }
            RunPlan plan = RunPlan.of(fitted.suite().withClientScenarios());
            out.printf(Locale.ROOT, "%s — about %s here%s, %d runs (%d targets × %d scenarios × %d, %s)%n", name,
                    plan.estimateInMinutes(), plan.atMostInMinutes(), plan.recordedRuns(), suite.targets().size(), recordedScenarios(suite),
                    suite.repetitions(), order(suite.repeat()));
            out.printf("  %s%n", suite.description());
            out.printf("  targets: %s%n", String.join(", ", suite.targets()));
            if (!suite.clients().isEmpty()) {
                out.printf("  clients: %s (each scenario once per client)%n", String.join(", ", suite.clients()));
            }
            for (Suite.Scenario scenario : fitted.suite().scenarios()) {
                int processes = scenario.template().processes();
                out.printf(Locale.ROOT, "  %-20s %s, wait %d ms, %s%s%s%n", scenario.name(), scenario.load().describe(),
                        scenario.waitMs(), scenario.phases(),
                        processes > 1 ? ", " + processes + " generator processes" : "",
                        scenario.warmUp() ? " (warm-up, not recorded)" : "");
            }
            fitted.changes().forEach(change -> out.printf("  scaled: %s%n", change));
            out.println();
        }
        out.println("Run one with: ./gauntlet run --suite NAME   (--targets, --repetitions and --scale change it;"
                + " ./gauntlet run --help)");
    }

    private static long recordedScenarios(Suite suite) {
        return suite.scenarios().stream().filter(s -> !s.warmUp()).count();
    }

    private static String order(Suite.Repeat repeat) {
        return switch (repeat) {
            case SCENARIO -> "each scenario repeated in a row";
            case SWEEP -> "whole sweeps repeated";
            case ROUND -> "targets alternating in rounds";
        };
    }
}
