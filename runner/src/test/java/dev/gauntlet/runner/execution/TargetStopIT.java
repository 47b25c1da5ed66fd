package dev.gauntlet.runner.execution;

import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.runner.RawHttp;
import dev.gauntlet.runner.Signals;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.isolation.PlacedProcess;
import dev.gauntlet.runner.isolation.RolePlacement;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Targets stop: under overload a target exits within 5 s of SIGTERM by itself, and the runner's
 * stop ({@link TargetProcess#close()}) kills one that does not, so no target JVM is left behind.
 */
@Tag("alone") // asserts how long stops take
class TargetStopIT {
    /** Thousands of requests held at once: thousands of sleeping threads in the blocking styles. */
    private static final int HELD_REQUESTS = 3_000;
    private static final long HELD_WAIT_MS = 60_000;
    private static final Duration HOLD_TIMEOUT = Duration.ofSeconds(60);
    private static final long STOP_MS = PlacedProcess.STOP_TIMEOUT.toMillis();

    @TempDir
    Path logs;

    /**
     * jetty-handler-virtual ignored SIGTERM under an overload it did not survive; the sync styles
     * hold a platform thread per request, and Undertow's stop waits for every one of them.
     */
    @ParameterizedTest
    @ValueSource(strings = {"jetty-handler-sync", "jetty-handler-virtual", "undertow-handler-sync"})
    void anOverloadedTargetExitsWithinFiveSecondsOfSigterm(String name) throws Exception {
        TargetProcess target = launcher().start(name, List.of(), logs.resolve(name + ".log"));
        List<Socket> held = new ArrayList<>();
        try {
            hold(target, held);
            List<ProcessHandle> jvms = withDescendants(target.pid());

            long stopStartNs = System.nanoTime();
            boolean exitedByItself = target.terminateGracefully();

            assertThat(exitedByItself).as("%s exited by itself within %d ms of SIGTERM, with %d requests held",
                    name, STOP_MS, HELD_REQUESTS).isTrue();
            assertThat(millisSince(stopStartNs)).isLessThan(STOP_MS);
            assertThat(jvms).as("the target JVM and its descendants").noneMatch(ProcessHandle::isAlive);
        } finally {
            target.close();
            for (Socket socket : held) {
                socket.close();
            }
        }
    }

    @Test
    void closeKillsATargetDeafToSigterm() throws Exception {
        TargetProcess target = launcher().start("dummy", List.of(), logs.resolve("dummy.log"));
        ProcessHandle jvm = ProcessHandle.of(target.pid()).orElseThrow();
        try {
            // A stopped process is as deaf to SIGTERM as a JVM whose heap is exhausted; SIGKILL still ends it.
            Signals.send("STOP", target.pid());

            long stopStartNs = System.nanoTime();
            target.close();

            assertThat(jvm.isAlive()).as("target JVM alive after close()").isFalse();
            assertThat(millisSince(stopStartNs)).as("ms to close").isBetween(STOP_MS, 2 * STOP_MS);
        } finally {
            jvm.destroyForcibly();
        }
    }

    /**
     * The bug behind the deaf target: with its heap exhausted a JVM cannot start the thread that
     * runs its SIGTERM hook ("OutOfMemoryError occurred dispatching signal SIGTERM"). Targets run
     * with -XX:+ExitOnOutOfMemoryError, so such a target is gone before anyone needs to stop it.
     */
    @Test
    void aTargetWhoseHeapRunsOutExitsAtOnce() throws Exception {
        TargetProcess target = launcher("-Xmx16m").start("jetty-handler-virtual", List.of(), logs.resolve("oom.log"));
        List<Socket> held = new ArrayList<>();
        try {
            ProcessHandle jvm = ProcessHandle.of(target.pid()).orElseThrow();
            openUntilGone(target, held);

            jvm.onExit().get(HOLD_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
            assertThat(target.deathNotice()).contains("exited with code 3").contains("OutOfMemoryError");
        } finally {
            target.close();
            for (Socket socket : held) {
                socket.close();
            }
        }
    }

    private static TargetLauncher launcher() {
        return launcher("-Xmx1g");
    }

    private static TargetLauncher launcher(String maxHeap) {
        return new TargetLauncher(GauntletHome.fromSystemProperty(), TargetCatalogue.builtIn(), RolePlacement.unplaced("target"),
                List.of(maxHeap));
    }

    /** Opens held requests until {@link #HELD_REQUESTS} or until the target stops taking connections. */
    private static void openUntilGone(TargetProcess target, List<Socket> held) {
        byte[] request = heldRequest(target);
        try {
            for (int i = 0; i < HELD_REQUESTS && target.isAlive(); i++) {
                Socket socket = RawHttp.connect(RolePlacement.LOOPBACK, target.endpoint().port());
                held.add(socket);
                socket.getOutputStream().write(request);
            }
        } catch (IOException e) {
            // The target is gone.
        }
    }

    private static byte[] heldRequest(TargetProcess target) {
        return ("GET /hello?wait=" + HELD_WAIT_MS + " HTTP/1.1\r\nHost: " + RolePlacement.LOOPBACK + ":" + target.endpoint().port()
                + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
    }

    /**
     * Opens {@link #HELD_REQUESTS} connections with a long-waiting request each, and waits until
     * the target counts them all in flight: polled, since the target signals nothing else.
     */
    private static void hold(TargetProcess target, List<Socket> held) throws IOException, InterruptedException {
        byte[] request = heldRequest(target);
        for (int i = 0; i < HELD_REQUESTS; i++) {
            Socket socket = RawHttp.connect(RolePlacement.LOOPBACK, target.endpoint().port());
            held.add(socket);
            socket.getOutputStream().write(request);
        }
        long deadlineNs = System.nanoTime() + HOLD_TIMEOUT.toNanos();
        long inFlight;
        while ((inFlight = TargetEndpoint.statsField(target.endpoint().stats(), "inFlight")) < HELD_REQUESTS) {
            assertThat(System.nanoTime()).as("%d of %d requests in flight within %s", inFlight, HELD_REQUESTS, HOLD_TIMEOUT)
                    .isLessThan(deadlineNs);
            // No signal to wait on: the target says what it holds only when /stats is asked again.
            Thread.sleep(100);
        }
    }

    private static List<ProcessHandle> withDescendants(long pid) {
        ProcessHandle process = ProcessHandle.of(pid).orElseThrow();
        List<ProcessHandle> all = new ArrayList<>(List.of(process));
        process.descendants().forEach(all::add);
        return all;
    }

    private static long millisSince(long startNs) {
        return (System.nanoTime() - startNs) / 1_000_000;
    }
}
