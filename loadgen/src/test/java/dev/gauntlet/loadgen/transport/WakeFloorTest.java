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
}
