package dev.gauntlet.loadgen.measure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** A thread's demand, measured on a real thread that spins. */
@Timeout(30)
class ThreadDemandTest {
    @Test
    void whatTheThreadSpentPollingIsNotItsDemand() {
        AtomicLong pollingNs = new AtomicLong();
        ThreadDemand polled = ThreadDemand.ofCurrentThread(pollingNs::get);
        ThreadDemand whole = ThreadDemand.ofCurrentThread(() -> 0);
        polled.mark();
        whole.mark();

        // 200 ms spent spinning, all of it said to be polling; then as long spinning as work.
        long startNs = System.nanoTime();
        spinUntil(startNs + TimeUnit.MILLISECONDS.toNanos(200));
        pollingNs.set(System.nanoTime() - startNs);
        spinUntil(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(200));

        ThreadDemand.Share withoutPolling = polled.share();
        ThreadDemand.Share all = whole.share();
        // The whole share less the polled half of the window: what a second CPU's neighbours took lowers both alike.
        assertThat(withoutPolling.runningPercent()).isLessThan(all.runningPercent() - 30);
        assertThat(withoutPolling.runningPercent()).isLessThanOrEqualTo(55);
    }

    private static void spinUntil(long untilNs) {
        while (System.nanoTime() < untilNs) {
            Thread.onSpinWait();
        }
    }
}
