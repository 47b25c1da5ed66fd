package dev.gauntlet.hiccup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.Pipe;

/**
 * A fixed piece of work, timed: how fast this CPU runs code and system calls right now. Half a
 * millisecond on the machine it was sized on: arithmetic that stays in registers, then a byte
 * written to a pipe and read back, a hundred times, since one host ran system calls twice as fast
 * as another at the same arithmetic speed. No memory: a chain of loads through 4 MB, 100 ms after
 * the last, found every cache cold in this virtual machine and took 0.9 µs a load, varying by a
 * quarter from second to second on its own; a neighbour that thrashes the shared cache is not seen.
 *
 * <pre>{@code
 * CapacityProbe probe = new CapacityProbe();
 * probe.warmUp();                  // on the thread that will time it: the JIT compiles the unit
 * long ns = probe.timeUnitNs();    // the same work each call: more ns, less capacity
 * }</pre>
 *
 * <p>Timed right after a sleep, the probe's thread is a waking sleeper, which the scheduler runs at
 * once and seldom preempts within half a millisecond: the unit's time is the CPU's speed, not the
 * process's own load on it. One thread uses a probe at a time.
 */
final class CapacityProbe implements AutoCloseable {
    /** Iterations of the arithmetic: about 0.3 ms on a 2.6 GHz Xeon of 2026. */
    static final int ARITHMETIC_ITERATIONS = 150_000;
    /** Pipe round trips (a write and a read each): about 0.2 ms there. */
    static final int SYSCALL_ROUND_TRIPS = 100;
    /** Units run before the first timed one, for the JIT to compile the unit. */
    private static final int WARM_UP_UNITS = 30;

    private final Pipe pipe;
    private final ByteBuffer oneByte = ByteBuffer.allocateDirect(1);
    /** Keeps the arithmetic's result alive, so the JIT cannot drop the loop. */
    private long sink;

    CapacityProbe() {
        try {
            pipe = Pipe.open();
        } catch (IOException e) {
            throw new UncheckedIOException("the capacity probe could not open a pipe", e);
        }
    }

    /** Runs the unit untimed until the JIT has compiled it. */
    void warmUp() {
        for (int i = 0; i < WARM_UP_UNITS; i++) {
            timeUnitNs();
        }
    }

    /**
     * Runs the unit once; its wall-clock time in nanoseconds. The pipe is an interruptible channel:
     * an interrupt of the calling thread closes it, and every later call fails.
     */
    long timeUnitNs() {
        long startNs = System.nanoTime();
        sink += arithmetic(sink);
        try {
            for (int i = 0; i < SYSCALL_ROUND_TRIPS; i++) {
                oneByte.clear();
                pipe.sink().write(oneByte);
                oneByte.clear();
                pipe.source().read(oneByte);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("the capacity probe's pipe failed", e);
        }
        return System.nanoTime() - startNs;
    }

    /** A xorshift chain: each step needs the last, so no iteration can be skipped or vectorised. */
    private static long arithmetic(long seed) {
        long x = seed | 1;
        for (int i = 0; i < ARITHMETIC_ITERATIONS; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            x += i;
        }
        return x;
    }

    @Override
    public void close() {
        try {
            pipe.sink().close();
            pipe.source().close();
        } catch (IOException e) {
            // Closing a pipe of our own: nothing to save.
        }
    }
}
