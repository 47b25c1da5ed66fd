package dev.gauntlet.runner.suite;

import dev.gauntlet.api.ConnectionBudget;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.loadgen.split.HostLimits;
import dev.gauntlet.runner.base.UserError;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The scaling rule and the connection ceiling, against this machine's limits written out. */
class SuiteScalingTest {
    /** 20,000 open files per process and ports 32768–60999, as here. */
    private static final HostLimits HERE = new HostLimits(20_000, 32_768, 60_999, 4_096);

    private static final Suite STUDY = SuiteLoader.parse("""
            name: study
            targets: [a]
            scaling: { referenceTargetCpus: 2 }
            scenarios:
              - name: concurrency
                load: { type: max-concurrency, requests: 54000 }
                waitMs: 12000
                durationMs: 10000
                generator: { processes: 2, sourceAddresses: [127.0.0.1, 127.0.0.2] }
              - name: slow
                load: { type: open, ratePerSec: 1000 }
                waitMs: 1000
                durationMs: 10000
              - name: warm
                load: { type: closed, connections: 1000 }
                durationMs: 5000
            """.getBytes(StandardCharsets.UTF_8), "test");

    @Test
    void ratesScaleWithTheTargetsCpusAndHeldRequestsStopAtTheTargetsOpenFiles() {
        SuiteScaling.Fitted fitted = SuiteScaling.fit(STUDY, 1, null, HERE);

        assertThat(fitted.factor()).isEqualTo(0.5);
        assertThat(fitted.suite().scenarios().get(0).load()).isEqualTo(new LoadModel.MaxConcurrency(19_000));
        assertThat(((LoadModel.OpenLoop) fitted.suite().scenarios().get(1).load()).ratePerSec()).isEqualTo(500);
        assertThat(fitted.suite().scenarios().get(2).load()).isEqualTo(new LoadModel.ClosedLoop(1000));
        assertThat(fitted.suite().scaling()).as("a fitted suite has no rule left to apply").isNull();
        assertThat(fitted.changes()).containsExactly(
                "rates × 0.5: the target gets 1 CPU here, the original's had 2 (rates scale with the target's CPUs;"
                        + " --scale F sets another factor)",
                "concurrency: 54000 held requests cut to 19000: a process may open 20000 files here, the target keeps"
                        + " 1000 for its JVM; all 54000 fit where the target may open 55000 (ulimit -n on a larger machine,"
                        + " or a cluster node's limit with --kubernetes, docs/distributed.md)");
    }

    @Test
    void aWaitBoundScenarioNamedUnscaledKeepsItsRateAndSoHoldsWhatTheOriginalHeld() {
        Suite study = SuiteLoader.parse("""
                name: study
                targets: [a]
                scaling: { referenceTargetCpus: 2, unscaled: [slow] }
                scenarios:
                  - { name: slow, load: { type: open, ratePerSec: 1000 }, waitMs: 1000, durationMs: 10000 }
                  - { name: overhead, load: { type: open, ratePerSec: 100000 }, durationMs: 4000 }
                """.getBytes(StandardCharsets.UTF_8), "test");

        SuiteScaling.Fitted fitted = SuiteScaling.fit(study, 1, null, HERE);

        assertThat(((LoadModel.OpenLoop) fitted.suite().scenarios().get(0).load()).ratePerSec()).isEqualTo(1000);
        assertThat(((LoadModel.OpenLoop) fitted.suite().scenarios().get(1).load()).ratePerSec()).isEqualTo(50_000);
        assertThat(fitted.changes().get(1)).startsWith("slow: rates kept as declared (scaling.unscaled)");
        assertThat(((LoadModel.OpenLoop) SuiteScaling.fit(study, 1, 0.5, HERE).suite().scenarios().get(0).load())
                .ratePerSec()).as("--scale is the user's choice for every scenario").isEqualTo(500);
    }

    @Test
    void theServerSuitesWaitBoundCasesHoldAThousandRequestsOnOneCpu() {
        Suite server = SuiteScaling.fit(SuiteLoader.load("server"), 1, null, HERE).suite();

        for (String name : java.util.List.of("slow", "realistic")) {
            Suite.Scenario scenario = server.scenarios().stream().filter(s -> s.name().equals(name)).findFirst().orElseThrow();
            double held = ((LoadModel.OpenLoop) scenario.load()).ratePerSec() * scenario.waitMs() / 1000.0;
            assertThat(held).as(name + ": rate × wait").isEqualTo(1000);
        }
    }

