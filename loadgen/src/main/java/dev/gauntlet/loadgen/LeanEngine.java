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
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * The built-in HTTP/1.1 engine: one thread, one NIO selector, keep-alive connections, a
 * pre-encoded request and an allocation-free response parser. It runs the open and closed loop
 * to the end of the measured phase, then drains what is in flight.
 *
 * <p>Open loop: each intended start from the {@link Schedule} is sent on an idle connection at
 * once; when none is idle it waits for the first connection to free up or to connect. Its intended
 * start is kept throughout, so any wait shows in response time and schedule lag. Which connections
 * open is the model's {@link LoadModel.ConnectionPolicy}: a fixed pool opened at the start and kept;
 * an adaptive pool ({@link AdaptivePool}) opened ahead of need; or, unbounded, one new connection
 * for each waiting request, up to {@code maxConnections}. Closed loop: each connection
 * sends its next request when the previous one completed; the intended start is that moment. Max
 * concurrency: N requests due at the start of the measured phase, on N new connections, held.
 */
final class LeanEngine implements Engine {
    /**
     * Connects in progress at most. On loopback a connect takes well under a millisecond, so this
     * never binds a healthy run; it stops a generator that fell behind (or a server that stopped
     * accepting) from turning every waiting request into one more connect, which only makes both
     * sides fall further behind. Requests keep their intended starts while they wait.
     */
    static final int MAX_CONNECTING = 32;
    private static final long BACKOFF_NS = TimeUnit.MILLISECONDS.toNanos(1);
    /**
     * Open loop: the spin window, at most this long and at most {@link #SPIN_SHARE} of the mean gap
     * between intended starts. A start closer than that is polled for; a later one is slept for, to
     * wake at it by the measured wake latency, and the wake that comes early polls the rest. Each
     * sleep costs a wake-up (about 20 µs of CPU on a virtual machine), each polled microsecond costs
     * one: so the loop spins at most a quarter of its time, and at low rates only the early part of
     * its wake-ups. See docs/benchmarks.md for what it costs against the closed loop.
     */
    static final long MAX_SPIN_NS = TimeUnit.MICROSECONDS.toNanos(50);
    static final int SPIN_SHARE = 4;
    /**
     * Open loop, waiting for a start while responses or connects are awaited: a sleep at least this
     * long waits in the selector with a {@link SelectorAlarm} (responsive, three wake-ups), a shorter
     * one parks (one wake-up; what arrives meanwhile is read that much later).
     */
    static final long ALARM_MIN_NS = TimeUnit.MICROSECONDS.toNanos(200);

    private final LoadSpec spec;
    private final InetSocketAddress address;
    private final LatencyRecorder.Writer recorder;
    private final RequestCounters counters;
    private final ByteBuffer request;
    private final int requestBytes;
    private final byte[] expectedBody;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
    private final Selector selector;
    private final Consumer<SelectionKey> onReady = this::onReady;

    private final Mode mode;
    private final boolean openLoop;
    private final Phases phases;
    private final int maxConnections;
    /** Open loop: which connections open; null for the other modes. */
    private final LoadModel.ConnectionPolicy policy;
    /** Whether each waiting request gets a connection of its own: the unbounded open loop and the held model. */
    private final boolean connectionPerWaitingRequest;
    /** The fixed pool's size; 0 for the other policies. */
    private final int poolConnections;
    /** The adaptive policy's sizing; null for the others. */
    private final AdaptivePool adaptive;
    private final InetAddress[] sourceAddresses;
    private final Supplier<RunSummary.ServerStats> serverStats;
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
    private final WakeLatency parkLatency = new WakeLatency();
    private final WakeLatency alarmLatency = new WakeLatency();
    private final long spinNs;
    /** Wakes the selector between its whole milliseconds; started by the open loop's first wait for a start. */
    private SelectorAlarm alarm;
    private int openConnections;
    private int connectionsPeak;
    private final Histogram connectTimes = LatencyRecorder.newHistogram();

    private final long hardCapNs;
    private boolean openFailedThisRound;
    private boolean burstSent;
    private RunSummary.Concurrency concurrency;
    private RunSummary.ServerStats serverAtStart;

    /** How the engine offers load; {@link #HELD} is the max-concurrency model. */
    enum Mode { OPEN, CLOSED, HELD }

