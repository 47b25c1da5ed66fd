package dev.gauntlet.loadgen.transport;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.engine.TlsClient;
import dev.gauntlet.loadgen.measure.LatencyRecorder;
import dev.gauntlet.loadgen.measure.RequestCounters;
import dev.gauntlet.loadgen.measure.TrafficCounters;
import dev.gauntlet.loadgen.model.LoadDriver;
import dev.gauntlet.loadgen.model.Phases;
import dev.gauntlet.loadgen.model.RequestJudge;
import dev.gauntlet.loadgen.model.Transport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The lean transport, the built-in engine: one thread, one NIO selector, keep-alive connections, a
 * pre-encoded request and an allocation-free response reading, carrying the requests of a
 * {@link LoadDriver} to the wire and their responses back, to the end of the measured phase, then
 * draining what is in flight. The wire protocol is its {@link ConnectionIo}: HTTP/1.1 ({@link Http1Io}),
 * where each {@link Connection} is a socket, or HTTP/2 ({@link Http2Io}), where it is a stream slot of a
 * shared socket; either in clear or over TLS.
 *
 * <p>A request the driver dispatches is sent on an idle connection at once; when none is idle it
 * waits for the first connection to free up or to connect, its intended start kept throughout, so
 * any wait shows in response time and schedule lag. Which connections open for waiting requests is
 * the driver's {@link LoadModel.ConnectionPolicy}: a fixed pool opened at the start and kept; an
 * adaptive pool ({@link AdaptivePool}) opened ahead of need; or, unbounded, one new connection for
 * each waiting request, up to the driver's capacity. A request the driver starts on new capacity
 * opens a connection that carries it.
 */
public final class LeanEngine implements Engine, Transport, ConnectionIo.Events {
    private static final long BACKOFF_NS = TimeUnit.MILLISECONDS.toNanos(1);

    private final LoadDriver driver;
    private final Phases phases;
    private final RequestJudge judge;
    private final RequestCounters counters;
    private final Selector selector;
    private final Dialer dialer;
    private final ConnectionIo io;
    private final Consumer<SelectionKey> onReady;
    private final SelectorWait wait;

    private final int maxConnections;
    private final ConnectionOpening opening;
    private final long connectTimeoutNs;
    private final long responseTimeoutNs;

    private final ConnectionList connecting = new ConnectionList();
    private final ConnectionList idle = new ConnectionList();
    private final ConnectionList busy = new ConnectionList();
    private final WaitingRequests pending;
    private long connectRetries;
    /** A pool refills no sooner than this after a failed connect, so a server that refuses is not flooded. */
    private long connectBackoffUntilNs;
    private int openConnections;
    private int connectionsPeak;

    private final long hardCapNs;
    private boolean openFailedThisRound;

