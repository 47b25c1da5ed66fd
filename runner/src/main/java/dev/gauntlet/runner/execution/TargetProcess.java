package dev.gauntlet.runner.execution;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.AdminProtocol;
import dev.gauntlet.api.AdminToken;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.TargetCatalogue.TargetEntry;
import dev.gauntlet.loadgen.split.JavaCommand;
import dev.gauntlet.runner.UserError;
import dev.gauntlet.runner.isolation.PlacedProcess;
import dev.gauntlet.runner.isolation.RolePlacement;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
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
import java.util.Map;
import java.util.Optional;
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
 * try (TargetProcess target = TargetProcess.start(command, adminToken, isolation.target(), entry, log, Duration.ofSeconds(20))) {
 *     URI hello = target.uri("/hello?wait=100");
 *     target.resetStats();
 *     ...
 * }   // SIGTERM, then a kill if it has not exited within 5 s
 * }</pre>
 *
 * Everything the target prints goes to its log file; the last lines are quoted when it fails.
 * A runner that exits, by a signal too, stops its targets the same way ({@link ProcessStopper}).
 */
public final class TargetProcess implements AutoCloseable {
    private static final Pattern READY = Pattern.compile("READY port=(\\d+) admin=(\\d+)");
    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
    private static final int QUOTED_LOG_LINES = 5;
    /** How long the liveness probe of the serving port may take to connect and answer, together. */
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(10);

    private final TargetEntry entry;
    private final RolePlacement placement;
    private final PlacedProcess placed;
    private final Process process;
    private final ProcessStopper stopper;
    private final String host;
    private final int port;
    private final int adminPort;
    private final String adminToken;
    private final Deque<String> lastLines;
    private final HttpClient admin = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    private TargetProcess(TargetEntry entry, RolePlacement placement, PlacedProcess placed, ProcessStopper stopper, int port,
                          int adminPort, String adminToken, Deque<String> lastLines) {
        this.entry = entry;
        this.placement = placement;
        this.placed = placed;
        this.process = placed.process();
        this.stopper = stopper;
        this.host = placement.host();
        this.port = port;
        this.adminPort = adminPort;
        this.adminToken = adminToken;
        this.lastLines = lastLines;
    }

