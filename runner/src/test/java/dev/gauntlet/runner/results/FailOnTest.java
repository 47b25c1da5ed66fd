package dev.gauntlet.runner.results;

import dev.gauntlet.runner.base.UserError;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FailOnTest {
    @Test
    void aLatencyLimitHoldsUpToItsGrowthAndAnyImprovement() {
        FailOn.Threshold p99 = FailOn.parse("p99=+10%").thresholds().getFirst();
        assertThat(p99.holds(20, 22)).isTrue();
        assertThat(p99.holds(20, 22.2)).isFalse();
        assertThat(p99.holds(20, 5)).isTrue();
    }

    @Test
    void aRateLimitHoldsUpToItsFall() {
        FailOn.Threshold rate = FailOn.parse("rate=-5%").thresholds().getFirst();
        assertThat(rate.holds(1000, 951)).isTrue();
        assertThat(rate.holds(1000, 949)).isFalse();
        assertThat(rate.holds(1000, 2000)).isTrue();
    }

    @Test
    void anAbsoluteLimitCountsInTheFiguresUnitAndAZeroBaseHasNoPercent() {
        FailOn failOn = FailOn.parse("errors=+0, max=+5");
        assertThat(failOn.thresholds().get(0).holds(0, 0)).isTrue();
        assertThat(failOn.thresholds().get(0).holds(0, 1)).isFalse();
        assertThat(failOn.thresholds().get(1).holds(100, 105)).isTrue();
        assertThat(failOn.thresholds().get(1).holds(100, 105.1)).isFalse();
        assertThat(FailOn.parse("errors=+10%").thresholds().getFirst().holds(0, 1)).as("any error after none").isFalse();
        assertThat(failOn).hasToString("errors=+0,max=+5");
    }

    @Test
    void changeGatesOnTheTrendAloneOrBesideThresholds() {
        FailOn alone = FailOn.parse("change");
        assertThat(alone.onChange()).isTrue();
        assertThat(alone.thresholds()).isEmpty();
        assertThat(alone.gates()).as("a gate with no threshold").isTrue();
        assertThat(alone.allowing(true, List.of()).onChange()).as("kept when rows are let through").isTrue();
        FailOn beside = FailOn.parse("p99=+10%, Change");
        assertThat(beside.onChange()).isTrue();
        assertThat(beside).hasToString("p99=+10%,change");
        assertThat(FailOn.parse("p99=+10%").onChange()).isFalse();
    }

    @Test
    void aLimitInTheBetterDirectionOrUnreadableIsAUserError() {
        assertThatThrownBy(() -> FailOn.parse("p99=-10%")).isInstanceOf(UserError.class).hasMessageContaining("p99=+10%");
        assertThatThrownBy(() -> FailOn.parse("rate=+5%")).isInstanceOf(UserError.class).hasMessageContaining("rate=-5%");
        assertThatThrownBy(() -> FailOn.parse("p99=10%")).isInstanceOf(UserError.class).hasMessageContaining("METRIC=+N%");
        assertThatThrownBy(() -> FailOn.parse("p42=+1%")).isInstanceOf(UserError.class).hasMessageContaining("no metric 'p42'");
    }

    @Test
    void theGateLetsThroughOnlyWhatItIsToldAndNeverAFailedRun() {
        FailOn failOn = FailOn.parse("p99=+10%");
        assertThat(failOn.allowMissing()).isFalse();
        assertThat(failOn.allowedVerdicts()).isEmpty();
        FailOn relaxed = failOn.allowing(true, List.of("Platform-Noisy", " not-steady"));
        assertThat(relaxed.allowMissing()).isTrue();
        assertThat(relaxed.allowedVerdicts()).containsExactlyInAnyOrder("platform-noisy", "not-steady");
        assertThat(relaxed).as("the thresholds as given").hasToString("p99=+10%");

        assertThatThrownBy(() -> failOn.allowing(false, List.of("ok"))).isInstanceOf(UserError.class).hasMessageContaining("no verdict 'ok'");
        assertThatThrownBy(() -> failOn.allowing(false, List.of("-"))).isInstanceOf(UserError.class)
                .hasMessageContaining("a row that failed always fails the gate");
        assertThatThrownBy(() -> FailOn.none().allowing(true, List.of())).isInstanceOf(UserError.class)
                .hasMessageContaining("--allow-missing relaxes the gate of --fail-on");
        assertThat(FailOn.none().allowing(false, List.of()).gates()).isFalse();
    }
}
