package dev.gauntlet.loadgen;

import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.SteadyRule;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The warm-up's agreement rule on windows whose answer is known. */
class SteadyJudgeTest {
    private static final SteadyRule RULE = new SteadyRule(30_000, 3, 10);

    @Test
    void sixFlatWindowsWithAnIdleJitAgree() {
        assertThat(SteadyJudge.disagreement(windows(8_400, 8_600, 8_500, 8_450, 8_550, 8_500), RULE, false)).isNull();
    }

    @Test
    void aPlateauWhileTheTargetsCompilersAreStarvedIsNotSettled() {
        // spring-mvc-sync on one CPU: a flat 8,500/s with 700 methods queued for its JIT, its compile time still.
        List<RunSummary.Steadiness.Window> flat = windows(8_400, 8_600, 8_500, 8_450, 8_550, 8_500).stream()
                .map(w -> new RunSummary.Steadiness.Window(w.completedPerSec(), 5, 9, Double.NaN, 0.2, 1, 0, 700, 0, 0))
                .toList();

        assertThat(SteadyJudge.disagreement(flat, RULE, false))
                .isEqualTo("the target's JIT had up to 700 methods queued in the last 3 s");
    }

    @Test
    void aSlowClimbIsNotAPlateau() {
        // Each window within ±10 % of the last three's mean, yet that mean 7 % above the three before.
        assertThat(SteadyJudge.disagreement(windows(9_000, 9_200, 9_400, 9_600, 9_800, 10_000), RULE, false))
                .startsWith("completed/s moved from a mean of 9,200 to 9,800 over the last 6 s");
    }

    @Test
    void fewerWindowsThanTwiceTheRulesDoNotAgree() {
        assertThat(SteadyJudge.disagreement(windows(8_500, 8_500, 8_500), RULE, false))
                .isEqualTo("3 windows judged, the rule needs 6");
    }

    private static List<RunSummary.Steadiness.Window> windows(double... perSec) {
        return java.util.Arrays.stream(perSec)
                .mapToObj(rate -> new RunSummary.Steadiness.Window(rate, 5, 9, Double.NaN, 0.2, 1, 0, 2, 0, 0)).toList();
    }
}
