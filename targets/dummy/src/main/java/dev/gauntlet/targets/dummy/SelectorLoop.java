package dev.gauntlet.targets.dummy;

import dev.gauntlet.targets.RequestStats;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.Comparator;
import java.util.List;
import java.util.PriorityQueue;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;

/** One selector thread: its connections' reads and writes, and the timers of their waits. */
final class SelectorLoop implements Runnable {
    /** How long accepting pauses after a failed accept (out of file descriptors), instead of spinning. */
    private static final long ACCEPT_PAUSE_MS = 10;

    private record Timer(long deadlineNs, Runnable action) {
    }

    private final RequestStats stats;
    private final boolean tcpNoDelay;
    /** CPU time spun on this thread before each hello answer: 0 for the baseline. */
    private final long serviceNanos;
    private final Selector selector;
    private final Queue<SocketChannel> adopted = new ConcurrentLinkedQueue<>();
    private final PriorityQueue<Timer> timers = new PriorityQueue<>(Comparator.comparingLong(Timer::deadlineNs));
    private List<SelectorLoop> acceptFor;
    private int nextLoop;
    private volatile boolean running = true;

    SelectorLoop(RequestStats stats, boolean tcpNoDelay, long serviceNanos) throws IOException {
        this.stats = stats;
        this.tcpNoDelay = tcpNoDelay;
        this.serviceNanos = serviceNanos;
        this.selector = Selector.open();
    }

    /** Makes this loop the acceptor, dealing accepted connections out to {@code loops} in turn. */
    void accept(ServerSocketChannel listener, List<SelectorLoop> loops) throws IOException {
        acceptFor = loops;
        listener.register(selector, SelectionKey.OP_ACCEPT);
    }

    void stop() {
        running = false;
        selector.wakeup();
    }

    /**
     * Spins for the loop's service cost, if it has one: a busy wait, not a sleep, which would oversleep by up to
     * milliseconds here and make the cost anything but known.
     */
    void serve() {
        for (long start = System.nanoTime(); System.nanoTime() - start < serviceNanos; ) {
            Thread.onSpinWait();
        }
    }

    /** Runs {@code action} on this loop's thread after {@code delayMs}; called on that thread only. */
    void schedule(long delayMs, Runnable action) {
        timers.add(new Timer(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMs), action));
    }

    @Override
    public void run() {
        try {
            while (running) {
                long timeoutMs = selectTimeoutMs();
                if (timeoutMs < 0) {
                    selector.selectNow(this::onReady);
                } else {
                    selector.select(this::onReady, timeoutMs);
                }
                registerAdopted();
                fireTimers();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            for (SelectionKey key : selector.keys()) {
                closeQuietly(key);
            }
            closeQuietly(selector);
        }
    }

    /** Rounded up, so a timer never fires early; 0 = no timer (select until woken), -1 = one is due. */
    private long selectTimeoutMs() {
        Timer first = timers.peek();
        if (first == null) {
            return 0;
        }
        long delayNs = first.deadlineNs() - System.nanoTime();
        return delayNs <= 0 ? -1 : TimeUnit.NANOSECONDS.toMillis(delayNs + 999_999);
    }

    private void fireTimers() {
        long nowNs = System.nanoTime();
        for (Timer t; (t = timers.peek()) != null && t.deadlineNs() - nowNs <= 0; ) {
            timers.poll();
            t.action().run();
        }
    }

    private void onReady(SelectionKey key) {
        if (key.isAcceptable()) {
            acceptAll(key);
        } else if (key.attachment() instanceof Connection connection) {
            connection.onReady();
        }
    }

    private void acceptAll(SelectionKey key) {
        ServerSocketChannel listener = (ServerSocketChannel) key.channel();
        try {
            for (SocketChannel channel; (channel = listener.accept()) != null; ) {
                SelectorLoop loop = acceptFor.get(nextLoop);
                nextLoop = (nextLoop + 1) % acceptFor.size();
                loop.adopted.add(channel);
                if (loop != this) {
                    loop.selector.wakeup();
                }
            }
        } catch (IOException e) {
            // Out of file descriptors: the listener stays ready, so pause rather than spin on it.
            key.interestOps(0);
            schedule(ACCEPT_PAUSE_MS, () -> {
                if (key.isValid()) {
                    key.interestOps(SelectionKey.OP_ACCEPT);
                }
            });
        }
    }

    private void registerAdopted() {
        for (SocketChannel channel; (channel = adopted.poll()) != null; ) {
            try {
                channel.configureBlocking(false);
                channel.setOption(StandardSocketOptions.TCP_NODELAY, tcpNoDelay);
                SelectionKey key = channel.register(selector, SelectionKey.OP_READ);
                key.attach(new Connection(key, this, stats));
            } catch (IOException e) {
                closeQuietly(channel);
            }
        }
    }

    private static void closeQuietly(SelectionKey key) {
        closeQuietly(key.channel());
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception e) {
            // Closing on shutdown or after an error: nothing left to tell.
        }
    }
}
