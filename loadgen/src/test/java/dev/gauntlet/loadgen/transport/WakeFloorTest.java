package dev.gauntlet.loadgen.transport;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class WakeFloorTest {
    @Test
    void theGranularityIsTheLastSecondsHiccupP99AndAMillisecondAtMost() {
        WakeFloor floor = new WakeFloor();
        assertThat(floor.granularityNs()).as("before the first second: a wake per start").isZero();

        floor.measured(TimeUnit.MICROSECONDS.toNanos(180));
        assertThat(floor.granularityNs()).isEqualTo(TimeUnit.MICROSECONDS.toNanos(180));

        floor.measured(TimeUnit.MILLISECONDS.toNanos(7));
        assertThat(floor.granularityNs()).isEqualTo(WakeFloor.MAX_GRANULARITY_NS);

        floor.measured(TimeUnit.MICROSECONDS.toNanos(90));
        assertThat(floor.granularityNs()).as("a quieter second lowers it again").isEqualTo(TimeUnit.MICROSECONDS.toNanos(90));
    }

    @Test
    void theRunsGranularityIsTheCoarsestInForceOverItsMeasuredPhaseNotTheWarmUps() {
        WakeFloor floor = new WakeFloor();
        floor.measured(TimeUnit.MILLISECONDS.toNanos(5)); // a cold JVM's warm-up second
        floor.measured(TimeUnit.MICROSECONDS.toNanos(200));
        long measureStartNs = System.nanoTime();
        assertThat(floor.largestNs(measureStartNs, measureStartNs)).as("in force as it starts")
                .isEqualTo(TimeUnit.MICROSECONDS.toNanos(200));

        floor.measured(TimeUnit.MICROSECONDS.toNanos(350));
        floor.measured(TimeUnit.MICROSECONDS.toNanos(120));
        long measureEndNs = System.nanoTime();
        floor.measured(TimeUnit.MILLISECONDS.toNanos(3)); // after the measured phase

        assertThat(floor.largestNs(measureStartNs, measureEndNs)).isEqualTo(TimeUnit.MICROSECONDS.toNanos(350));
        assertThat(new WakeFloor().largestNs(0, Long.MAX_VALUE)).as("never measured: a wake per start").isZero();
    }
}