    @Test
    void anUnscaledNameThatIsNoScenarioIsAOneLineError() {
        assertThatThrownBy(() -> SuiteLoader.parse("""
                name: study
                targets: [a]
                scaling: { referenceTargetCpus: 2, unscaled: [slwo] }
                scenarios:
                  - { name: slow, load: { type: open, ratePerSec: 1000 }, waitMs: 1000, durationMs: 10000 }
                """.getBytes(StandardCharsets.UTF_8), "test"))
                .isInstanceOf(UserError.class)
                .hasMessageContaining("scaling.unscaled names slwo, which is not among the suite's scenarios [slow]");
    }

    @Test
    void scaleOverridesTheRule() {
        SuiteScaling.Fitted fitted = SuiteScaling.fit(STUDY, 1, 2.0, HERE);

        assertThat(((LoadModel.OpenLoop) fitted.suite().scenarios().get(1).load()).ratePerSec()).isEqualTo(2000);
        assertThat(fitted.changes().getFirst()).isEqualTo("rates × 2, as --scale says");
    }

    @Test
    void oneGeneratorProcessOnOneAddressIsBoundByItsOwnFilesThenByPorts() {
        // A scenario that sets up no generator: processes auto, one thread, the system's source address.
        Suite.Scenario defaults = new Suite.Scenario("s", null, Suite.Scenario.template(new LoadModel.ClosedLoop(1)), 0,
                false, true);
        SuiteScaling.Ceiling oneProcess = SuiteScaling.Ceiling.of(defaults, HERE);
        assertThat(oneProcess.connections()).isEqualTo(19_000);

        HostLimits manyFiles = new HostLimits(1_000_000, 32_768, 60_999, 4_096);
        SuiteScaling.Ceiling ports = SuiteScaling.Ceiling.of(defaults, manyFiles);
        assertThat(ports.connections()).isEqualTo(28_232);
        assertThat(ports.reason()).contains("1 source address(es) × 28232 ephemeral ports");
    }

    @Test
    void autoGivesTheCutHeldRequestsOneGeneratorProcessWhenTheyFitItsOpenFiles() {
        SuiteScaling.Fitted fitted = fittedHere("""
                  - name: concurrency
                    load: { type: max-concurrency, requests: 54000 }
                    waitMs: 9000
                    durationMs: 8000
                    generator: { processes: auto }
                """);

        Suite.Scenario concurrency = fitted.suite().scenarios().getFirst();
        assertThat(concurrency.load()).as("cut to the target's files, not to a generator process's")
                .isEqualTo(new LoadModel.MaxConcurrency(19_000));
        assertThat(concurrency.template().processes()).as("19,000 fit one process's 19,800").isEqualTo(1);
        assertThat(fitted.changes()).containsExactly(
                "concurrency: 54000 held requests cut to 19000: a process may open 20000 files here, the target keeps"
                        + " 1000 for its JVM; all 54000 fit where the target may open 55000 (ulimit -n on a larger machine,"
                        + " or a cluster node's limit with --kubernetes, docs/distributed.md)",
                "concurrency: 1 generator process for 19000 held requests (generator.processes auto): one may open"
                        + " 20000 files here, less 200 for its JVM");
        assertThat(concurrency.toSpec(URI.create("http://127.0.0.1:1/hello"), URI.create("http://127.0.0.1:2/"))
                .processes()).isEqualTo(1);
    }

    @Test
    void autoPicksTheFewestProcessesWhoseSharesEachFitOnesOpenFiles() {
        SuiteScaling.Fitted fitted = fittedHere("""
                  - name: wide
                    load: { type: open, ratePerSec: 1000 }
                    durationMs: 5000
                    generator: { processes: auto, maxConnections: 39601 }
                  - name: exact
                    load: { type: open, ratePerSec: 1000 }
                    durationMs: 5000
                    generator: { maxConnections: 39600 }
                """);

        // 19,800 connections per process here (20,000 files, 200 for the JVM): 39,600 is two shares, one more is three.
        assertThat(fitted.suite().scenarios()).extracting(s -> s.template().processes()).containsExactly(3, 2);
        assertThat(fitted.changes()).containsExactly(
                "wide: 3 generator processes for 39601 connections (generator.processes auto): one may open 20000 files"
                        + " here, less 200 for its JVM",
                "exact: 2 generator processes for 39600 connections (generator.processes auto): one may open 20000"
                        + " files here, less 200 for its JVM");
    }

