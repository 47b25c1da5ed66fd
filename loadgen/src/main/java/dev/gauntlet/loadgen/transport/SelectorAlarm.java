package dev.gauntlet.loadgen.transport;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.channels.Selector;
import java.util.concurrent.locks.LockSupport;

/**
 * Wakes a selector at a time finer than the whole milliseconds {@link Selector#select(long)} takes:
 * a daemon thread parks until then and calls {@link Selector#wakeup()}. The event loop can then
 * wait for responses and for its next intended start at once, without polling.
 *
 * <pre>{@code
 * SelectorAlarm alarm = new SelectorAlarm(selector, "gauntlet-alarm");
 * alarm.set(wakeAtNs);                     // the event loop, before it blocks
 * selector.select(onReady, backupMs);      // returns on I/O, or at about wakeAtNs
 * alarm.close();
 * }</pre>
 *
 * <p>One setter thread, one sleeper. An alarm that rings after the loop woke for another reason
 * makes its next select return at once: a spurious turn, never a lost one.
 */
final class SelectorAlarm implements AutoCloseable {
    private static final long NONE = Long.MIN_VALUE;
    private static final VarHandle WAKE_AT_NS;

    static {
        try {
            WAKE_AT_NS = MethodHandles.lookup().findVarHandle(SelectorAlarm.class, "wakeAtNs", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final Selector selector;
    private final Thread thread;
    private volatile long wakeAtNs = NONE;
    private volatile boolean closed;

    SelectorAlarm(Selector selector, String threadName) {
        this.selector = selector;
        this.thread = Thread.ofPlatform().daemon().name(threadName).start(this::run);
    }

    /** The selector is woken at about {@code atNs} ({@link System#nanoTime()}), unless set again first. */
    void set(long atNs) {
        if (wakeAtNs == atNs) {
            return;
        }
        // Atomic, so an alarm the sleeper takes at this moment is seen as gone and the sleeper woken.
        long previousNs = (long) WAKE_AT_NS.getAndSet(this, atNs);
        if (previousNs == NONE || atNs < previousNs) {
            LockSupport.unpark(thread);
        }
    }

    private void run() {
        while (!closed) {
            long atNs = wakeAtNs;
            if (atNs == NONE) {
                LockSupport.park(this);
                continue;
            }
            long waitNs = atNs - System.nanoTime();
            if (waitNs > 0) {
                LockSupport.parkNanos(this, waitNs);
            } else if (WAKE_AT_NS.compareAndSet(this, atNs, NONE)) {
                selector.wakeup();
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        LockSupport.unpark(thread);
    }
}
