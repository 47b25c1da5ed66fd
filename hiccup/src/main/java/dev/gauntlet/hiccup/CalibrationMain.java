package dev.gauntlet.hiccup;

import org.HdrHistogram.Histogram;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

/**
 * One side of the platform calibration the runner does before a suite, each side a JVM pinned
 * to one role's CPUs. Both measure their hiccups and their CPUs' capacity ({@link CapacityLog}) for
 * the same seconds while a small message goes back and forth between them every 2 ms, over 127.0.0.1 or, with {@code --bind}/{@code --host},
 * another address (the target's veth in its network namespace):
 *
 * <pre>
 * taskset -c 0 java -cp ... dev.gauntlet.hiccup.CalibrationMain echo --seconds 10   prints READY port=P, then RESULT {...}
 * taskset -c 1 java -cp ... dev.gauntlet.hiccup.CalibrationMain ping --port P --seconds 10          prints RESULT {...}
 * taskset -c 1 java -cp ... dev.gauntlet.hiccup.CalibrationMain meter --seconds 10    no round trips, beside another program
 * ip netns exec NS java ... CalibrationMain echo --bind 198.18.0.2 --seconds 10
 * java ... CalibrationMain ping --host 198.18.0.2 --port P --loopback-port P2 --seconds 10   alternates with a loopback echo
 * </pre>
 *
 * <p>{@code RESULT} is one line of JSON: {@code hiccups} (and for ping {@code roundTrip}, and
 * {@code loopbackRoundTrip} with {@code --loopback-port}), each with {@code count, meanMs, p50Ms,
 * p90Ms, p99Ms, p999Ms, p9999Ms, maxMs}; and {@code capacity}: each whole second's index, the
 * seconds' median {@code probeUs}, mean {@code stolenShare} and mean {@code foreignShare}
 * ({@link CapacityJson}). Bad arguments: one line on stderr, exit 2.
 */
public final class CalibrationMain {
    /** Between round trips: the pair stays nearly idle, as a quiet machine would be. */
    private static final Duration PING_GAP = Duration.ofMillis(2);

    private CalibrationMain() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        ParentWatch.start();
        String role = args.length > 0 ? args[0] : "";
        int port = 0;
        int loopbackPort = 0;
        InetAddress address = InetAddress.getLoopbackAddress();
        long seconds = 10;
        for (int i = 1; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--loopback-port" -> loopbackPort = Integer.parseInt(args[i + 1]);
                case "--bind", "--host" -> address = InetAddress.getByName(args[i + 1]);
                case "--seconds" -> seconds = Long.parseLong(args[i + 1]);
                default -> fail("unknown argument " + args[i]);
            }
        }
        try (CapacityLog capacity = CapacityLog.start(); HiccupMeter meter = HiccupMeter.start()) {
            // After the probe's warm-up, so that each role's seconds are whole.
            long endNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            String roundTrips = switch (role) {
                case "echo" -> {
                    echo(address, endNs);
                    yield "";
                }
                case "meter" -> {
                    // Beside another program on the same CPUs (a peer in a benchmark): no round trips.
                    long remainingNs = endNs - System.nanoTime();
                    if (remainingNs > 0) {
                        Thread.sleep(Duration.ofNanos(remainingNs));
                    }
                    yield "";
                }
                case "ping" -> {
                    Histogram[] roundTripNs = ping(address, port, loopbackPort, endNs);
                    yield ",\"roundTrip\":" + json(roundTripNs[0])
                            + (loopbackPort > 0 ? ",\"loopbackRoundTrip\":" + json(roundTripNs[1]) : "");
                }
                default -> {
                    fail("usage: CalibrationMain echo [--bind ADDR] --seconds S"
                            + " | ping [--host ADDR] --port P [--loopback-port P2] --seconds S | meter --seconds S");
                    yield "";
                }
            };
            System.out.println("RESULT {\"hiccups\":" + json(meter.intervalHistogram()) + roundTrips
                    + ",\"capacity\":" + CapacityJson.of(capacity.seconds()) + "}");
        }
    }

    /** Answers every byte with itself until the pinger hangs up or the time is over. */
    private static void echo(InetAddress bind, long endNs) throws IOException {
        try (ServerSocket server = new ServerSocket(0, 1, bind)) {
            System.out.println("READY port=" + server.getLocalPort());
            System.out.flush();
            server.setSoTimeout((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(endNs - System.nanoTime()) + 5_000));
            try (Socket socket = server.accept(); InputStream in = socket.getInputStream(); OutputStream out = socket.getOutputStream()) {
                socket.setTcpNoDelay(true);
                for (int b = in.read(); b >= 0; b = in.read()) {
                    out.write(b);
                }
            }
        }
    }

    /**
     * Round trips to {@code host:port}, and, given a loopback port, alternately to that echo over
     * 127.0.0.1, so both paths are measured in the same seconds on the same CPUs.
     */
    private static Histogram[] ping(InetAddress host, int port, int loopbackPort, long endNs) throws IOException, InterruptedException {
        Histogram[] roundTripNs = {new Histogram(1, HiccupMeter.HIGHEST_TRACKABLE_NS, 3),
                new Histogram(1, HiccupMeter.HIGHEST_TRACKABLE_NS, 3)};
        Socket[] sockets = {connect(host, port), loopbackPort > 0 ? connect(InetAddress.getLoopbackAddress(), loopbackPort) : null};
        try {
            for (int i = 0; System.nanoTime() < endNs; i++) {
                int path = sockets[1] == null ? 0 : i % 2;
                long sentNs = System.nanoTime();
                sockets[path].getOutputStream().write(1);
                if (sockets[path].getInputStream().read() < 0) {
                    break;
                }
                roundTripNs[path].recordValue(Math.min(System.nanoTime() - sentNs, HiccupMeter.HIGHEST_TRACKABLE_NS));
                Thread.sleep(PING_GAP);
            }
        } finally {
            for (Socket socket : sockets) {
                if (socket != null) {
                    socket.close();
                }
            }
        }
        return roundTripNs;
    }

    private static Socket connect(InetAddress host, int port) throws IOException {
        Socket socket = new Socket(host, port);
        socket.setTcpNoDelay(true);
        return socket;
    }

    /** The fields of Gauntlet's {@code Percentiles}, in ms. */
    private static String json(Histogram ns) {
        if (ns.getTotalCount() == 0) {
            return "{\"count\":0,\"meanMs\":0,\"p50Ms\":0,\"p90Ms\":0,\"p99Ms\":0,\"p999Ms\":0,\"p9999Ms\":0,\"maxMs\":0}";
        }
        return String.format(Locale.ROOT, "{\"count\":%d,\"meanMs\":%.6f,\"p50Ms\":%.6f,\"p90Ms\":%.6f,\"p99Ms\":%.6f,"
                        + "\"p999Ms\":%.6f,\"p9999Ms\":%.6f,\"maxMs\":%.6f}", ns.getTotalCount(), ns.getMean() / 1e6,
                ms(ns, 50), ms(ns, 90), ms(ns, 99), ms(ns, 99.9), ms(ns, 99.99), ns.getMaxValue() / 1e6);
    }

    private static double ms(Histogram ns, double percentile) {
        return ns.getValueAtPercentile(percentile) / 1e6;
    }

    private static void fail(String message) {
        System.err.println("calibration: " + message);
        System.exit(2);
    }
}