    @Test
    void aProcessShareIsTheBudgetThePreflightChecksEachEngineThreadsSelectorIncluded() {
        SuiteScaling.Fitted fitted = fittedHere("""
                  - name: threaded
                    load: { type: open, ratePerSec: 1000 }
                    durationMs: 5000
                    generator: { threads: 4, maxConnections: 39589 }
                """);

        // 20,000 files less 200 for the JVM and 2 for each of the 3 further engine threads: 19,794 a process.
        assertThat(new ConnectionBudget(20_000, 28_232, 0, 4).files()).isEqualTo(19_794);
        assertThat(fitted.suite().scenarios().getFirst().template().processes()).isEqualTo(3);
        assertThat(fitted.changes()).containsExactly("threaded: 3 generator processes for 39589 connections"
                + " (generator.processes auto): one may open 20000 files here, less 206 for its JVM");
    }

    @Test
    void autoIsOneProcessSaidNowhereWhenNothingWasCut() {
        SuiteScaling.Fitted fitted = fittedHere("""
                  - name: small
                    load: { type: closed, connections: 1000 }
                    durationMs: 5000
                  - name: adaptive
                    load: { type: open, ratePerSec: 1000 }
                    durationMs: 5000
                """);

        assertThat(fitted.suite().scenarios()).extracting(s -> s.template().processes()).containsExactly(1, 1);
        assertThat(fitted.changes()).isEmpty();
    }

    @Test
    void aNumberOfProcessesIsKeptAsItIs() {
        HostLimits fewFiles = new HostLimits(10_200, 32_768, 60_999, 4_096);
        Suite suite = suite("""
                  - name: held
                    load: { type: max-concurrency, requests: 54000 }
                    durationMs: 5000
                    generator: { processes: 2, sourceAddresses: [127.0.0.1, 127.0.0.2] }
                """);

        SuiteScaling.Fitted fitted = SuiteScaling.fit(suite, 1, null, fewFiles);

        Suite.Scenario held = fitted.suite().scenarios().getFirst();
        assertThat(held.template().processes()).isEqualTo(2);
        assertThat(held.load()).as("the target's 9,200 files bind before two processes' 20,000 connections")
                .isEqualTo(new LoadModel.MaxConcurrency(9_200));
        assertThat(fitted.changes()).singleElement().asString().doesNotContain("generator process");
    }

    @Test
    void processesAreANumberOrAuto() {
        assertThatThrownBy(() -> suite("""
                  - name: s
                    load: { type: closed, connections: 1 }
                    durationMs: 1000
                    generator: { processes: many }
                """)).isInstanceOf(UserError.class).hasMessageContaining("generator.processes must be 1 to 64 or auto, got 'many'");
    }

    @Test
    void autoRefusesToSpreadConnectionsOverMoreProcessesThanAGeneratorMayStart() {
        HostLimits defaultShell = new HostLimits(1_024, 32_768, 60_999, 4_096);
        Suite suite = suite("""
                  - name: wide
                    load: { type: open, ratePerSec: 1000 }
                    durationMs: 5000
                    generator: { maxConnections: 1000000 }
                """);

        assertThatThrownBy(() -> SuiteScaling.fit(suite, 1, null, defaultShell)).isInstanceOf(UserError.class)
                .hasMessage("wide: 1000000 connections need 1214 generator processes here (one may open 1024 files), more"
                        + " than 64: raise the open-files limit (ulimit -n) or give fewer connections");
    }

    @Test
    void aSuiteWithoutTheRuleKeepsItsRates() {
        Suite plain = STUDY.withScenarios(STUDY.scenarios());
        SuiteScaling.Fitted fitted = SuiteScaling.fit(plain, 1, null, HERE);

        assertThat(fitted.factor()).isEqualTo(1);
        assertThat(((LoadModel.OpenLoop) fitted.suite().scenarios().get(1).load()).ratePerSec()).isEqualTo(1000);
    }

    /** A suite of {@code scenarios} fitted to one target CPU and the limits {@link #HERE}. */
    private static SuiteScaling.Fitted fittedHere(String scenarios) {
        return SuiteScaling.fit(suite(scenarios), 1, null, HERE);
    }

    /** A suite of target {@code a} with these scenarios (YAML list items, indented by two). */
    private static Suite suite(String scenarios) {
        return SuiteLoader.parse(("""
                name: fit
                targets: [a]
                scenarios:
                """ + scenarios).getBytes(StandardCharsets.UTF_8), "test");
    }
}
