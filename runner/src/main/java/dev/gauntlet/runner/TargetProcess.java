package dev.gauntlet.runner;

import dev.gauntlet.api.TargetCatalogue.TargetEntry;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One running target JVM, from its READY line to its stop.
 *
 * <pre>{@code
 * try (TargetProcess target = TargetProcess.start(command, entry, "127.0.0.1", log, Duration.ofSeconds(20))) {
 *     URI hello = target.uri("/hello?wait=100");
 *     target.resetStats();
 *     ...
 * }   // SIGTERM, then a kill if it has not exited within 5 s
 * }</pre>
 *
 * Everything the target prints goes to its log file; the last lines are quoted when it fails.
 * A runner that exits, by a signal too, stops its targets the same way ({@link ProcessStopper}).
 */
final class TargetProcess implements AutoCloseable {
    private static final Pattern READY = Pattern.compile("READY port=(\\d+) admin=(\\d+)");
    static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
    private static final int QUOTED_LOG_LINES = 5;

    private final TargetEntry entry;
    private final Process process;
    private final ProcessStopper stopper;
    private final String host;
    private final int port;
    private final int adminPort;
    private final Deque<String> lastLines;
    private final HttpClient admin = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private TargetProcess(TargetEntry entry, Process process, ProcessStopper stopper, String host, int port, int adminPort,
                          Deque<String> lastLines) {
        this.entry = entry;
        this.process = process;
        this.stopper = stopper;
        this.host = host;
        this.port = port;
        this.adminPort = adminPort;
        this.lastLines = lastLines;
    }

    /** Starts the target and waits for its READY line; a target that dies or stays silent is a {@link UserError}. */
    static TargetProcess start(JavaCommand command, TargetEntry entry, String host, Path log, Duration readyTimeout) {
        Process process;
        try {
            Files.createDirectories(log.getParent());
            process = new ProcessBuilder(command.toArgv()).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new UserError("target " + entry.name() + " could not be started: " + e.getMessage());
        }
        ProcessStopper stopper = ProcessStopper.atRunnerExit(process, STOP_TIMEOUT);
        Deque<String> lastLines = new ArrayDeque<>();
        CompletableFuture<Matcher> ready = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("target-log-" + entry.name())
                .start(() -> copyOutput(process, log, lastLines, ready));
        try {
            Matcher m = ready.get(readyTimeout.toMillis(), TimeUnit.MILLISECONDS);
            return new TargetProcess(entry, process, stopper, host, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    lastLines);
        } catch (TimeoutException | ExecutionException e) {
            stopper.kill();
            String why = e instanceof TimeoutException
                    ? "printed no READY line within " + readyTimeout.toSeconds() + " s"
                    : "exited with code " + exitCodeOf(process) + " before it was ready";
            throw new UserError("target " + entry.name() + " " + why + " (" + quote(lastLines) + "); see " + log);
        } catch (InterruptedException e) {
            stopper.kill();
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while target " + entry.name() + " was starting");
        }
    }

    TargetEntry entry() {
        return entry;
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    URI uri(String pathAndQuery) {
        return URI.create("http://" + host + ":" + port + pathAndQuery);
    }

    URI adminUri(String path) {
        return URI.create("http://" + host + ":" + adminPort + path);
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** Whether the target has exited, or does within {@code grace}. */
    boolean exitsWithin(Duration grace) {
        try {
            return process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    /** Why the target is gone, for the one-line error of a run it did not survive. */
    String deathNotice() {
        return "target " + entry.name() + " exited with code " + exitCodeOf(process) + " (" + quote(lastLines) + ")";
    }

    /** {@code GET /stats} on the admin port: the JSON the target serves. */
    String stats() {
        return adminCall(HttpRequest.newBuilder(adminUri("/stats")).GET());
    }

    String resetStats() {
        return adminCall(HttpRequest.newBuilder(adminUri("/stats/reset")).POST(HttpRequest.BodyPublishers.noBody()));
    }

    /** {@code GET /settings}: the settings in force, recorded with the results. */
    String settings() {
        return adminCall(HttpRequest.newBuilder(adminUri("/settings")).GET());
    }

    private String adminCall(HttpRequest.Builder request) {
        try {
            HttpResponse<String> response = admin.send(request.timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                throw new UserError("target " + entry.name() + " admin answered " + response.statusCode());
            }
            return response.body();
        } catch (IOException e) {
            throw new UserError("target " + entry.name() + " admin port " + adminPort + " does not answer: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while asking target " + entry.name() + " for its stats");
        }
    }

    /** SIGTERM, then a kill if it has not exited within 5 s. */
    @Override
    public void close() {
        stopper.stop();
    }

    /** Stops the target as {@link #close()} does; whether it exited by itself within 5 s of SIGTERM. */
    boolean terminateGracefully() {
        return stopper.stop();
    }

    private static void copyOutput(Process process, Path log, Deque<String> lastLines, CompletableFuture<Matcher> ready) {
        try (BufferedReader in = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
             PrintWriter out = new PrintWriter(Files.newBufferedWriter(log, StandardCharsets.UTF_8), true)) {
            for (String line; (line = in.readLine()) != null; ) {
                out.println(line);
                synchronized (lastLines) {
                    lastLines.addLast(line);
                    if (lastLines.size() > QUOTED_LOG_LINES) {
                        lastLines.removeFirst();
                    }
                }
                Matcher m = READY.matcher(line);
                if (!ready.isDone() && m.matches()) {
                    ready.complete(m);
                }
            }
        } catch (IOException e) {
            // The pipe breaks when the process dies; the exit code tells the rest.
        }
        ready.completeExceptionally(new IllegalStateException("exited"));
    }

    private static String quote(Deque<String> lastLines) {
        synchronized (lastLines) {
            List<String> lines = List.copyOf(lastLines);
            return lines.isEmpty() ? "no output" : "last output: " + String.join(" | ", lines);
        }
    }

    private static String exitCodeOf(Process process) {
        try {
            return process.waitFor(2, TimeUnit.SECONDS) ? Integer.toString(process.exitValue()) : "?";
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "?";
        }
    }
}
