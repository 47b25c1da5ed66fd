package dev.gauntlet.runner.cli;

import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.loadgen.split.HostLimits;
import dev.gauntlet.runner.isolation.Isolation;
import dev.gauntlet.runner.suite.ClusterSettings;
import dev.gauntlet.runner.suite.Placement;
import dev.gauntlet.runner.suite.RunPlan;
import dev.gauntlet.runner.suite.Suite;
import dev.gauntlet.runner.suite.SuiteLoader;
import dev.gauntlet.runner.suite.SuiteScaling;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code gauntlet suites}: every built-in suite, or the suites named, as it would run — where (this machine's CPUs
 * or a cluster's pods), what it is for, its default targets, its scenarios after scaling, and the wall time to expect.
 */
@Command(name = "suites", mixinStandardHelpOptions = true,
        description = "List the built-in suites, or the suites named: where each would run, what it measures, its default"
                + " targets and scenarios as scaled to where it runs, and about how long it takes.",
        footer = {"", "Examples:", "  ./gauntlet suites", "  ./gauntlet suites my-cluster.yaml   a suite file: where it would run and what",
                "  ./gauntlet run --suite server",
                "  ./gauntlet run --suite latency-diff --targets dummy,netty-event-loop"})
public final class SuitesCommand implements Runnable {

    @Parameters(paramLabel = "SUITE", arity = "0..*", description = "built-in suite names or suite files (default: every built-in suite)")
    List<String> suites = SuiteLoader.BUILT_IN;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        PrintWriter out = spec.commandLine().getOut();
        TargetCatalogue catalogue = TargetCatalogue.builtIn();
        HostLimits limits = HostLimits.read();
        for (String name : suites) {
            Suite suite = SuiteLoader.load(name).withCatalogue(catalogue);
            SuiteScaling.Fitted fitted;
            String where;
            if (suite.placement() == Placement.KUBERNETES) {
                fitted = SuiteScaling.fit(suite, ClusterSettings.targetPod(suite.resources()).cpus(), null, limits);
                where = inCluster(suite);
            } else {
                try (Isolation isolation = Isolation.plan(suite.resources(), Isolation.Network.LOOPBACK)) {
                    fitted = SuiteScaling.fit(suite, isolation.target().cpuShare(), null, limits);
                    where = "this machine, CPUs " + isolation.summary();
                }
            }
            RunPlan plan = RunPlan.of(fitted.suite().withClientScenarios());
            out.printf(Locale.ROOT, "%s — about %s%s%s, %d runs (%d targets × %d scenarios × %s × %d, %s)%n",
                    suite.name(), plan.estimateInMinutes(),
                    suite.placement() == Placement.KUBERNETES ? " and the pods' starts" : " here",
                    plan.atMostInMinutes(), plan.recordedRuns(), suite.targets().size(), recordedScenarios(suite),
                    suite.forks() + (suite.forks() == 1 ? " fork" : " forks"), suite.repetitions(), order(suite.repeat()));
            if (!suite.description().isEmpty()) {
                out.printf("  %s%n", suite.description());
            }
            if (suite.untilResolved() != null) {
                out.printf(Locale.ROOT, "  until resolved: then a fork more at a time of the targets not yet told apart,"
                        + " up to %d forks or %d min%n", suite.untilResolved().maxForks(), suite.untilResolved().maxMinutes());
            }
            SuiteLoader.profilesOf(name).forEach((profile, what) -> out.printf("  --profile %s: %s%n", profile, what));
            out.printf("  runs on: %s%n", where);
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
        out.println("Run one with: ./gauntlet run --suite NAME   (--targets, --forks, --repetitions, --profile and --scale change it,"
                + " --kubernetes runs it in a cluster; ./gauntlet run --help)");
    }

    /** Where a suite with {@code placement: kubernetes} runs: the pods' sizes and nodes, the image and the namespace. */
    private static String inCluster(Suite suite) {
        ClusterSettings cluster = suite.kubernetes();
        return String.format(Locale.ROOT, "the kubeconfig's cluster, namespace %s: each target a pod (%s) on %s, each load"
                        + " %d shards (%s each) on %s, one per node; image %s",
                cluster.namespace() == null ? "of the kubeconfig" : cluster.namespace(),
                ClusterSettings.targetPod(suite.resources()).describe(), nodes(cluster.targetNodes(), "a node"),
                cluster.shards(), ClusterSettings.shardPod(suite.resources()).describe(), nodes(cluster.loadNodes(), "other nodes"),
                cluster.image());
    }

    private static String nodes(Map<String, String> selector, String anyNode) {
        return selector.isEmpty() ? anyNode + " (no node selector)" : "nodes labelled " + String.join(",",
                selector.entrySet().stream().sorted(Map.Entry.comparingByKey()).map(e -> e.getKey() + "=" + e.getValue()).toList());
    }

    private static long recordedScenarios(Suite suite) {
        return suite.scenarios().stream().filter(s -> !s.warmUp()).count();
    }

    private static String order(Suite.Repeat repeat) {
        return switch (repeat) {
            case SCENARIO -> "each scenario repeated in a row";
            case SWEEP -> "whole sweeps repeated";
        };
    }
}