    /**
     * @param maxConnections the open loop's connection limit, already resolved against the machine's limits
     * @param pendingLimit   requests waiting for a connection at most (max concurrency: its burst's, if more)
     * @param serverStats    fetches the target's {@code /stats}; null when the spec names no admin URL
     */
    LeanEngine(LoadSpec spec, InetSocketAddress address, InetAddress[] sourceAddresses, int maxConnections,
               int pendingLimit, long runStartNs, PhaseClock clock, LatencyRecorder.Writer recorder,
               RequestCounters counters, Supplier<RunSummary.ServerStats> serverStats) {
        this.spec = spec;
        this.address = address;
        this.recorder = recorder;
        this.counters = counters;
        byte[] requestAscii = requestBytes(spec).getBytes(StandardCharsets.US_ASCII);
        this.request = ByteBuffer.allocateDirect(requestAscii.length).put(requestAscii).flip();
        this.requestBytes = requestAscii.length;
        this.expectedBody = spec.expectedBody() == null ? null : spec.expectedBody().getBytes(StandardCharsets.UTF_8);
        this.sourceAddresses = sourceAddresses;
        this.serverStats = serverStats;
        switch (spec.model()) {
            case LoadModel.OpenLoop open -> {
                mode = Mode.OPEN;
                policy = open.connectionPolicy();
                this.maxConnections = policy == LoadModel.ConnectionPolicy.FIXED ? open.connections() : maxConnections;
                poolConnections = policy == LoadModel.ConnectionPolicy.FIXED ? open.connections() : 0;
                adaptive = policy == LoadModel.ConnectionPolicy.ADAPTIVE
                        ? new AdaptivePool(open.ratePerSec(), spec.declaredWaitMs(), maxConnections, runStartNs) : null;
            }
            case LoadModel.ClosedLoop closed -> {
                mode = Mode.CLOSED;
                policy = null;
                poolConnections = 0;
                adaptive = null;
                this.maxConnections = closed.connections();
            }
            case LoadModel.MaxConcurrency held -> {
                mode = Mode.HELD;
                policy = null;
                poolConnections = 0;
                adaptive = null;
                this.maxConnections = held.requests();
            }
        }
        this.connectionPerWaitingRequest = mode == Mode.HELD || policy == LoadModel.ConnectionPolicy.UNBOUNDED;
        // The held burst waits here whole for its connections: it must never be cut.
        int pendingCapacity = mode == Mode.HELD ? Math.max(pendingLimit, this.maxConnections) : pendingLimit;
        this.pending = new LongQueue(pendingCapacity);
        this.pendingSinceNs = new LongQueue(pendingCapacity);
        this.openLoop = mode == Mode.OPEN;
        this.spinNs = spec.model() instanceof LoadModel.OpenLoop open
                ? Math.min(MAX_SPIN_NS, (long) (1e9 / open.ratePerSec() / SPIN_SHARE)) : 0;
        this.connectTimeoutNs = TimeUnit.MILLISECONDS.toNanos(spec.connectTimeoutMs());
        this.responseTimeoutNs = TimeUnit.MILLISECONDS.toNanos(spec.responseTimeoutMs());
        this.phases = new Phases(spec, runStartNs, clock);
        this.hardCapNs = phases.hardCapNs();
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static String requestBytes(LoadSpec spec) {
        String path = spec.url().getRawPath() == null || spec.url().getRawPath().isEmpty() ? "/" : spec.url().getRawPath();
        String query = spec.url().getRawQuery() == null ? "" : "?" + spec.url().getRawQuery();
        String host = spec.url().getPort() < 0 ? spec.url().getHost() : spec.url().getHost() + ":" + spec.url().getPort();
        return "GET " + path + query + " HTTP/1.1\r\nHost: " + host + "\r\nUser-Agent: gauntlet\r\n\r\n";
    }

    @Override
    public void run() {
        if (openLoop) {
            phases.startSchedule();
        }
        try {
            while (true) {
                long nowNs = System.nanoTime();
                if (nowNs >= hardCapNs || Thread.currentThread().isInterrupted()) {
                    selector.selectNow(onReady);
                    abortOutstanding();
                    break;
                }
                openFailedThisRound = false;
                switch (mode) {
                    case OPEN -> {
                        fireDue(nowNs);
                        if (!pending.isEmpty()) {
                            // Responses already read free their connections for the waiting requests
                            // first: a loop that fell behind must not open connections it does not need.
                            selector.selectNow(onReady);
                        }
                        if (phases.issuing() || !pending.isEmpty()) {
                            openByPolicy(System.nanoTime());
                        }
                    }
                    case CLOSED -> replenish(nowNs, maxConnections);
                    case HELD -> {
                        if (nowNs < phases.measureStartNs()) {
                            replenish(nowNs, 1);
                        } else {
                            if (!burstSent) {
                                sendBurst(nowNs);
                            }
                            openForPending(nowNs);
                            mayReissue(nowNs);
                        }
                    }
                }
                if (mode == Mode.HELD && burstSent && !phases.issuing()) {
                    endHold();
                    break;
                }
                if (phases.done()) {
                    break;
                }
                await(nowNs, nextWakeNs(nowNs));
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

    /**
     * Waits for I/O until {@code wakeNs}. An open loop's intended start is kept to within the
     * platform's wake-up jitter: closer than the spin window it polls; else it sleeps until the
     * start less the measured wake latency (in the selector with an alarm while responses or
     * connects are awaited and the sleep is long enough to pay for it, else parked) and polls what
     * is left if it woke early. Everything else (timeouts, phase ends, back-offs) takes the
     * selector's whole milliseconds.
     */
    private void await(long nowNs, long wakeNs) throws IOException {
        long waitNs = wakeNs - nowNs;
        if (!(openLoop && phases.issuing() && wakeNs == phases.nextIntendedNs())) {
            if (waitNs <= 0) {
                selector.selectNow(onReady);
            } else {
                selector.select(onReady, ceilMs(waitNs));
            }
            return;
        }
        if (waitNs <= spinNs) {
            if (selector.selectNow(onReady) == 0) {
                Thread.onSpinWait();
            }
            return;
        }
        boolean ioAwaited = busy.size() > 0 || connecting.size() > 0;
        boolean useAlarm = ioAwaited && waitNs - alarmLatency.estimateNs() >= ALARM_MIN_NS;
        WakeLatency latency = useAlarm ? alarmLatency : parkLatency;
        long askNs = Math.max(wakeNs - latency.estimateNs(), nowNs + 1);
        if (!useAlarm) {
            // What is already readable is read first: a busy loop sleeps only when it has nothing to do.
            if (ioAwaited && selector.selectNow(onReady) > 0) {
                return;
            }
            LockSupport.parkNanos(askNs - nowNs);
            selector.selectNow(onReady);
        } else {
            if (alarm == null) {
                alarm = new SelectorAlarm(selector, "gauntlet-alarm");
            }
            alarm.set(askNs);
            selector.select(onReady, ceilMs(waitNs));
        }
        long wokeNs = System.nanoTime();
        if (wokeNs >= askNs) {
            latency.sample(wokeNs - askNs);
        }
    }

    private static long ceilMs(long ns) {
        return (ns + 999_999) / 1_000_000;
    }

    @Override
    public Phases phases() {
        return phases;
    }

    @Override
    public int connectionsPeak() {
        return connectionsPeak;
    }

    /** Connections this engine may open at most: the open loop's limit, else the model's count. */
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
        return concurrency;
    }

    private void fireDue(long nowNs) {
        for (long intendedNs; (intendedNs = phases.takeDue(nowNs)) != Phases.NONE; ) {
            if (!phases.measured(intendedNs)) {
                recorder.recordWarmupLateness(nowNs - intendedNs);
            }
            dispatch(intendedNs, nowNs);
        }
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

    /** Closed loop: keeps {@code connections} open, each with a request, while the phase lasts. */
    private void replenish(long nowNs, int connections) {
        while (openConnections < connections && connecting.size() < MAX_CONNECTING && !openFailedThisRound
                && mayReissue(nowNs)) {
            phases.begin(nowNs);
            openConnection(nowNs, true, nowNs);
        }
    }

    /** Max concurrency: all N requests at once, each intended at the start of the measured phase. */
    private void sendBurst(long nowNs) {
        burstSent = true;
        if (serverStats != null) {
            serverAtStart = serverStats.get();
        }
        // The warm-up's connection goes, with its request if the server holds it (a long wait does): the
        // burst is N fresh connections, and the warm-up request was never recorded.
        for (Connection c = busy.first(); c != null; c = busy.first()) {
            c.hasRequest = false;
            phases.resolved();
            close(c);
        }
        for (Connection c = idle.first(); c != null; c = idle.first()) {
            close(c);
        }
        int requests = maxConnections;
        for (int i = 0; i < requests; i++) {
            phases.begin(phases.measureStartNs());
            dispatch(phases.measureStartNs(), nowNs);
        }
    }

    /**
     * Whether a connection that just became free sends its next request: the closed loop's and the
     * held model's rule (the held model keeps its N in flight); the open loop never does.
     */
    private boolean mayReissue(long nowNs) {
        if (mode == Mode.OPEN) {
            // The schedule ends the open loop (fireDue): a response read after the end of the measured
            // phase must not stop a loop that has yet to send a request due before it.
            return false;
        }
        boolean issuing = phases.keepIssuing(nowNs);
        return mode == Mode.CLOSED ? issuing : issuing && (nowNs < phases.measureStartNs() ? !burstSent : burstSent);
    }

    /**
     * Max concurrency, at the end of the measured phase: what is held, what the server says, then
     * the held requests are let go without counting errors; connections not yet established failed.
     */
    private void endHold() {
        RunSummary.ServerStats serverAtEnd = serverStats == null ? null : serverStats.get();
        long connected = openConnections - connecting.size();
        concurrency = new RunSummary.Concurrency(connected, busy.size(), serverAtStart, serverAtEnd);
        for (Connection c = busy.first(); c != null; c = busy.first()) {
            c.hasRequest = false;
            phases.resolved();
            close(c);
        }
        for (Connection c = connecting.first(); c != null; c = connecting.first()) {
            fail(c, ErrorClass.CONNECT_TIMEOUT);
        }
        while (!pending.isEmpty()) {
            resolveError(pollPending(), ErrorClass.CONNECT_TIMEOUT);
        }
    }

    private void dispatch(long intendedStartNs, long nowNs) {
        Connection connection = idle.pollLast();
        if (connection != null) {
            send(connection, intendedStartNs);
        } else if (pending.offer(intendedStartNs)) {
            pendingSinceNs.offer(nowNs);
        } else {
            // The queue is full: the rate outran what this loop can send. Never sent, so never timed.
            if (phases.droppedUnsent(intendedStartNs)) {
                counters.droppedQueueFull();
            }
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
            Connection connection = new Connection(channel, new ResponseParser(expectedBody));
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
        if (intendedStartNs >= phases.measureStartNs()) {
            counters.sent();
            recorder.recordLag(sendNs - intendedStartNs);
        }
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
        boolean measured = connection.intendedStartNs >= phases.measureStartNs();
        if (measured) {
            if (parser.status() != spec.expectedStatus()) {
                counters.error(ErrorClass.BAD_STATUS, endNs);
            } else if (!parser.bodyMatches()) {
                counters.error(ErrorClass.BAD_BODY, endNs);
            } else {
                counters.completed(endNs);
                recorder.recordResponse(connection.intendedStartNs, connection.sendNs, endNs);
            }
        } else if (parser.status() == spec.expectedStatus() && parser.bodyMatches()) {
            recorder.recordWarmup(connection.intendedStartNs, endNs);
        }
        connection.hasRequest = false;
        phases.resolved();
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
        } else if (mayReissue(nowNs)) {
            phases.begin(nowNs);
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
        if (phases.issuing()) {
            wakeNs = Math.min(wakeNs, openLoop ? phases.nextIntendedNs()
                    : nowNs < phases.measureStartNs() ? phases.measureStartNs() : phases.measureEndNs());
        }
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
            if (connectionPerWaitingRequest ? pending.size() > connecting.size() : !pending.isEmpty()) {
                resolveError(pollPending(), errorClass);
            }
        }
    }

    private void resolveError(long intendedStartNs, ErrorClass errorClass) {
        phases.resolved();
        if (intendedStartNs >= phases.measureStartNs()) {
            counters.error(errorClass, System.nanoTime());
        }
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
        if (alarm != null) {
            alarm.close();
        }
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
