package dev.gauntlet.hiccup;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * The thread a meter of this package measures on ({@link HiccupMeter}, {@link CapacityLog}): a daemon platform thread
 * at normal priority, not above it, since a meter must feel the CPU the measuring threads get. Its loop runs while the
 * supplier it is handed says so; {@link #close()} ends it, interrupting a sleep, and waits a second at most.
 */
final class MeterThread implements AutoCloseable {
    private final Thread thread;
    private volatile boolean running = true;

    /** Starts {@code loop} at once on a thread named {@code name}; the loop runs while its argument is true. */
    MeterThread(String name, Consumer<BooleanSupplier> loop) {
        thread = Thread.ofPlatform().daemon().name(name).start(() -> loop.accept(this::running));
    }

    private boolean running() {
        return running;
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
        try {
            thread.join(TimeUnit.SECONDS.toMillis(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