    /**
     * @param maxConnections the open loop's connection limit, already resolved against the machine's limits
     * @param pendingLimit   requests waiting for a connection at most (a held burst: the burst, if more)
     * @param floor          the platform's wake-up p99, the open loop's wake granularity unless the spec gives one
     * @param traffic        its requests in flight, sockets and bytes, for {@code traffic.csv}
     * @param timings        its connects', handshakes' and answers' times on the wire
     */
    public LeanEngine(LoadSpec spec, LoadDriver driver, InetSocketAddress address, InetAddress[] sourceAddresses,
               int maxConnections, int pendingLimit, RequestCounters counters, WakeFloor floor, TrafficCounters traffic,
               WireTimings timings) {
        this.driver = driver;
        this.phases = driver.phases();
        this.judge = driver.judge();
        this.counters = counters;
        this.maxConnections = driver.capacity(maxConnections);
        this.opening = new ConnectionOpening(spec, driver, this.maxConnections);
        this.pending = new WaitingRequests(driver.waitingCapacity(pendingLimit));
        this.connectTimeoutNs = TimeUnit.MILLISECONDS.toNanos(spec.connectTimeoutMs());
        this.responseTimeoutNs = TimeUnit.MILLISECONDS.toNanos(spec.responseTimeoutMs());
        this.hardCapNs = phases.hardCapNs();
        try {
            this.selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        this.dialer = new Dialer(address, sourceAddresses, spec.tls() ? TlsClient.of(spec.trust(), spec.url().getHost(),
                address.getPort(), spec.http2()) : null, traffic, timings);
        this.io = spec.http2()
                ? new Http2Io(spec, selector, dialer, judge.expectedBody(), this)
                : new Http1Io(spec, selector, dialer, judge.expectedBody(), this);
        this.onReady = io::onReady;
        this.wait = new SelectorWait(selector, onReady, spec.model().scheduledRatePerSec(), spec.wakeGranularityUs(), floor,
                SelectorWait.pollsFor(spec));
    }

    @Override
    public long pollingNs() {
        return wait.pollingNs();
    }

    @Override
    public void run() {
        driver.start(this);
        try {
            while (true) {
                long nowNs = System.nanoTime();
                dialer.traffic().round(busy.size(), nowNs);
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

    /** Sockets open at once at most (over HTTP/2, fewer than its stream slots). */
    @Override
    public int connectionsPeak() {
        return io.socketsPeak(connectionsPeak);
    }

    /** Connections this engine may open at most: the driver's capacity. */
    @Override
    public int connectionsLimit() {
        return maxConnections;
    }

    @Override
    public RunSummary.Concurrency concurrency() {
        return driver.concurrency();
    }

    /** Opens the connections the waiting requests get by the policy. */
    private void openByPolicy(long nowNs) {
        if (opening.mayGrow(pending.size(), connecting.size(), openConnections) && !openFailedThisRound) {
            Connection oldestConnect = connecting.first();
            opening.grow(pending.size(), connecting.size(), openConnections, pending.oldestQueuedAtNs(),
                    oldestConnect == null ? 0 : Math.max(1, nowNs - connectStartNs(oldestConnect)), nowNs);
        }
        while (opening.mayConnectMore(connecting.size()) && !openFailedThisRound
                && opening.another(pending.size(), connecting.size(), openConnections, nowNs, connectBackoffUntilNs)) {
            openConnection(0, false, nowNs);
        }
    }

    @Override
    public boolean mayStartNew() {
        return opening.mayConnectMore(connecting.size()) && !openFailedThisRound;
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
    public long connectRetries() {
        return connectRetries;
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
            failed(c, ErrorClass.CONNECT_TIMEOUT);
        }
        while (!pending.isEmpty()) {
            resolveError(pending.poll(), ErrorClass.CONNECT_TIMEOUT);
        }
    }

    @Override
    public void dispatch(long intendedStartNs, long nowNs) {
        Connection connection = idle.pollLast();
        if (connection != null) {
            send(connection, intendedStartNs);
        } else if (!pending.offer(intendedStartNs, nowNs)) {
            // The queue is full: the rate outran what this loop can send. Never sent, so never timed.
            judge.dropped(intendedStartNs);
        }
    }

    /** With {@code withRequest}, the connection carries that request (closed loop); else it serves the waiting ones. */
    private void openConnection(long intendedStartNs, boolean withRequest, long nowNs) {
        try {
            long socketsBefore = dialer.opened();
            Connection connection = io.open();
            boolean connected = connection.state != Connection.CONNECTING;
            connection.hasRequest = withRequest;
            connection.intendedStartNs = intendedStartNs;
            openConnections++;
            connectionsPeak = Math.max(connectionsPeak, openConnections);
            if (dialer.opened() > socketsBefore) {
                counters.connectionOpened(nowNs);
            }
            if (connected) {
                dialer.timings().ready(0);
                onConnected(connection);
            } else {
                connection.deadlineNs = nowNs + connectTimeoutNs;
                connecting.addLast(connection);
            }
        } catch (IOException e) {
            // Refused at once (or no local port left): a request fails and the loop backs off a little.
            openFailedThisRound = true;
            connectBackoffUntilNs = nowNs + BACKOFF_NS;
            if (withRequest) {
                resolveError(intendedStartNs, ConnectionIo.connectError(e));
            } else if (!pending.isEmpty()) {
                resolveError(pending.poll(), ConnectionIo.connectError(e));
            }
        }
    }

    @Override
    public void connected(Connection connection) {
        connecting.remove(connection);
        long connectNs = Math.clamp(System.nanoTime() - connectStartNs(connection), 0, LatencyRecorder.HIGHEST_TRACKABLE_NS);
        dialer.timings().ready(connectNs);
        opening.onConnected(connectNs);
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
        busy.addLast(connection);
        judge.sent(intendedStartNs);
        judge.lag(intendedStartNs, sendNs);
        io.write(connection);
    }

    @Override
    public void answered(Connection connection, long endNs, int status, boolean bodyMatches, boolean mustClose) {
        busy.remove(connection);
        opening.onServiceTime(endNs - connection.sendNs, endNs);
        connection.hasRequest = false;
        judge.answered(connection.intendedStartNs, connection.sendNs, endNs, status, bodyMatches);
        if (mustClose) {
            close(connection);
        } else {
            onIdle(connection, endNs);
        }
    }

    private void onIdle(Connection connection, long nowNs) {
        connection.state = Connection.IDLE;
        if (!pending.isEmpty()) {
            send(connection, pending.poll());
        } else if (driver.nextOnFreed(nowNs)) {
            send(connection, nowNs);
        } else {
            idle.addLast(connection);
        }
    }

    private void expire(long nowNs) {
        for (Connection c = connecting.first(); c != null && c.deadlineNs <= nowNs; c = connecting.first()) {
            failed(c, ErrorClass.CONNECT_TIMEOUT);
        }
        for (Connection c = busy.first(); c != null && c.deadlineNs <= nowNs; c = busy.first()) {
            failed(c, ErrorClass.RESPONSE_TIMEOUT);
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
        if (nowNs < connectBackoffUntilNs && openConnections < opening.poolTarget()) {
            wakeNs = Math.min(wakeNs, connectBackoffUntilNs);
        }
        if (opening.mayGrow(pending.size(), connecting.size(), openConnections)) {
            wakeNs = Math.min(wakeNs, opening.nextGrowNs(pending.oldestQueuedAtNs()));
        }
        return wakeNs;
    }

    @Override
    public void failed(Connection connection, ErrorClass errorClass) {
        boolean wasConnecting = connection.state == Connection.CONNECTING;
        if (wasConnecting && errorClass == ErrorClass.CONNECT_TIMEOUT && driver.retriesConnectTimeouts()) {
            retryConnect(connection);
            return;
        }
        boolean hadRequest = connection.hasRequest;
        if (hadRequest) {
            connection.hasRequest = false;
            resolveError(connection.intendedStartNs, errorClass);
        }
        close(connection);
        if (wasConnecting && !hadRequest) {
            connectBackoffUntilNs = System.nanoTime() + BACKOFF_NS;
            // A connection opened for the waiting requests failed: the oldest of them fails with it, once.
            if (opening.perWaitingRequest() ? pending.size() > connecting.size() : !pending.isEmpty()) {
                resolveError(pending.poll(), errorClass);
            }
        }
    }

    /**
     * A connect that timed out, tried again: its request (if it carried one) waits again with its intended start,
     * and the waiting requests get a connection anew by the policy.
     */
    private void retryConnect(Connection connection) {
        connectRetries++;
        if (connection.hasRequest) {
            connection.hasRequest = false;
            if (!pending.offer(connection.intendedStartNs, System.nanoTime())) {
                judge.dropped(connection.intendedStartNs);
            }
        }
        close(connection);
    }

    private void resolveError(long intendedStartNs, ErrorClass errorClass) {
        judge.failed(intendedStartNs, errorClass, System.nanoTime());
    }

    @Override
    public void close(Connection connection) {
        if (connection.state == Connection.CLOSED) {
            return;
        }
        if (connection.list != null) {
            connection.list.remove(connection);
        }
        connection.state = Connection.CLOSED;
        io.release(connection);
        openConnections--;
    }

    private void abortOutstanding() {
        phases.abort();
        for (Connection c = connecting.first(); c != null; c = connecting.first()) {
            failed(c, ErrorClass.CONNECT_TIMEOUT);
        }
        for (Connection c = busy.first(); c != null; c = busy.first()) {
            failed(c, ErrorClass.RESPONSE_TIMEOUT);
        }
        while (!pending.isEmpty()) {
            resolveError(pending.poll(), ErrorClass.RESPONSE_TIMEOUT);
        }
    }

    private void closeAll() {
        wait.close();
        for (Connection c = idle.first(); c != null; c = idle.first()) {
            close(c);
        }
        abortOutstanding();
        dialer.traffic().round(busy.size(), System.nanoTime());
        for (SelectionKey key : selector.keys()) {
            ConnectionIo.closeQuietly(key.channel());
        }
        ConnectionIo.closeQuietly(selector);
    }
}