    /**
     * Starts the target in its placement and waits for its READY line; a target that dies or stays
     * silent is a {@link UserError}. It is reached at the placement's host, and resets its counts
     * for {@code adminToken} only, given in its environment (the placement's prefixes pass it on).
     */
    static TargetProcess start(JavaCommand command, String adminToken, RolePlacement placement, TargetEntry entry, Path log,
                               Duration readyTimeout) {
        PlacedProcess placed;
        try {
            Files.createDirectories(log.getParent());
            ProcessBuilder builder = new ProcessBuilder(command.toArgv()).redirectErrorStream(true);
            builder.environment().put(AdminToken.VARIABLE, adminToken);
            placed = placement.start(builder);
        } catch (IOException e) {
            throw new UserError("target " + entry.name() + " could not be started: " + e.getMessage());
        }
        Process process = placed.process();
        ProcessStopper stopper = ProcessStopper.atRunnerExit(process, STOP_TIMEOUT);
        Deque<String> lastLines = new ArrayDeque<>();
        CompletableFuture<Matcher> ready = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("target-log-" + entry.name())
                .start(() -> copyOutput(process, log, lastLines, ready));
        try {
            Matcher m = ready.get(readyTimeout.toMillis(), TimeUnit.MILLISECONDS);
            return new TargetProcess(entry, placement, placed, stopper, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    adminToken, lastLines);
        } catch (TimeoutException | ExecutionException e) {
            stopper.kill();
            if (e instanceof TimeoutException) {
                throw new UserError("target " + entry.name() + " printed no READY line within " + readyTimeout.toSeconds() + " s ("
                        + quote(lastLines) + "); see " + log);
            }
            String exit = exitCodeOf(process);
            Optional<String> memoryKill = placed.memoryKill();
            throw new UserError("target " + entry.name() + " " + memoryKill.map(kill -> "was " + kill).orElse("exited with code " + exit)
                    + " before it was ready (" + quote(lastLines) + "); see " + log, memoryKill.orElse(null));
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

    /** The address the target listens on: 127.0.0.1, or its veth address inside its namespace. */
    String host() {
        return host;
    }

    public long pid() {
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
        String exit = exitCodeOf(process);
        return "target " + entry.name() + " " + placed.memoryKill().map(kill -> "was " + kill + " (exit code " + exit + ")")
                .orElse("exited with code " + exit) + " (" + quote(lastLines) + ")";
    }

    /** The note of a row the target did not survive: {@code target died}, and why when the kernel says. */
    String diedNote() {
        return placed.memoryKill().map(kill -> "target died: " + kill).orElse("target died");
    }

    /** Completes once the target has exited and its cgroups are removed. */
    public CompletableFuture<Boolean> placementRemoved() {
        return placed.cleanedUp();
    }

    /** Where the target runs and what the kernel enforces on it, read back while it runs ({@code isolation.json}). */
    public Map<String, Object> isolation() {
        return placement.readBack(process.pid());
    }

    /**
     * Whether {@code GET /hello} on a new connection to the serving port answers 200 within
     * {@link #PROBE_TIMEOUT}; see {@link #probe(Duration)}.
     */
    boolean answers() {
        return probe(PROBE_TIMEOUT).answered();
    }

    /**
     * What a probe of the serving port found.
     *
     * @param answered whether it answered 200
     * @param timedOut whether it gave no answer, or no connection, within the probe's time
     * @param tookMs   from the start of the connect to the status line, or to the failure
     */
    record Probe(boolean answered, boolean timedOut, long tookMs) {
    }

    /**
     * {@code GET /hello} (no wait) on a new connection to the serving port, connected and answered
     * within {@code timeout} together. A new connection, not a pooled one: a server whose accept
     * loop has stopped (out of file descriptors, say) still answers on the connections it already
     * has, and the kernel still completes the handshake of a new one, so only its answer tells.
     */
    Probe probe(Duration timeout) {
        long startNs = System.nanoTime();
        long deadlineNs = startNs + timeout.toNanos();
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), millisUntil(deadlineNs));
            socket.setSoTimeout(millisUntil(deadlineNs));
            socket.getOutputStream().write(("GET /hello HTTP/1.1\r\nHost: " + host + ":" + port
                    + "\r\nConnection: close\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            String statusLine = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII))
                    .readLine();
            return new Probe(statusLine != null && statusLine.matches("HTTP/1\\.[01] 200( .*)?"), false, millisSince(startNs));
        } catch (SocketTimeoutException e) {
            return new Probe(false, true, millisSince(startNs));
        } catch (IOException e) {
            return new Probe(false, false, millisSince(startNs));
        }
    }

    /** At least 1: a socket timeout of 0 would wait for ever. */
    private static int millisUntil(long deadlineNs) {
        return (int) Math.max(1, Math.min(Integer.MAX_VALUE, TimeUnit.NANOSECONDS.toMillis(deadlineNs - System.nanoTime())));
    }

    private static long millisSince(long startNs) {
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startNs);
    }

    /** {@code GET /stats} on the admin port: the JSON the target serves. */
    String stats() {
        return adminCall(HttpRequest.newBuilder(adminUri(AdminProtocol.STATS)).GET());
    }

    /** A number from a target's {@code /stats} JSON; null when it has no such field. */
    static Long statsField(String statsJson, String field) {
        try {
            JsonNode value = Json.json().readTree(statsJson).get(field);
            return value == null || !value.canConvertToLong() ? null : value.asLong();
        } catch (IOException e) {
            return null;
        }
    }

    String resetStats() {
        return adminCall(HttpRequest.newBuilder(adminUri(AdminProtocol.STATS_RESET))
                .header(AdminProtocol.TOKEN_HEADER, AdminToken.bearer(adminToken))
                .POST(HttpRequest.BodyPublishers.noBody()));
    }

    /** What a generator shows this target to reset its counts; for the generator's environment only. */
    String adminToken() {
        return adminToken;
    }

    /** {@code GET /settings}: the settings in force, recorded with the results. */
    String settings() {
        return adminCall(HttpRequest.newBuilder(adminUri(AdminProtocol.SETTINGS)).GET());
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
