package dev.gauntlet.targets.dummy;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

import java.util.concurrent.TimeUnit;

/**
 * The dummy with a known service cost: {@value #SERVICE_MICROS} µs of CPU spun on its selector thread before
 * each hello answer. Against the dummy it is a difference whose size is known, which a comparison must find: a
 * round trip {@value #SERVICE_MICROS} µs longer one request at a time, and at most 1 s ÷ {@value #SERVICE_MICROS}
 * µs = 20,000 answers per second per selector thread.
 */
public final class SpinningDummyServer implements HelloServer {
    public static final long SERVICE_MICROS = 50;

    private final DummyServer dummy = new DummyServer(TimeUnit.MICROSECONDS.toNanos(SERVICE_MICROS));

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        return dummy.start(settings, stats);
    }

    @Override
    public void stop() throws Exception {
        dummy.stop();
    }
}
