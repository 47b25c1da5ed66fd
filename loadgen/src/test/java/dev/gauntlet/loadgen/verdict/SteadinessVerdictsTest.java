package dev.gauntlet.loadgen.verdict;

import dev.gauntlet.api.Capacity;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.Verdict;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The not-steady rules of {@link Verdicts}: the measured phase's windows drift, or the warm-up never settled; and a
 * drift the machine's capacity explains, which is the platform's.
 */
class SteadinessVerdictsTest {

    @Test
    void aClosedLoopWhoseThroughputClimbsBetweenItsHalvesIsNotSteady() {
        ConstructedRun run = closedLoopMeasured(10_000, 10_100, 11_500, 11_600);
        RunSummary judged = run.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.NOT_STEADY);
        assertThat(judged.evidence().getFirst()).startsWith("its throughput moved from 10,050/s in the first half of the "
                + "measured phase to 11,550/s in the second");
    }

    @Test
    void aClosedLoopMovingWithinItsToleranceAndAStallIsSteady() {
        // 9 % apart: within the 10 % tolerance; 12 % apart with a 50 ms stall in a window: within 10 % + 5 %.
        ConstructedRun within = closedLoopMeasured(10_000, 10_000, 10_900, 10_900);
        ConstructedRun stalled = new ConstructedRun();
        stalled.spec = ConstructedRun.CLOSED;
        RunSummary.Steadiness.Window stall = new RunSummary.Steadiness.Window(8_800, 5, 9, Double.NaN, 0.2, 50, 0, 0, 0, 0);
        stalled.steadiness = measured(stall, closedWindow(8_800), closedWindow(10_000), closedWindow(10_000));

        assertThat(within.judge().verdict()).isEqualTo(Verdict.OK);
        assertThat(stalled.judge().verdict()).isEqualTo(Verdict.OK);
    }

    @Test
    void anOpenLoopsMedianMovingWithinThePlatformsNoiseIsSteadyBeyondItNot() {
        // 0.4 ms to 1.2 ms: three times over, yet within the 1 ms allowance and twice the 0.3 ms wake-up p99.
        ConstructedRun noisy = openLoopMeasured(0.4, 0.4, 1.2, 1.2);
        ConstructedRun drifting = openLoopMeasured(2, 2, 6, 6);

        assertThat(noisy.judge().verdict()).isEqualTo(Verdict.OK);
        assertThat(drifting.judge().verdict()).isEqualTo(Verdict.NOT_STEADY);
        assertThat(drifting.judge().evidence().getFirst()).startsWith("its median response time moved from 2.00 ms");
    }

    @Test
    void aTargetThatFellBehindIsOverloadedWhateverItsDrift() {
        // The study's mixed case: a collapsing target's latency climbs too; the overload is the finding, the drift a note.
        ConstructedRun run = new ConstructedRun();
        run.sustainedRatePerSec = 600.0;
        run.steadiness = measured(openWindow(50), openWindow(200), openWindow(600), openWindow(900));
        RunSummary judged = run.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(judged.evidence()).anyMatch(sentence -> sentence.startsWith("its median response time moved"));
    }

    @Test
    void aThroughputThatFellWithTheTargetCpusCapacityIsThePlatforms() {
        // A quarter of the target's CPU taken from the third second on: the throughput falls by as much.
        ConstructedRun run = closedLoopMeasured(10_000, 10_000, 7_600, 7_400);
        run.capacity = new Capacity(course(1_900, 1_900, 1_420, 1_430), course(1_900, 1_910, 1_890, 1_900));
        RunSummary judged = run.judge();

        assertThat(judged.verdict()).as("%s", judged.evidence()).isEqualTo(Verdict.PLATFORM_NOISY);
        assertThat(judged.evidence().getFirst()).startsWith("its throughput moved from 10,000/s in the first half")
                .endsWith("and the capacity of the target's CPUs with it, from 1,900 to 1,425 (-25 %): the machine's, "
                        + "not the target's");
    }

    @Test
    void aThroughputThatFellWhileTheCapacityHeldIsNotSteady() {
        // The target's own ramp: its CPUs kept their capacity.
        ConstructedRun run = closedLoopMeasured(10_000, 10_000, 7_600, 7_400);
        run.capacity = new Capacity(course(1_900, 1_900, 1_890, 1_910), course(1_900, 1_910, 1_890, 1_900));
        RunSummary judged = run.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.NOT_STEADY);
        assertThat(judged.evidence().getFirst()).endsWith("the capacity of the target's CPUs went from 1,900 to 1,900 "
                + "(+0 %), the generator's from 1,905 to 1,895 (-1 %), which does not explain it: not a steady state");
    }

    @Test
    void aDropFarBeyondTheCapacitysOwnIsNotSteady() {
        // Mixed causes: the CPUs lost a tenth while the throughput lost 40 %: the rest is the target's.
        ConstructedRun run = closedLoopMeasured(10_000, 10_000, 6_000, 6_000);
        run.capacity = new Capacity(course(1_900, 1_900, 1_710, 1_710), Capacity.Course.UNKNOWN);

        assertThat(run.judge().verdict()).isEqualTo(Verdict.NOT_STEADY);
    }

    @Test
    void aCapacityThatMovedByItsOwnNoiseDoesNotExplainADriftJustPastTheAllowance() {
        // netty at 2026-12-06 05:09: +12 % against a ±12 % allowance, the generator's capacity +4 %: within the
        // allowance once scaled, yet the capacity predicts a third of the move. The target's.
        ConstructedRun run = closedLoopMeasured(79_530, 79_530, 89_355, 89_355);
        run.capacity = new Capacity(course(2_300, 2_300, 2_290, 2_290), course(2_143, 2_143, 2_227, 2_227));

        assertThat(run.judge().verdict()).isEqualTo(Verdict.NOT_STEADY);
    }

    @Test
    void anOpenLoopsMedianThatRoseAsTheCapacityFellIsThePlatforms() {
        // 4 ms of work becomes 6 ms on CPUs with two thirds of their capacity.
        ConstructedRun run = openLoopMeasured(4, 4, 6, 6);
        run.capacity = new Capacity(course(1_800, 1_800, 1_200, 1_200), course(1_800, 1_800, 1_800, 1_800));
        RunSummary judged = run.judge();

        assertThat(judged.verdict()).as("%s", judged.evidence()).isEqualTo(Verdict.PLATFORM_NOISY);
        assertThat(judged.evidence().getFirst()).startsWith("its median response time moved from 4.00 ms")
                .contains("from 1,800 to 1,200 (-33 %)");
    }

    @Test
    void aWarmUpThatReachedItsMaximumUnsettledIsNotSteady() {
        ConstructedRun run = new ConstructedRun();
        run.spec = ConstructedRun.CLOSED;
        List<RunSummary.Steadiness.Window> climbing = List.of(closedWindow(1_000), closedWindow(2_000), closedWindow(3_000),
                closedWindow(4_000));
        run.steadiness = new RunSummary.Steadiness(new dev.gauntlet.api.SteadyRule(5_000, 2, 10), "rule", 5_000, false,
                false, climbing, List.of());
        RunSummary judged = run.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.NOT_STEADY);
        assertThat(judged.evidence().getFirst()).isEqualTo("the warm-up did not settle within its maximum of 5 s: "
                + "completed/s from 3,000 to 4,000 in the last 2 s, beyond ±350 of their mean 3,500");
    }

    @Test
    void aWarmUpEndedBecauseTheTargetFellBehindSaysSoBesideTheOverload() {
        ConstructedRun run = new ConstructedRun();
        run.sustainedRatePerSec = 700.0;
        run.steadiness = new RunSummary.Steadiness(new dev.gauntlet.api.SteadyRule(15_000, 3, 10), "rule", 9_000, false,
                true, List.of(), List.of());
        RunSummary judged = run.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(judged.evidence()).contains("the warm-up ended unsettled after 9 s: the target completed under 90 % "
                + "of the offered rate in each of its last 6 s, and a longer warm-up would only have lengthened its backlog");
    }

    private static Capacity.Course course(double... perWindow) {
        return new Capacity.Course(Arrays.stream(perWindow).boxed().toList(), 0, 0);
    }

    /** The constructed closed loop, its measured phase in windows that completed {@code perSec} each. */
    private static ConstructedRun closedLoopMeasured(double... perSec) {
        ConstructedRun run = new ConstructedRun();
        run.spec = ConstructedRun.CLOSED;
        run.steadiness = measured(Arrays.stream(perSec).mapToObj(SteadinessVerdictsTest::closedWindow)
                .toArray(RunSummary.Steadiness.Window[]::new));
        return run;
    }

    /** The constructed open loop, its measured phase in windows of the median response times {@code p50Ms}. */
    private static ConstructedRun openLoopMeasured(double... p50Ms) {
        ConstructedRun run = new ConstructedRun();
        run.steadiness = measured(Arrays.stream(p50Ms).mapToObj(SteadinessVerdictsTest::openWindow)
                .toArray(RunSummary.Steadiness.Window[]::new));
        return run;
    }

    private static RunSummary.Steadiness measured(RunSummary.Steadiness.Window... windows) {
        return new RunSummary.Steadiness(null, "fixed", 2_000, null, false, List.of(), List.of(windows));
    }

    private static RunSummary.Steadiness.Window closedWindow(double perSec) {
        return new RunSummary.Steadiness.Window(perSec, 5, 9, Double.NaN, 0.2, 1, 0, 0, 0, 0);
    }

    private static RunSummary.Steadiness.Window openWindow(double p50Ms) {
        return new RunSummary.Steadiness.Window(1_000, p50Ms, 2 * p50Ms, Double.NaN, 0.3, 1, 0, 0, 0, 0);
    }
}
