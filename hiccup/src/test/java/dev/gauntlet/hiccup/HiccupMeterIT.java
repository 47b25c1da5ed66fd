package dev.gauntlet.hiccup;

import org.HdrHistogram.Histogram;
import org.HdrHistogram.HistogramLogReader;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The meter on a real thread: one value per expected wake-up, and a log HdrHistogram's own reader reads. */
@Tag("alone") // asserts samples per elapsed millisecond
class HiccupMeterIT {

    @Test
    void recordsOneValuePerExpectedWakeUpStallsIncluded() {
        try (HiccupMeter meter = HiccupMeter.start()) {
            meter.intervalHistogram();
            long startNs = System.nanoTime();
            Histogram total = new Histogram(1, HiccupMeter.HIGHEST_TRACKABLE_NS, 3);
            while (total.getTotalCount() < 200 && System.nanoTime() - startNs < TimeUnit.SECONDS.toNanos(10)) {
                total.add(meter.intervalHistogram());
                Thread.onSpinWait();
            }
            double elapsedMs = (System.nanoTime() - startNs) / 1e6;

            assertThat(total.getTotalCount()).isGreaterThanOrEqualTo(200);
            // Each value stands for one 1 ms wake-up, a stall's missed wake-ups included: never more values than ms.
            assertThat((double) total.getTotalCount()).isLessThanOrEqualTo(elapsedMs + 2);
            assertThat(total.getMaxValue()).isLessThan(TimeUnit.SECONDS.toNanos(10));
        }
    }

    @Test
    void theLogHoldsTheWindowSinceTheLastReset() {
        try (HiccupLog log = HiccupLog.start()) {
            long resetEpochMs = System.currentTimeMillis();
            log.reset();
            Histogram first = readAll(log.text("test"));
            long afterMs = System.currentTimeMillis();
            while (System.currentTimeMillis() - afterMs < 20) {
                Thread.onSpinWait();
            }
            String text = log.text("test");

            assertThat(text).startsWith("#platform hiccups").contains("test");
            Histogram all = readAll(text);
            assertThat(all.getTotalCount()).isGreaterThan(first.getTotalCount());
            assertThat(all.getStartTimeStamp()).isGreaterThanOrEqualTo(resetEpochMs);
        }
    }

    private static Histogram readAll(String log) {
        HistogramLogReader reader = new HistogramLogReader(new ByteArrayInputStream(log.getBytes(StandardCharsets.UTF_8)));
        Histogram sum = new Histogram(1, HiccupMeter.HIGHEST_TRACKABLE_NS, 3);
        sum.setStartTimeStamp(Long.MAX_VALUE);
        int intervals = 0;
        for (Histogram h = (Histogram) reader.nextIntervalHistogram(); h != null; h = (Histogram) reader.nextIntervalHistogram()) {
            sum.add(h);
            sum.setStartTimeStamp(Math.min(sum.getStartTimeStamp(), h.getStartTimeStamp()));
            intervals++;
        }
        assertThat(intervals).isPositive();
        return sum;
    }
}
