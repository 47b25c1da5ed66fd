package dev.gauntlet.loadgen.model;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadModel.InterArrival;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class ScheduleTest {
    private static final long SEED = 42;

    @Test
    void constantScheduleIsExact() {
        Schedule schedule = Schedule.of(new LoadModel.OpenLoop(1_000, InterArrival.CONSTANT), SEED);
        for (long k = 0; k < 10_000; k++) {
            assertThat(schedule.nextOffsetNs()).isEqualTo(k * 1_000_000);
        }
    }

    @Test
    void constantScheduleDoesNotDriftAtRatesThatDoNotDivideASecond() {
        Schedule schedule = new ConstantRateSchedule(3);
        long last = 0;
        for (int k = 0; k <= 3_000; k++) {
            last = schedule.nextOffsetNs();
        }
        assertThat(last).isEqualTo(1_000_000_000_000L);
    }

    @Test
    void exponentialScheduleHasTheMeanGap() {
        double[] gapsNs = exponentialGapsNs(1_000, 100_000);
        double meanNs = Arrays.stream(gapsNs).average().orElseThrow();
        // Standard error of the mean is 1 ms / sqrt(100k) = 0.3 %; 1.5 % is five of them.
        assertThat(meanNs).isCloseTo(1_000_000, within(15_000.0));
    }

    @Test
    void exponentialGapsPassKolmogorovSmirnov() {
        int n = 20_000;
        double rateNs = 5_000 / 1e9;
        double[] gapsNs = exponentialGapsNs(5_000, n);
        Arrays.sort(gapsNs);
        double d = 0;
        for (int i = 0; i < n; i++) {
            double cdf = 1 - Math.exp(-rateNs * gapsNs[i]);
            d = Math.max(d, Math.max(cdf - (double) i / n, (double) (i + 1) / n - cdf));
        }
        // Critical value at a significance level of 0.001: 1.95 / sqrt(n).
        assertThat(d).isLessThan(1.95 / Math.sqrt(n));
    }

    @Test
    void exponentialScheduleRepeatsWithItsSeed() {
        Schedule a = new ExponentialSchedule(100, 7);
        Schedule b = new ExponentialSchedule(100, 7);
        Schedule c = new ExponentialSchedule(100, 8);
        long[] first = new long[100];
        boolean differs = false;
        for (int i = 0; i < first.length; i++) {
            long offset = a.nextOffsetNs();
            assertThat(b.nextOffsetNs()).isEqualTo(offset);
            differs |= c.nextOffsetNs() != offset;
        }
        assertThat(differs).isTrue();
    }

    @ParameterizedTest
    @ValueSource(doubles = {1, 10, 1_000, 20_000, 100_000})
    void bothSchedulesProduceTheRightCountInASimulatedClock(double ratePerSec) {
        long expected = 10_000;
        long durationNs = (long) (expected / ratePerSec * 1e9);
        assertThat(countBefore(new ConstantRateSchedule(ratePerSec), durationNs)).isEqualTo(expected);
        // Poisson count: standard deviation sqrt(10k) = 100; allow four of them.
        assertThat(countBefore(new ExponentialSchedule(ratePerSec, SEED), durationNs)).isCloseTo(expected, within(400L));
    }

    @Test
    void offsetsNeverDecrease() {
        Schedule schedule = new ExponentialSchedule(100_000, SEED);
        long previous = 0;
        for (int i = 0; i < 100_000; i++) {
            long offset = schedule.nextOffsetNs();
            assertThat(offset).isGreaterThanOrEqualTo(previous);
            previous = offset;
        }
    }

    @Test
    void aRampOffersHalfTheFullRatesRequestsOverItsLengthRisingLinearlyThenTheFullRate() {
        // 1,000/s constant, ramped over 4 s: rate t/4 × 1,000 per second, so by t the ramp offered 125 t² requests.
        Schedule ramped = Schedule.of(new LoadModel.OpenLoop(1_000, InterArrival.CONSTANT), SEED, 4_000);
        long[] counts = new long[6];
        long offsetNs;
        while ((offsetNs = ramped.nextOffsetNs()) < 6_000_000_000L) {
            counts[(int) (offsetNs / 1_000_000_000L)]++;
        }
        // Seconds 0-1, 1-2, 2-3, 3-4: 125 × (1, 3, 5, 7); then 1,000 a second.
        assertThat(counts).containsExactly(125, 375, 625, 875, 1_000, 1_000);
    }

    @Test
    void noRampIsTheScheduleItself() {
        LoadModel.OpenLoop model = new LoadModel.OpenLoop(1_000, InterArrival.EXPONENTIAL);
        Schedule plain = Schedule.of(model, SEED);
        Schedule unramped = Schedule.of(model, SEED, 0);
        for (int i = 0; i < 1_000; i++) {
            assertThat(unramped.nextOffsetNs()).isEqualTo(plain.nextOffsetNs());
        }
    }

    private static long countBefore(Schedule schedule, long durationNs) {
        long count = 0;
        while (schedule.nextOffsetNs() < durationNs) {
            count++;
        }
        return count;
    }

    private static double[] exponentialGapsNs(double ratePerSec, int n) {
        Schedule schedule = new ExponentialSchedule(ratePerSec, SEED);
        double[] gaps = new double[n];
        long previous = 0;
        for (int i = 0; i < n; i++) {
            long offset = schedule.nextOffsetNs();
            gaps[i] = offset - previous;
            previous = offset;
        }
        return gaps;
    }
}
