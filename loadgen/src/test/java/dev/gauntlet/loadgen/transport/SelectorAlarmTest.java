package dev.gauntlet.loadgen.transport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The alarm against a real selector with nothing registered: only the alarm can end a select. */
@Timeout(30)
class SelectorAlarmTest {
    /** Far longer than the test's timeout: a select that returns was woken by the alarm. */
    private static final long BACKUP_MS = TimeUnit.MINUTES.toMillis(10);

    @Test
    void wakesASelectorBlockedFarLonger() throws Exception {
        try (Selector selector = Selector.open(); SelectorAlarm alarm = new SelectorAlarm(selector, "test-alarm")) {
            long askNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2);
            alarm.set(askNs);
            selector.select(BACKUP_MS);
            assertThat(System.nanoTime()).isGreaterThanOrEqualTo(askNs);

            // Rung once, set again: it rings again.
            long againNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1);
            alarm.set(againNs);
            selector.select(BACKUP_MS);
            assertThat(System.nanoTime()).isGreaterThanOrEqualTo(againNs);
        }
    }

    @Test
    void anEarlierTimeOverridesALaterOne() throws Exception {
        try (Selector selector = Selector.open(); SelectorAlarm alarm = new SelectorAlarm(selector, "test-alarm")) {
            alarm.set(System.nanoTime() + TimeUnit.HOURS.toNanos(1));
            long askNs = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1);
            alarm.set(askNs);
            selector.select(BACKUP_MS);
            assertThat(System.nanoTime()).isGreaterThanOrEqualTo(askNs);
        }
    }
}
