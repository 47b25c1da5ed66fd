package dev.gauntlet.targets.dummy;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

import java.util.concurrent.TimeUnit;

/**
 * The dummy with a known service cost: its subclass's {@code SERVICE_MICROS} of CPU spun on its selector thread
 * before each hello answer, at most 1 s ÷ that per second per selector thread. Against the dummy it is a difference whose size
 * is known, which a comparison must find. One request at a time its round trip is that much longer and, on a
 * virtual machine, a little more: the client waits longer for each answer, and waking from a longer wait may cost the
 * host an exit the dummy's short wait never paid. Two spins ({@link Spin50DummyServer}, {@link Spin100DummyServer}) both
 * pay it, so their difference is the spins' alone.
 */
public abstract sealed class SpinningDummyServer implements HelloServer permits Spin50DummyServer, Spin100DummyServer {
    private final DummyServer dummy;

    SpinningDummyServer(long serviceMicros) {
        this.dummy = new DummyServer(TimeUnit.MICROSECONDS.toNanos(serviceMicros));
    }

    @Override
    public final int start(TargetSettings settings, RequestStats stats) throws Exception {
        return dummy.start(settings, stats);
    }

    @Override
    public final void stop() throws Exception {
        dummy.stop();
    }
}
