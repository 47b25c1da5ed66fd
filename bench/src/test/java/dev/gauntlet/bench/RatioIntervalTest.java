package dev.gauntlet.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class RatioIntervalTest {

    /** Ratios of 1/2 and 2 are a geometric mean of 1; their logs ±ln 2, sd ln2·√2, t(0.975, 1) = 12.706. */
    @Test
    void theIntervalIsATIntervalOnTheLogarithms() {
        RatioInterval r = RatioInterval.of(new double[] {0.5, 2.0});
        assertThat(r.ratio()).isCloseTo(1.0, within(1e-12));
        double halfWidth = 12.7062 * Math.log(2) * Math.sqrt(2) / Math.sqrt(2);
        assertThat(Math.log(r.high())).isCloseTo(halfWidth, within(1e-3));
        assertThat(Math.log(r.low())).isCloseTo(-halfWidth, within(1e-3));
        assertThat(r.pairs()).isEqualTo(2);
    }

    @Test
    void identicalPairsGiveAnIntervalOfNoWidth() {
        RatioInterval r = RatioInterval.of(new double[] {0.9, 0.9, 0.9});
        assertThat(r.low()).isCloseTo(0.9, within(1e-12));
        assertThat(r.high()).isCloseTo(0.9, within(1e-12));
        assertThat(r.relativeWidth()).isCloseTo(0, within(1e-12));
    }

    /** Ten pairs 5 % apart: an interval a few percent wide around their geometric mean, narrower with more pairs. */
    @Test
    void morePairsNarrowTheInterval() {
        double[] ten = {0.95, 1.0, 1.05, 0.95, 1.0, 1.05, 0.95, 1.0, 1.05, 1.0};
        double[] four = {0.95, 1.0, 1.05, 1.0};
        assertThat(RatioInterval.of(ten).relativeWidth()).isLessThan(RatioInterval.of(four).relativeWidth()).isLessThan(0.1);
        assertThat(RatioInterval.of(ten).low()).isLessThan(1.0);
        assertThat(RatioInterval.of(ten).high()).isGreaterThan(1.0);
    }

    @Test
    void refusesFewerThanTwoPairsAndRatiosThatAreNotPositive() {
        assertThatThrownBy(() -> RatioInterval.of(new double[] {1.0})).hasMessageContaining("two pairs");
        assertThatThrownBy(() -> RatioInterval.of(new double[] {1.0, Double.NaN})).hasMessageContaining("positive");
        assertThatThrownBy(() -> RatioInterval.of(new double[] {1.0, 0})).hasMessageContaining("positive");
    }
}
