package dev.gauntlet.runner.cli;

import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.runner.suite.SuiteLoader;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
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
        for (String suite : SuiteLoader.BUILT_IN) {
            assertThat(listing).containsPattern("(?m)^" + suite + " — about \\d+ min here \\(\\d+ min at most: every warm-up until steady at its maximum\\), \\d+ runs");
        }
        assertThat(listing).contains("targets: jetty-servlet-sync, jetty-servlet-virtual",
                "(warm-up, not recorded)", "scaled: rates × ", "targets: dummy, jetty-handler-sync, jetty-handler-virtual");
        // The throughput suite's [all] is spelled out as the catalogue.
        int catalogued = TargetCatalogue.builtIn().targets().size();
        assertThat(listing).contains("runs (" + catalogued + " targets × 1 scenarios");
    }

    @Test
    void everyBuiltInSuiteLoads() {
        for (String suite : SuiteLoader.BUILT_IN) {
            assertThat(SuiteLoader.load(suite).name()).isEqualTo(suite);
        }
    }
}
