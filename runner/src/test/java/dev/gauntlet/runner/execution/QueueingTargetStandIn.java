package dev.gauntlet.runner.execution;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.gauntlet.api.AdminProtocol;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Executors;

/**
 * A target JVM for {@link TargetDrainIT}, started as the runner starts a catalogue target: it prints
 * {@code READY port=P admin=A} as {@code TargetMain} does. Its {@code /stats} say {@code inFlight}
 * 0 whatever it is doing, as a server whose count leaves out its worker queue does, and its
 * {@code /hello} answers only after the given delay, as a request behind such a queue would.
 *
 * <pre>{@code
 * java -cp target/test-classes dev.gauntlet.runner.execution.QueueingTargetStandIn 1500
 * }</pre>
 */
final class QueueingTargetStandIn {
    private QueueingTargetStandIn() {
    }

    static void main(String[] args) throws IOException {
        long answerAfterMs = Long.parseLong(args[0]);
        InetAddress loopback = InetAddress.getLoopbackAddress();
        HttpServer serving = HttpServer.create(new InetSocketAddress(loopback, 0), 0);
        serving.setExecutor(Executors.newVirtualThreadPerTaskExecutor());
        serving.createContext("/hello", exchange -> {
            try {
                // The queue in front of this request: what the drain's probe is there to wait out.
                Thread.sleep(answerAfterMs);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            respond(exchange, "hello");
        });
        HttpServer admin = HttpServer.create(new InetSocketAddress(loopback, 0), 0);
        admin.createContext(AdminProtocol.STATS, exchange -> respond(exchange, "{\"inFlight\":0,\"maxInFlight\":0}"));
        serving.start();
        admin.start();
        System.out.println("READY port=" + serving.getAddress().getPort() + " admin=" + admin.getAddress().getPort());
    }

    private static void respond(HttpExchange exchange, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(200, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
