package dev.gauntlet.loadgen;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NoRouteToHostException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The lean transport, the built-in HTTP/1.1 engine: one thread, one NIO selector, keep-alive
 * connections, a pre-encoded request and an allocation-free response parser, carrying the requests
 * of a {@link LoadDriver} to the wire and their responses back, to the end of the measured phase,
 * then draining what is in flight.
 *
 * <p>A request the driver dispatches is sent on an idle connection at once; when none is idle it
 * waits for the first connection to free up or to connect, its intended start kept throughout, so
 * any wait shows in response time and schedule lag. Which connections open for waiting requests is
 * the driver's {@link LoadModel.ConnectionPolicy}: a fixed pool opened at the start and kept; an
 * adaptive pool ({@link AdaptivePool}) opened ahead of need; or, unbounded, one new connection for
 * each waiting request, up to the driver's capacity. A request the driver starts on new capacity
 * opens a connection that carries it.
 */
final class LeanEngine implements Engine, Transport {
    /**
     * Connects in progress at most. On loopback a connect takes well under a millisecond, so this
     * never binds a healthy run; it stops a generator that fell behind (or a server that stopped
     * accepting) from turning every waiting request into one more connect, which only makes both
     * sides fall further behind. Requests keep their intended starts while they wait.
     */
    static final int MAX_CONNECTING = 32;
    private static final long BACKOFF_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final LoadDriver driver;
    private final Phases phases;
    private final RequestJudge judge;
    private final InetSocketAddress address;
    private final RequestCounters counters;
    private final ByteBuffer request;
    private final int requestBytes;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
    private final Selector selector;
    private final Consumer<SelectionKey> onReady = this::onReady;
    private final SelectorWait wait;

    private final int maxConnections;
    /** Which connections open for waiting requests. */
    private final LoadModel.ConnectionPolicy policy;
    /** The fixed pool's size; 0 for the other policies. */
    private final int poolConnections;
    /** The adaptive policy's sizing; null for the others. */
    private final AdaptivePool adaptive;
    private final InetAddress[] sourceAddresses;
    private int nextSource;
    private final long connectTimeoutNs;
    private final long responseTimeoutNs;

    private final ConnectionList connecting = new ConnectionList();
    private final ConnectionList idle = new ConnectionList();
    private final ConnectionList busy = new ConnectionList();
    /**
     * The intended starts waiting for a connection, oldest first, and when the loop queued each; bounded
     * ({@link EngineThreads#PENDING_PER_PROCESS}): what is due while they are full is dropped and counted.
     */
    private final LongQueue pending;
    private final LongQueue pendingSinceNs;
    /** A pool refills no sooner than this after a failed connect, so a server that refuses is not flooded. */
    private long connectBackoffUntilNs;
    private int openConnections;
    private int connectionsPeak;
    private final Histogram connectTimes = LatencyRecorder.newHistogram();

    private final long hardCapNs;
    private boolean openFailedThisRound;

    /**
     * @param maxConnections the open loop's connection limit, already resolved against the machine's limits
     * @param pendingLimit   requests waiting for a connection at most (a held burst: the burst, if more)
     */
    LeanEngine(LoadSpec spec, LoadDriver driver, InetSocketAddress address, InetAddress[] sourceAddresses,
               int maxConnections, int pendingLimit, RequestCounters counters) {
        this.driver = driver;
        this.phases = driver.phases();
        this.judge = driver.judge();
        this.address = address;
        this.counters = counters;
        byte[] requestAscii = requestBytes(spec).getBytes(StandardCharsets.US_ASCII);
        this.request = ByteBuffer.allocateDirect(requestAscii.length).put(requestAscii).flip();
        this.requestBytes = requestAscii.length;
        this.sourceAddresses = sourceAddresses;
        this.maxConnections = driver.capacity(maxConnections);
        this.policy = driver.waitingPolicy();
        this.poolConnections = policy == LoadModel.ConnectionPolicy.FIXED ? this.maxConnections : 0;
        this.adaptive = policy == LoadModel.ConnectionPolicy.ADAPTIVE
                ? new AdaptivePool(driver.ratePerSec(), spec.declaredWaitMs(), this.maxConnections, phases.runStartNs()) : null;
        int pendingCapacity = driver.waitingCapacity(pendingLimit);
        this.pending = new LongQueue(pendingCapacity);
        this.pendingSinceNs = new LongQueue(pendingCapacity);
        this.connectTimeoutNs = TimeUnit.MILLISECONDS.toNanos(spec.connectTimeoutMs());
        this.responseTimeoutNs = TimeUnit.MILLISECONDS.toNanos(spec.responseTimeoutMs());
        this.hardCapNs = phases.hardCapNs();
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.wait = new SelectorWait(selector, onReady, driver.ratePerSec());
    }

