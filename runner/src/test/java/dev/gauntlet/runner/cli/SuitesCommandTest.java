package dev.gauntlet.runner.cli;

import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.runner.suite.SuiteLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code gauntlet suites}: every built-in suite, fitted to this machine, with the time to expect. */
class SuitesCommandTest {

    @Test
    void everyBuiltInSuiteIsListedWithItsTimeTargetsAndScaledScenarios() {
        StringWriter out = new StringWriter();
        int exit = new CommandLine(new GauntletCommand()).setOut(new PrintWriter(out, true)).execute("suites");

        assertThat(exit).isZero();
        String listing = out.toString();
        // The most is left out where it comes to the same minutes (the quick suite's 3).
        for (String suite : SuiteLoader.BUILT_IN) {
            assertThat(listing).containsPattern("(?m)^" + suite + " — about \\d+ min here( \\(\\d+ min at most: every warm-up until steady at its maximum, every target falling behind\\))?, \\d+ runs");
        }
        assertThat(listing).containsPattern("(?m)^server — about \\d+ min here \\(\\d+ min at most: every warm-up until steady at its maximum, every target falling behind\\), \\d+ runs");
        assertThat(listing).contains("targets: jetty-servlet-sync, jetty-servlet-virtual",
                "(warm-up, not recorded)", "scaled: rates × ", "targets: dummy, jetty-handler-sync, jetty-handler-virtual");
        // The throughput suite's [all] is spelled out as the catalogue.
        int catalogued = TargetCatalogue.builtIn().targets().size();
        assertThat(listing).contains("runs (" + catalogued + " targets × 1 scenarios");
    }

    @Test
    void aSuiteFileSaysWhereItWouldRun(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("cluster.yaml"), """
                name: cluster
                targets: [dummy, netty-event-loop]
                placement: kubernetes
                kubernetes: { image: registry.example/gauntlet:1, shards: 3, targetNodes: { gauntlet: target } }
                scenarios:
                  - name: s
                    load: { type: closed, connections: 1 }
                    durationMs: 1000
                """);
        StringWriter out = new StringWriter();
        int exit = new CommandLine(new GauntletCommand()).setOut(new PrintWriter(out, true)).execute("suites", file.toString(), "quick");

        assertThat(exit).isZero();
        assertThat(out.toString()).containsPattern("(?m)^cluster — about \\d+ min and the pods' starts \\(\\d+ min at most: every warm-up until steady"
                        + " at its maximum, every target falling behind\\), 2 runs")
                .contains("  runs on: the kubeconfig's cluster, namespace of the kubeconfig: each target a pod (2 CPUs, 4Gi)"
                        + " on nodes labelled gauntlet=target, each load 3 shards (2 CPUs, 2Gi each) on other nodes (no node"
                        + " selector), one per node; image registry.example/gauntlet:1")
                .containsPattern("(?m)^quick — about \\d+ min here")
                .containsPattern("(?m)^  runs on: this machine, CPUs ");
    }

    @Test
    void everyBuiltInSuiteLoads() {
        for (String suite : SuiteLoader.BUILT_IN) {
            assertThat(SuiteLoader.load(suite).name()).isEqualTo(suite);
        }
    }
}
