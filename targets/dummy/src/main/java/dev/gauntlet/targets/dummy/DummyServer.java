package dev.gauntlet.targets.dummy;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.ProtocolNotServed;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The baseline target: a minimal HTTP/1.1 keep-alive server on plain NIO that does almost nothing,
 * so that the difference between it and a real server is that server's cost.
 *
 * <p>{@code ioThreads} selector threads each own a share of the connections (the first one also
 * accepts and deals connections out round-robin). Responses are pre-encoded bytes; a request's
 * wait is a timer on its connection's selector thread, so no thread ever blocks.
 */
public final class DummyServer implements HelloServer {
    /**
     * A change made on purpose, for a test of what finds one (a history's change point, a gate): the dummy started with
     * this environment variable at N spins N µs of CPU per hello answer, as a {@link SpinningDummyServer} does, under
     * its own name and with the suite unchanged, as a slower commit of it would. A target inherits the runner's
     * environment: {@code GAUNTLET_DUMMY_SPIN_MICROS=300 ./gauntlet run}.
     */
    public static final String SLOWED_BY = "GAUNTLET_DUMMY_SPIN_MICROS";
    private static final long STOP_JOIN_MS = 2_000;

    /** CPU spun per hello answer on its selector thread: 0 for the baseline ({@link SpinningDummyServer}). */
    private final long serviceNanos;
    private ServerSocketChannel listener;
    private final List<SelectorLoop> loops = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    public DummyServer() {
        this(TimeUnit.MICROSECONDS.toNanos(Long.parseLong(System.getenv().getOrDefault(SLOWED_BY, "0"))));
    }

    DummyServer(long serviceNanos) {
        this.serviceNanos = serviceNanos;
    }

    /** Cleartext HTTP/1.1 only: the dummy has no TLS and no HTTP/2. */
    @Override
    public int start(TargetSettings settings, RequestStats stats) throws IOException, ProtocolNotServed {
        ProtocolNotServed.unlessHttp1(settings);
        listener = ServerSocketChannel.open();
        listener.setOption(StandardSocketOptions.SO_REUSEADDR, settings.reuseAddress());
        listener.bind(new InetSocketAddress(settings.bind(), settings.port()), settings.backlog());
        listener.configureBlocking(false);
        for (int i = 0; i < settings.ioThreads(); i++) {
            loops.add(new SelectorLoop(stats, settings.tcpNoDelay(), serviceNanos));
        }
        loops.getFirst().accept(listener, loops);
        for (int i = 0; i < loops.size(); i++) {
            threads.add(Thread.ofPlatform().name("dummy-io-" + i).start(loops.get(i)));
        }
        return ((InetSocketAddress) listener.getLocalAddress()).getPort();
    }

    @Override
    public void stop() throws Exception {
        listener.close();
        loops.forEach(SelectorLoop::stop);
        for (Thread thread : threads) {
            thread.join(STOP_JOIN_MS);
        }
    }
}
