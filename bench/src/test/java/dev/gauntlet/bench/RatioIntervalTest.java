package dev.gauntlet.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class RatioIntervalTest {

    /** Ten pairs: P(Binomial(10, 1/2) <= 1) = 1.1 %, <= 2 is 5.5 %: the interval runs from the 2nd to the 9th. */
    @Test
    void tenPairsBoundTheirMedianByTheSecondAndTheNinthRatio() {
        RatioInterval r = RatioInterval.of(new double[] {1.00, 0.70, 0.96, 0.98, 1.02, 0.97, 1.01, 1.40, 0.99, 1.03});
        assertThat(r.low()).isEqualTo(0.96);
        assertThat(r.high()).isEqualTo(1.03);
        assertThat(r.ratio()).as("between the 5th and 6th, 0.99 and 1.00").isBetween(0.99, 1.00);
        assertThat(r.pairs()).isEqualTo(10);
    }

    /** An outlier moves the t-interval's ends with it; the median's interval stays where the other pairs are. */
    @Test
    void oneSpoiltPairMovesNeitherEnd() {
        double[] steady = {0.95, 0.96, 0.97, 0.98, 0.99, 1.00, 1.01, 1.02, 1.03};
        double[] spoilt = steady.clone();
        spoilt[8] = 3.0;
        assertThat(RatioInterval.of(spoilt).high()).isEqualTo(RatioInterval.of(steady).high());
        assertThat(RatioInterval.of(spoilt).low()).isEqualTo(RatioInterval.of(steady).low());
    }

    /** Six pairs are the fewest that bound a median at 95 %: the interval is then their whole range. */
    @Test
    void sixPairsSpanTheirRange() {
        RatioInterval r = RatioInterval.of(new double[] {0.9, 1.1, 1.0, 0.95, 1.05, 1.02});
        assertThat(r.low()).isEqualTo(0.9);
        assertThat(r.high()).isEqualTo(1.1);
        assertThat(r.relativeWidth()).isGreaterThan(0.1);
    }

    @Test
    void refusesTooFewPairsAndRatiosThatAreNotPositive() {
        assertThatThrownBy(() -> RatioInterval.of(new double[] {1, 1, 1, 1, 1})).hasMessageContaining("6 pairs");
        assertThatThrownBy(() -> RatioInterval.of(new double[] {1, 1, 1, 1, 1, Double.NaN})).hasMessageContaining("positive");
        assertThatThrownBy(() -> RatioInterval.of(new double[] {1, 1, 1, 1, 1, 0})).hasMessageContaining("positive");
    }
}
