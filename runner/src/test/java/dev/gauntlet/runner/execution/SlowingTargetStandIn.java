package dev.gauntlet.runner.execution;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * A target that slows itself down, whatever its machine does: each answer costs CPU time of
 * {@value #BASE_MICROS} µs at its start, {@value #BASE_MICROS} µs more for every
 * {@value #RAMP_MS} ms it has been up. Its throughput falls steadily on CPUs whose capacity holds:
 * the target's own drift, about 40 % between the halves of CapacityVerdictIT's measured phase, so that a
 * step of the shared host's own capacity (a tenth to a quarter, within seconds) cannot explain most of it.
 * At 50 µs every 4 s it fell 14 % on a host whose capacity fell 12 % meanwhile, which did explain it. Started by {@code TargetMain --server} from the test classpath, so it has the
 * admin port, hiccup and capacity logs of every target; one platform thread a connection.
 */
public final class SlowingTargetStandIn implements HelloServer {
    static final long BASE_MICROS = 100;
    static final long RAMP_MS = 2_000;
    private static final byte[] HELLO = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: "
            + HelloContract.BODY_BYTES.length + "\r\n\r\n" + HelloContract.BODY).getBytes(StandardCharsets.US_ASCII);

    private final ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    private final long startNs = System.nanoTime();
    private ServerSocket listener;

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws IOException {
        listener = new ServerSocket();
        listener.bind(new InetSocketAddress(settings.bind(), settings.port()), settings.backlog());
        Thread.ofPlatform().daemon().name("slowing-accept").start(() -> {
            try {
                while (true) {
                    Socket socket = listener.accept();
                    socket.setTcpNoDelay(true);
                    Thread.ofPlatform().daemon().start(() -> serve(socket, stats));
                }
            } catch (IOException closed) {
                // Stopped.
            }
        });
        return listener.getLocalPort();
    }

    private void serve(Socket socket, RequestStats stats) {
        try (socket; InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
            while (readHead(in)) {
                stats.begin();
                spinCpu(BASE_MICROS * 1_000 * (1 + (System.nanoTime() - startNs) / (RAMP_MS * 1_000_000)));
                out.write(HELLO);
                out.flush();
                stats.complete();
            }
        } catch (IOException e) {
            // The client went away.
        }
    }

    /** CPU time, not wall time: on a shared CPU the answer costs the same work and takes longer. */
    private void spinCpu(long cpuNs) {
        long endNs = threads.getCurrentThreadCpuTime() + cpuNs;
        while (threads.getCurrentThreadCpuTime() < endNs) {
            Thread.onSpinWait();
        }
    }

    /** Reads one request head (a GET has no body); false at the end of the stream. */
    private static boolean readHead(InputStream in) throws IOException {
        int matched = 0;
        for (int b = in.read(); b >= 0; b = in.read()) {
            matched = b == "\r\n\r\n".charAt(matched) ? matched + 1 : (b == '\r' ? 1 : 0);
            if (matched == 4) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void stop() throws IOException {
        listener.close();
    }
}
