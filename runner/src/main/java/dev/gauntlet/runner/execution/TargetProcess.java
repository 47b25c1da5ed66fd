package dev.gauntlet.runner.execution;

import dev.gauntlet.api.AdminToken;
import dev.gauntlet.api.Protocol;
import dev.gauntlet.api.TargetCatalogue.TargetEntry;
import dev.gauntlet.loadgen.split.JavaCommand;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.isolation.PlacedProcess;
import dev.gauntlet.runner.isolation.RolePlacement;
import dev.gauntlet.runner.metrics.JfrRecording;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One running target JVM, from its READY line to its stop.
 *
 * <pre>{@code
 * try (TargetProcess target = TargetProcess.start(command, adminToken, isolation.target(), entry, Protocol.HTTP1, log, Duration.ofSeconds(20))) {
 *     URI hello = target.endpoint().uri("/hello?wait=100");
 *     target.endpoint().resetStats();
 *     ...
 * }   // SIGTERM, then a kill if it has not exited within 5 s
 * }</pre>
 *
 * Everything the target prints goes to its log file; the last lines are quoted when it fails.
 * A runner that exits, by a signal too, stops its targets the same way ({@link ProcessStopper}).
 */
public final class TargetProcess implements SuiteTarget {
    private static final Pattern READY = Pattern.compile("READY port=(\\d+) admin=(\\d+)");
    /** TargetMain's line before READY when it serves TLS: the PEM file of its certificate. */
    private static final String CERTIFICATE_LINE_PREFIX = "TLS certificate=";
    /** TargetMain's line before READY for each protocol of {@code --also}: the port another instance serves it on. */
    private static final Pattern ALSO = Pattern.compile("ALSO (\\S+) port=(\\d+)");
    private static final int QUOTED_LOG_LINES = 5;

    private final TargetEntry entry;
    private final RolePlacement placement;
    private final PlacedProcess placed;
    private final Process process;
    private final ProcessStopper stopper;
    private final TargetEndpoint endpoint;
    private final Deque<String> lastLines;
    private final Path certificate;
    private final Map<Protocol, Integer> alsoPorts;

    private TargetProcess(TargetEntry entry, RolePlacement placement, PlacedProcess placed, ProcessStopper stopper, int port,
                          int adminPort, String adminToken, Deque<String> lastLines, Protocol protocol, BeforeReady beforeReady) {
        this.entry = entry;
        this.placement = placement;
        this.placed = placed;
        this.process = placed.process();
        this.stopper = stopper;
        this.endpoint = new TargetEndpoint(entry.name(), placement.host(), port, adminPort, adminToken)
                .speaking(protocol, beforeReady.certificate);
        this.lastLines = lastLines;
        this.certificate = beforeReady.certificate;
        this.alsoPorts = Map.copyOf(beforeReady.alsoPorts);
    }

    /** What TargetMain says before its READY line: its certificate's PEM, the ports of {@code --also}'s protocols. */
    private static final class BeforeReady {
        volatile Path certificate;
        final Map<Protocol, Integer> alsoPorts = new ConcurrentHashMap<>();

        /** Takes {@code line} when it is one of these. */
        void read(String line) {
            if (line.startsWith(CERTIFICATE_LINE_PREFIX)) {
                certificate = Path.of(line.substring(CERTIFICATE_LINE_PREFIX.length()));
            }
            Matcher also = ALSO.matcher(line);
            if (also.matches()) {
                alsoPorts.put(Protocol.fromLabel(also.group(1)), Integer.parseInt(also.group(2)));
            }
        }
    }

    /**
     * Starts the target in its placement and waits for its READY line; a target that dies or stays
     * silent is a {@link UserError}. It is reached at the placement's host, and resets its counts
     * for {@code adminToken} only, given in its environment (the placement's prefixes pass it on).
     */
    static TargetProcess start(JavaCommand command, String adminToken, RolePlacement placement, TargetEntry entry,
                               Protocol protocol, Path log, Duration readyTimeout) {
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
        ProcessStopper stopper = ProcessStopper.atRunnerExit(process, PlacedProcess.STOP_TIMEOUT);
        Deque<String> lastLines = new ArrayDeque<>();
        CompletableFuture<Matcher> ready = new CompletableFuture<>();
        BeforeReady beforeReady = new BeforeReady();
        Thread.ofPlatform().daemon().name("target-log-" + entry.name())
                .start(() -> copyOutput(process, log, lastLines, beforeReady, ready));
        try {
            Matcher m = ready.get(readyTimeout.toMillis(), TimeUnit.MILLISECONDS);
            return new TargetProcess(entry, placement, placed, stopper, Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)),
                    adminToken, lastLines, protocol, beforeReady);
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

    @Override
    public TargetEntry entry() {
        return entry;
    }

    @Override
    public TargetEndpoint endpoint() {
        return endpoint;
    }

    /** The PEM file of the certificate it serves TLS with, while it runs; empty when it serves cleartext. */
    public Optional<Path> certificate() {
        return Optional.ofNullable(certificate);
    }

    /** The port another instance in this JVM serves {@code protocol} on ({@code --also}); empty when none does. */
    public Optional<Integer> alsoPort(Protocol protocol) {
        return Optional.ofNullable(alsoPorts.get(protocol));
    }

    public long pid() {
        return process.pid();
    }

    @Override
    public boolean isAlive() {
        return process.isAlive();
    }

    @Override
    public boolean exitsWithin(Duration grace) {
        try {
            return process.waitFor(grace.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        }
    }

    @Override
    public String deathNotice() {
        String exit = exitCodeOf(process);
        return "target " + entry.name() + " " + placed.memoryKill().map(kill -> "was " + kill + " (exit code " + exit + ")")
                .orElse("exited with code " + exit) + " (" + quote(lastLines) + ")";
    }

    @Override
    public String diedNote() {
        return placed.memoryKill().map(kill -> "target died: " + kill).orElse("target died");
    }

    /** Completes once the target has exited and its cgroups are removed. */
    public CompletableFuture<Boolean> placementRemoved() {
        return placed.cleanedUp();
    }

    @Override
    public Map<String, Object> isolation() {
        return placement.readBack(process.pid());
    }

    @Override
    public String copyRecording(Instant from, Instant to, Path file) {
        return isAlive() ? JfrRecording.dumpWindow(process.pid(), from, to, file)
                : "the target was gone before its recording could be copied";
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

    private static void copyOutput(Process process, Path log, Deque<String> lastLines, BeforeReady beforeReady,
                                   CompletableFuture<Matcher> ready) {
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
                if (!ready.isDone()) {
                    beforeReady.read(line);
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
