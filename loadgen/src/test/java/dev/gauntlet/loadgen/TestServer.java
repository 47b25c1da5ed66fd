package dev.gauntlet.loadgen;

import com.sun.net.httpserver.HttpServer;
import dev.gauntlet.api.AdminProtocol;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A small keep-alive HTTP/1.1 server on 127.0.0.1, port 0, one virtual thread per connection:
 * answers {@code hello} the Gauntlet way, or misbehaves as told, or stalls on command. It keeps
 * the heads of the first {@value #KEPT_HEADS} requests it read, for tests of what a client sends. The generator's
 * reachability check ({@code OPTIONS *}) it answers at once and leaves out of every count, as a server answers it
 * outside its handlers.
 * Public, in loadgen's test-jar, for the client engines' {@link ClientEngineContract}.
 */
public final class TestServer implements AutoCloseable {
    /** Request heads kept at most: enough to see that every request is the same, bounded under load. */
    static final int KEPT_HEADS = 100;
    static final byte[] HELLO = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello")
            .getBytes(StandardCharsets.US_ASCII);
    private static final byte[] OPTIONS_ANSWER = "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

    /**
     * {@code RESET_ON_REUSE}: each connection's first request is answered, its second is read and reset.
     * {@code INTERIM_THEN_HELLO}: {@code 100 Continue} and {@code 103 Early Hints}, each sent on its own, then hello.
     */
    public enum Behaviour {
        HELLO, REFUSE, NEVER_ACCEPT, RESET, RESET_ON_REUSE, GARBAGE, CLOSE_MID_BODY, WRONG_STATUS, WRONG_BODY, NEVER_ANSWER,
        INTERIM_THEN_HELLO, CONFLICTING_LENGTHS, SWITCHING_PROTOCOLS
    }

    private final ServerSocket server;
    private final Behaviour behaviour;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Set<InetAddress> clientAddresses = ConcurrentHashMap.newKeySet();
    private final AtomicLong requests = new AtomicLong();
    private final AtomicInteger connections = new AtomicInteger();
    private final AtomicLong completed = new AtomicLong();
    private final AtomicLong inFlight = new AtomicLong();
    private final AtomicLong maxInFlight = new AtomicLong();
    private final Queue<String> heads = new ConcurrentLinkedQueue<>();
    private volatile CountDownLatch stall = new CountDownLatch(0);
    private volatile long signalAtRequest = -1;
    private volatile CountDownLatch requestSignal = new CountDownLatch(1);
    private volatile long stallAtRequest = -1;
    private volatile long stallMs;
    private volatile long stallAllAtRequest = -1;
    private volatile long stallAllMs;
    private volatile long stallAllUntilNs;
    private volatile long answerAfterMs;
    private volatile long pauseAcceptsMs;
    private volatile long acceptsResumeAtNs;
    private volatile WarmUp warmUp;
    private volatile long failEvery;
    private volatile Behaviour failAs = Behaviour.HELLO;
    private HttpServer admin;

    public TestServer(Behaviour behaviour) throws IOException {
        // NEVER_ACCEPT: a backlog of one that nobody drains, so later connection attempts go unanswered.
        this(behaviour, behaviour == Behaviour.NEVER_ACCEPT ? 1 : 1_000);
    }

    private TestServer(Behaviour behaviour, int backlog) throws IOException {
        this.behaviour = behaviour;
        this.server = new ServerSocket(0, backlog, InetAddress.getLoopbackAddress());
        if (behaviour != Behaviour.NEVER_ACCEPT) {
            Thread.ofVirtual().start(this::accept);
        }
    }

    public static TestServer hello() throws IOException {
        return new TestServer(Behaviour.HELLO);
    }

    /**
     * A hello server whose listen backlog holds {@code backlog} connections not yet accepted: while it does not
     * accept ({@link #pauseAcceptsAtFirstRequest}), the kernel drops the connects beyond them.
     */
    static TestServer helloWithBacklog(int backlog) throws IOException {
        return new TestServer(Behaviour.HELLO, backlog);
    }

    public URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + server.getLocalPort() + pathAndQuery);
    }

    /** Requests read, each counted once whatever the server did with it. */
    public long requests() {
        return requests.get();
    }

    /** The first {@value #KEPT_HEADS} request heads as they arrived (ISO-8859-1), each ending with its blank line. */
    public List<String> heads() {
        return List.copyOf(heads);
    }

    /** A latch that opens when the server receives its {@code count}-th request; call it before the load starts. */
    CountDownLatch signalAtRequest(long count) {
        requestSignal = new CountDownLatch(1);
        signalAtRequest = count;
        return requestSignal;
    }

    /** Connections accepted, the generator's reachability check included. */
    public int connections() {
        return connections.get();
    }

    /** The addresses connections came from. */
    Set<InetAddress> clientAddresses() {
        return Set.copyOf(clientAddresses);
    }

    /** From now on no request is answered until {@link #resume()}. */
    void stall() {
        stall = new CountDownLatch(1);
    }

    void resume() {
        stall.countDown();
    }

    /** The request with this number (1 for the first) is held for {@code ms} before it is answered, once. */
    void stallOnce(long atRequest, long ms) {
        stallMs = ms;
        stallAtRequest = atRequest;
    }

    /**
     * From the arrival of request {@code atRequest} on, for {@code ms}, every request (that one
     * included) is held until that time is over, once: the whole server stalls, as in a GC pause.
     */
    void stallAllAt(long atRequest, long ms) {
        stallAllMs = ms;
        stallAllAtRequest = atRequest;
    }

    /**
     * From the arrival of the first request on, for {@code ms}, no connection is accepted (one already waiting in
     * {@code accept} still is): a server whose acceptor stalls, as in a GC pause.
     */
    void pauseAcceptsAtFirstRequest(long ms) {
        pauseAcceptsMs = ms;
    }

    /** Every request is answered {@code ms} after it arrived, as a server that takes that long would. */
    void answerAfter(long ms) {
        answerAfterMs = ms;
    }

    /**
     * From now on each request is answered after a time that falls in a straight line from
     * {@code fromMs} to {@code toMs} over {@code overMs}, then stays at {@code toMs}: a server that
     * warms up, as a JIT does, over a known time.
     */
    void warmUpOver(long fromMs, long toMs, long overMs) {
        warmUp = new WarmUp(System.nanoTime(), fromMs, toMs, overMs);
    }

    /** A falling answer time: {@link #warmUpOver}. */
    private record WarmUp(long startNs, long fromMs, long toMs, long overMs) {
        long answerAfterNs(long nowNs) {
            double done = Math.min(1, (nowNs - startNs) / 1e6 / overMs);
            return (long) ((fromMs + (toMs - fromMs) * done) * 1_000_000);
        }
    }

    /**
     * Every {@code n}-th request (the {@code n}-th, the {@code 2n}-th, ...) is answered as a server
     * with behaviour {@code how} would answer it, whatever the server's own behaviour; call it before the load starts.
     */
    void failEvery(long n, Behaviour how) {
        failAs = how;
        failEvery = n;
    }

    /** Serves {@code GET /stats} as a Gauntlet target's admin port does; returns its base URL. */
    URI startAdmin() throws IOException {
        admin = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 10);
        admin.createContext(AdminProtocol.STATS, exchange -> {
            byte[] body = ("{\"started\":" + requests.get() + ",\"completed\":" + completed.get() + ",\"inFlight\":"
                    + inFlight.get() + ",\"maxInFlight\":" + maxInFlight.get() + ",\"errors\":0,\"extra\":true}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        admin.start();
        return URI.create("http://127.0.0.1:" + admin.getAddress().getPort());
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                sleepUntil(acceptsResumeAtNs);
                Socket socket = server.accept();
                sockets.add(socket);
                clientAddresses.add(socket.getInetAddress());
                connections.incrementAndGet();
                Thread.ofVirtual().start(() -> serve(socket));
            } catch (IOException | InterruptedException e) {
                return;
            }
        }
    }

    private void serve(Socket socket) {
        try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
            socket.setTcpNoDelay(true);
            if (behaviour == Behaviour.REFUSE) {
                // Only the generator's reachability check gets in; everything after is refused.
                server.close();
                return;
            }
            boolean reused = false;
            for (String head; (head = readRequest(in)) != null; reused = true) {
                if (head.startsWith("OPTIONS * ")) {
                    out.write(OPTIONS_ANSWER);
                    out.flush();
                    continue;
                }
                long number = requests.incrementAndGet();
                if (number <= KEPT_HEADS) {
                    heads.add(head);
                }
                if (number == 1 && pauseAcceptsMs > 0) {
                    acceptsResumeAtNs = System.nanoTime() + pauseAcceptsMs * 1_000_000;
                }
                if (number == signalAtRequest) {
                    requestSignal.countDown();
                }
                maxInFlight.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
                long arrivedNs = System.nanoTime();
                stall.await();
                if (number == stallAtRequest) {
                    Thread.sleep(stallMs);
                }
                if (number == stallAllAtRequest) {
                    stallAllUntilNs = arrivedNs + stallAllMs * 1_000_000;
                }
                WarmUp warming = warmUp;
                long answerAfterNs = warming == null ? answerAfterMs * 1_000_000 : warming.answerAfterNs(arrivedNs);
                sleepUntil(Math.max(stallAllUntilNs, arrivedNs + answerAfterNs));
                inFlight.decrementAndGet();
                completed.incrementAndGet();
                switch (failEvery > 0 && number % failEvery == 0 ? failAs : behaviour) {
                    case HELLO, REFUSE, NEVER_ACCEPT -> out.write(HELLO);
                    case RESET -> {
                        socket.setSoLinger(true, 0);
                        return;
                    }
                    case RESET_ON_REUSE -> {
                        if (reused) {
                            socket.setSoLinger(true, 0);
                            return;
                        }
                        out.write(HELLO);
                    }
                    case GARBAGE -> out.write("SPDY/9 who knows\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    case CLOSE_MID_BODY -> {
                        out.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhe".getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        return;
                    }
                    case WRONG_STATUS -> out.write("HTTP/1.1 500 Oops\r\nContent-Length: 5\r\n\r\nhello".getBytes(StandardCharsets.US_ASCII));
                    case WRONG_BODY -> out.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhellx".getBytes(StandardCharsets.US_ASCII));
                    case NEVER_ANSWER -> {
                        in.read();
                        return;
                    }
                    case INTERIM_THEN_HELLO -> {
                        out.write("HTTP/1.1 100 Continue\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        out.write("HTTP/1.1 103 Early Hints\r\nLink: </hello.css>; rel=preload\r\n\r\n"
                                .getBytes(StandardCharsets.US_ASCII));
                        out.flush();
                        out.write(HELLO);
                    }
                    case CONFLICTING_LENGTHS -> out.write("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 2\r\n\r\nhello"
                            .getBytes(StandardCharsets.US_ASCII));
                    case SWITCHING_PROTOCOLS -> out.write("HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n"
                            .getBytes(StandardCharsets.US_ASCII));
                }
                out.flush();
            }
        } catch (IOException | InterruptedException e) {
            // The client went away or the server is closing.
        } finally {
            sockets.remove(socket);
        }
    }

    private static void sleepUntil(long untilNs) throws InterruptedException {
        for (long leftNs = untilNs - System.nanoTime(); leftNs > 0; leftNs = untilNs - System.nanoTime()) {
            Thread.sleep(leftNs / 1_000_000, (int) (leftNs % 1_000_000));
        }
    }

    /** Reads one request head (the generator sends no body); null at end of stream. */
    private static String readRequest(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder(128);
        int matched = 0;
        while (matched < 4) {
            int b = in.read();
            if (b < 0) {
                return null;
            }
            head.append((char) b);
            matched = (b == '\r' && (matched == 0 || matched == 2)) || (b == '\n' && (matched == 1 || matched == 3)) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        return head.toString();
    }

    @Override
    public void close() throws IOException {
        resume();
        if (admin != null) {
            admin.stop(0);
        }
        server.close();
        for (Socket socket : sockets) {
            socket.close();
        }
    }

    static InetSocketAddress unusedAddress() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return new InetSocketAddress("127.0.0.1", probe.getLocalPort());
        }
    }
}
