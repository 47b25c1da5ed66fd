package dev.gauntlet.loadgen.split;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A shard's results, served for the runner to copy out of its pod before the pod ends (a pod's
 * log, the other way out, is rotated by its node): {@code GET /results} answers 503 while the shard
 * runs and, once {@link #done()}, 200 with the output directory as one zip ({@link ShardArchive}).
 *
 * <pre>{@code
 * try (ResultsServer results = ResultsServer.start(outputDir, ".ready")) {
 *     System.err.println("results at port " + results.port());
 *     ...                                                     // the run, its files written
 *     results.done();
 * }
 * }</pre>
 *
 * <p>It listens on every address at a port of the system's choosing: the pod shares its node's
 * network, so the runner reaches it at the node's address. One thread answers, one request at a
 * time: the runner's polls are few, and the run's threads keep the CPU.
 */
public final class ResultsServer implements AutoCloseable {
    public static final String PATH = "/results";

    private final HttpServer server;
    private final ExecutorService thread;
    private final Path dir;
    private final String skip;
    private volatile boolean done;

    private ResultsServer(HttpServer server, ExecutorService thread, Path dir, String skip) {
        this.server = server;
        this.thread = thread;
        this.dir = dir;
        this.skip = skip;
    }

    /** Listens at once; {@code skip} is a file of {@code dir} that is not served (the ready file). */
    public static ResultsServer start(Path dir, String skip) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(0), 0);
        ExecutorService thread = Executors.newSingleThreadExecutor(Thread.ofPlatform().name("gauntlet-results").daemon(true)
                .factory());
        ResultsServer results = new ResultsServer(server, thread, dir, skip);
        server.createContext(PATH, results::answer);
        server.setExecutor(thread);
        server.start();
        return results;
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** From now on the directory is served: its files are written and will not change. */
    public void done() {
        done = true;
    }

    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!exchange.getRequestURI().getPath().equals(PATH)) {
                exchange.sendResponseHeaders(404, -1);
            } else if (!exchange.getRequestMethod().equals("GET")) {
                exchange.sendResponseHeaders(405, -1);
            } else if (!done) {
                byte[] running = "the shard is still running\n".getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(503, running.length);
                exchange.getResponseBody().write(running);
            } else {
                exchange.getResponseHeaders().set("Content-Type", "application/zip");
                // Zipped as it is sent, in chunks: a long run's files need not fit in memory twice.
                exchange.sendResponseHeaders(200, 0);
                try (OutputStream body = exchange.getResponseBody()) {
                    ShardArchive.write(dir, skip, body);
                }
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        thread.shutdownNow();
    }
}