    static String requestBytes(LoadSpec spec) {
        String path = spec.url().getRawPath() == null || spec.url().getRawPath().isEmpty() ? "/" : spec.url().getRawPath();
        String query = spec.url().getRawQuery() == null ? "" : "?" + spec.url().getRawQuery();
        String host = spec.url().getPort() < 0 ? spec.url().getHost() : spec.url().getHost() + ":" + spec.url().getPort();
        return "GET " + path + query + " HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: gauntlet\r\n\r\n";
    }

    @Override
    public void run() {
        driver.start(this);
        try {
            while (true) {
                long nowNs = System.nanoTime();
                if (nowNs >= hardCapNs || Thread.currentThread().isInterrupted()) {
                    selector.selectNow(onReady);
                    abortOutstanding();
                    break;
                }
                openFailedThisRound = false;
                driver.issue(nowNs);
                if (!pending.isEmpty()) {
                    // Responses already read free their connections for the waiting requests
                    // first: a loop that fell behind must not open connections it does not need.
                    selector.selectNow(onReady);
                }
                if (phases.issuing() || !pending.isEmpty()) {
                    openByPolicy(System.nanoTime());
                }
                if (driver.finished()) {
                    break;
                }
                long wakeNs = nextWakeNs(nowNs);
                wait.await(nowNs, wakeNs, driver.wakesForIntendedStart(wakeNs), busy.size() > 0 || connecting.size() > 0);
                // Only after what is ready has been read: a loop that did not run for a while (a GC
                // pause, a busy machine) must not count its own delay as the server's timeout.
                expire(System.nanoTime());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            closeAll();
        }
    }

    @Override
    public Phases phases() {
        return phases;
    }

    @Override
    public int connectionsPeak() {
        return connectionsPeak;
    }

    /** Connections this engine may open at most: the driver's capacity. */
    @Override
    public int connectionsLimit() {
        return maxConnections;
    }

    @Override
    public Histogram connectTimes() {
        return connectTimes;
    }

    @Override
    public RunSummary.Concurrency concurrency() {
        return driver.concurrency();
    }

    private void openByPolicy(long nowNs) {
        switch (policy) {
            case UNBOUNDED -> {
                if (!pending.isEmpty()) {
                    openForPending(nowNs);
                }
            }
            case FIXED -> fillPool(poolConnections, nowNs);
            case ADAPTIVE -> {
                if (mayGrowPool() && !openFailedThisRound) {
                    Connection oldestConnect = connecting.first();
                    adaptive.growBy(pending.size() - connecting.size(), openConnections - connecting.size(),
                            pendingSinceNs.peek(), oldestConnect == null ? 0 : Math.max(1, nowNs - connectStartNs(oldestConnect)),
                            nowNs);
                }
                fillPool(adaptive.targetConnections(), nowNs);
            }
        }
    }

    /** Adaptive: whether requests wait with no connect under way for them, the pool full and room under the limit. */
    private boolean mayGrowPool() {
        return adaptive != null && pending.size() > connecting.size() && openConnections < maxConnections
                && openConnections >= adaptive.targetConnections();
    }

    /** The connections a pool keeps open: 0 when connections open per request instead. */
    private int poolTarget() {
        return adaptive != null ? Math.min(adaptive.targetConnections(), maxConnections) : poolConnections;
    }

    /** Opens connections, not bound to any request, until {@code target} are open or connecting. */
    private void fillPool(int target, long nowNs) {
        int limit = Math.min(target, maxConnections);
        while (openConnections < limit && connecting.size() < MAX_CONNECTING && !openFailedThisRound
                && nowNs >= connectBackoffUntilNs) {
            openConnection(0, false, nowNs);
        }
    }

    /**
     * Opens a connection for each waiting request that has none on the way. A connection is not
     * bound to the request it was opened for: whichever connection frees up or connects first
     * takes the oldest waiting request, so a slow connect never delays a request that a busy
     * connection could serve sooner, and connections grow only as fast as requests wait.
     */
    private void openForPending(long nowNs) {
        while (pending.size() > connecting.size() && connecting.size() < MAX_CONNECTING
                && openConnections < maxConnections && !openFailedThisRound) {
            openConnection(0, false, nowNs);
        }
    }

    @Override
    public boolean mayStartNew() {
        return connecting.size() < MAX_CONNECTING && !openFailedThisRound;
    }

    @Override
    public void startNew(long nowNs) {
        openConnection(nowNs, true, nowNs);
    }

    @Override
    public void receive() {
        try {
            selector.selectNow(onReady);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public int connected() {
        return openConnections - connecting.size();
    }

    @Override
    public int inFlight() {
        return busy.size();
    }

    @Override
    public void letGo() {
        for (Connection c = busy.first(); c != null; c = busy.first()) {
            c.hasRequest = false;
            judge.letGo();
            close(c);
        }
        for (Connection c = idle.first(); c != null; c = idle.first()) {
            close(c);
        }
        for (Connection c = connecting.first(); c != null; c = connecting.first()) {
            fail(c, ErrorClass.CONNECT_TIMEOUT);
        }
        while (!pending.isEmpty()) {
            resolveError(pollPending(), ErrorClass.CONNECT_TIMEOUT);
        }
    }

    @Override
    public void dispatch(long intendedStartNs, long nowNs) {
        Connection connection = idle.pollLast();
        if (connection != null) {
            send(connection, intendedStartNs);
        } else if (pending.offer(intendedStartNs)) {
            pendingSinceNs.offer(nowNs);
        } else {
            // The queue is full: the rate outran what this loop can send. Never sent, so never timed.
            judge.dropped(intendedStartNs);
        }
    }

    /** The oldest waiting request's intended start, taken off the queue. */
    private long pollPending() {
        pendingSinceNs.poll();
        return pending.poll();
    }

    /** With {@code withRequest}, the connection carries that request (closed loop); else it serves the waiting ones. */
    private void openConnection(long intendedStartNs, boolean withRequest, long nowNs) {
        SocketChannel channel = null;
        try {
            channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            if (sourceAddresses.length > 0) {
                channel.bind(new InetSocketAddress(sourceAddresses[nextSource++ % sourceAddresses.length], 0));
            }
            boolean connected = channel.connect(address);
            Connection connection = new Connection(channel, new ResponseParser(judge.expectedBody()));
            connection.hasRequest = withRequest;
            connection.intendedStartNs = intendedStartNs;
            connection.key = channel.register(selector, connected ? SelectionKey.OP_READ : SelectionKey.OP_CONNECT, connection);
            openConnections++;
            connectionsPeak = Math.max(connectionsPeak, openConnections);
            counters.connectionOpened(nowNs);
            if (connected) {
                connectTimes.recordValue(0);
                onConnected(connection);
            } else {
                connection.deadlineNs = nowNs + connectTimeoutNs;
                connecting.addLast(connection);
            }
        } catch (IOException e) {
            // Refused at once (or no local port left): a request fails and the loop backs off a little.
            openFailedThisRound = true;
            connectBackoffUntilNs = nowNs + BACKOFF_NS;
            if (channel != null) {
                closeQuietly(channel);
            }
            if (withRequest) {
                resolveError(intendedStartNs, connectError(e));
            } else if (!pending.isEmpty()) {
                resolveError(pollPending(), connectError(e));
            }
        }
    }

    private void onReady(SelectionKey key) {
        Connection connection = (Connection) key.attachment();
        if (!key.isValid() || connection.state == Connection.CLOSED) {
            return;
        }
        int ready = key.readyOps();
        if ((ready & SelectionKey.OP_CONNECT) != 0) {
            onConnectable(connection);
            return;
        }
        if ((ready & SelectionKey.OP_WRITE) != 0) {
            writeRest(connection);
        }
        if ((ready & SelectionKey.OP_READ) != 0 && connection.state != Connection.CLOSED) {
            onReadable(connection);
        }
    }

    private void onConnectable(Connection connection) {
        try {
            connection.channel.finishConnect();
        } catch (IOException e) {
            fail(connection, connectError(e));
            return;
        }
        connecting.remove(connection);
        connection.key.interestOps(SelectionKey.OP_READ);
        long connectNs = Math.clamp(System.nanoTime() - connectStartNs(connection), 0, LatencyRecorder.HIGHEST_TRACKABLE_NS);
        connectTimes.recordValue(connectNs);
        if (adaptive != null) {
            adaptive.onConnected(connectNs);
        }
        onConnected(connection);
    }

    /** A connecting connection's deadline is its connect's start plus the connect timeout. */
    private long connectStartNs(Connection connecting) {
        return connecting.deadlineNs - connectTimeoutNs;
    }

    private void onConnected(Connection connection) {
        if (connection.hasRequest) {
            send(connection, connection.intendedStartNs);
        } else {
            onIdle(connection, System.nanoTime());
        }
    }

    private void send(Connection connection, long intendedStartNs) {
        long sendNs = System.nanoTime();
        connection.hasRequest = true;
        connection.intendedStartNs = intendedStartNs;
        connection.sendNs = sendNs;
        connection.state = Connection.BUSY;
        connection.deadlineNs = sendNs + responseTimeoutNs;
        connection.writtenBytes = 0;
        busy.addLast(connection);
        judge.sent(intendedStartNs);
        judge.lag(intendedStartNs, sendNs);
        writeRest(connection);
    }

    private void writeRest(Connection connection) {
        try {
            request.limit(requestBytes).position(connection.writtenBytes);
            connection.writtenBytes += connection.channel.write(request);
        } catch (IOException e) {
            fail(connection, ErrorClass.RESET);
            return;
        }
        // Interest changes cost a system call: only a partial write (rare) asks for OP_WRITE.
        boolean done = connection.writtenBytes == requestBytes;
        if (done == connection.awaitingWritable) {
            connection.awaitingWritable = !done;
            connection.key.interestOps(done ? SelectionKey.OP_READ : SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        }
    }

    private void onReadable(Connection connection) {
        while (true) {
            readBuffer.clear();
            int n;
            try {
                n = connection.channel.read(readBuffer);
            } catch (IOException e) {
                fail(connection, ErrorClass.RESET);
                return;
            }
            if (n < 0) {
                if (!connection.hasRequest) {
                    close(connection);
                } else if (connection.parser.onEndOfStream() == ResponseParser.Result.COMPLETE) {
                    complete(connection, System.nanoTime(), true);
                } else {
                    fail(connection, ErrorClass.RESET);
                }
                return;
            }
            if (n == 0) {
                return;
            }
            readBuffer.flip();
            if (connection.state != Connection.BUSY) {
                // Bytes nobody asked for: the connection's framing can no longer be trusted.
                close(connection);
                return;
            }
            switch (connection.parser.parse(readBuffer)) {
                case MALFORMED -> {
                    fail(connection, ErrorClass.PROTOCOL);
                    return;
                }
                case COMPLETE -> {
                    complete(connection, System.nanoTime(), readBuffer.hasRemaining());
                    return;
                }
                case NEED_MORE -> {
                    if (n < readBuffer.capacity()) {
                        return;
                    }
                }
            }
        }
    }

    private void complete(Connection connection, long endNs, boolean mustClose) {
        busy.remove(connection);
        ResponseParser parser = connection.parser;
        if (adaptive != null) {
            adaptive.onServiceTime(endNs - connection.sendNs, endNs);
        }
        connection.hasRequest = false;
        judge.answered(connection.intendedStartNs, connection.sendNs, endNs, parser.status(), parser.bodyMatches());
        boolean closeAfter = mustClose || parser.closeAfter();
        parser.reset();
        if (closeAfter) {
            close(connection);
        } else {
            onIdle(connection, endNs);
        }
    }

    private void onIdle(Connection connection, long nowNs) {
        connection.state = Connection.IDLE;
        if (!pending.isEmpty()) {
            send(connection, pollPending());
        } else if (driver.nextOnFreed(nowNs)) {
            send(connection, nowNs);
        } else {
            idle.addLast(connection);
        }
    }

    private void expire(long nowNs) {
        for (Connection c = connecting.first(); c != null && c.deadlineNs <= nowNs; c = connecting.first()) {
            fail(c, ErrorClass.CONNECT_TIMEOUT);
        }
        for (Connection c = busy.first(); c != null && c.deadlineNs <= nowNs; c = busy.first()) {
            fail(c, ErrorClass.RESPONSE_TIMEOUT);
        }
    }

    private long nextWakeNs(long nowNs) {
        long wakeNs = hardCapNs;
        wakeNs = Math.min(wakeNs, driver.nextWakeNs(nowNs));
        if (connecting.first() != null) {
            wakeNs = Math.min(wakeNs, connecting.first().deadlineNs);
        }
        if (busy.first() != null) {
            wakeNs = Math.min(wakeNs, busy.first().deadlineNs);
        }
        if (openFailedThisRound) {
            wakeNs = Math.min(wakeNs, nowNs + BACKOFF_NS);
        }
        if (nowNs < connectBackoffUntilNs && openConnections < poolTarget()) {
            wakeNs = Math.min(wakeNs, connectBackoffUntilNs);
        }
        if (mayGrowPool()) {
            wakeNs = Math.min(wakeNs, adaptive.nextGrowNs(pendingSinceNs.peek()));
        }
        return wakeNs;
    }

    private void fail(Connection connection, ErrorClass errorClass) {
        boolean wasConnecting = connection.state == Connection.CONNECTING;
        boolean hadRequest = connection.hasRequest;
        if (hadRequest) {
            connection.hasRequest = false;
            resolveError(connection.intendedStartNs, errorClass);
        }
        close(connection);
        if (wasConnecting && !hadRequest) {
            connectBackoffUntilNs = System.nanoTime() + BACKOFF_NS;
            // A connection opened for the waiting requests failed: the oldest of them fails with it, once.
            if (policy == LoadModel.ConnectionPolicy.UNBOUNDED ? pending.size() > connecting.size() : !pending.isEmpty()) {
                resolveError(pollPending(), errorClass);
            }
        }
    }

    private void resolveError(long intendedStartNs, ErrorClass errorClass) {
        judge.failed(intendedStartNs, errorClass, System.nanoTime());
    }

    private void close(Connection connection) {
        if (connection.state == Connection.CLOSED) {
            return;
        }
        if (connection.list != null) {
            connection.list.remove(connection);
        }
        connection.state = Connection.CLOSED;
        connection.key.cancel();
        closeQuietly(connection.channel);
        openConnections--;
    }

    private void abortOutstanding() {
        phases.abort();
        for (Connection c = connecting.first(); c != null; c = connecting.first()) {
            fail(c, ErrorClass.CONNECT_TIMEOUT);
        }
        for (Connection c = busy.first(); c != null; c = busy.first()) {
            fail(c, ErrorClass.RESPONSE_TIMEOUT);
        }
        while (!pending.isEmpty()) {
            resolveError(pollPending(), ErrorClass.RESPONSE_TIMEOUT);
        }
    }

    private void closeAll() {
        wait.close();
        for (Connection c = idle.first(); c != null; c = idle.first()) {
            close(c);
        }
        abortOutstanding();
        for (SelectionKey key : selector.keys()) {
            closeQuietly(key.channel());
        }
        closeQuietly(selector);
    }

    private static ErrorClass connectError(IOException e) {
        return e instanceof ConnectException || e instanceof NoRouteToHostException
                ? ErrorClass.REFUSED : ErrorClass.RESET;
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // Closing at the end of a request's life: nothing left to report.
        }
    }
}
