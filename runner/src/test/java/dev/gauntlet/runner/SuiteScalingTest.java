package dev.gauntlet.runner;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.loadgen.HostLimits;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The scaling rule and the connection ceiling, against this machine's limits written out. */
class SuiteScalingTest {
    /** 20,000 open files per process and ports 32768–60999, as here. */
    private static final HostLimits HERE = new HostLimits(20_000, 40, 32_768, 60_999, 4_096);

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
                        + " 1000 for its JVM");
    }

    @Test
    void scaleOverridesTheRule() {
        SuiteScaling.Fitted fitted = SuiteScaling.fit(STUDY, 1, 2.0, HERE);

        assertThat(((LoadModel.OpenLoop) fitted.suite().scenarios().get(1).load()).ratePerSec()).isEqualTo(2000);
        assertThat(fitted.changes().getFirst()).isEqualTo("rates × 2, as --scale says");
    }

    @Test
    void oneGeneratorProcessOnOneAddressIsBoundByItsOwnFilesThenByPorts() {
        SuiteScaling.Ceiling oneProcess = SuiteScaling.Ceiling.of(Suite.GeneratorSettings.DEFAULTS, HERE);
        assertThat(oneProcess.connections()).isEqualTo(19_000);

        HostLimits manyFiles = new HostLimits(1_000_000, 40, 32_768, 60_999, 4_096);
        SuiteScaling.Ceiling ports = SuiteScaling.Ceiling.of(Suite.GeneratorSettings.DEFAULTS, manyFiles);
        assertThat(ports.connections()).isEqualTo(28_232);
        assertThat(ports.reason()).contains("1 source address(es) × 28232 ephemeral ports");
    }

    @Test
    void aSuiteWithoutTheRuleKeepsItsRates() {
        Suite plain = STUDY.withScenarios(STUDY.scenarios());
        SuiteScaling.Fitted fitted = SuiteScaling.fit(plain, 1, null, HERE);

        assertThat(fitted.factor()).isEqualTo(1);
        assertThat(((LoadModel.OpenLoop) fitted.suite().scenarios().get(1).load()).ratePerSec()).isEqualTo(1000);
    }
}
