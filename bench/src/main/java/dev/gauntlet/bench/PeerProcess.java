package dev.gauntlet.bench;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A gate case's peer (wrk2 or wrk) running its load against its own nginx for as many pairs as the case takes: started
 * once and given until it runs at the case's load, so no pair waits for its start; ended by {@link #close()}.
 */
final class PeerProcess implements AutoCloseable {
    /** A peer's start, before it runs at the case's load, at most; and the stretch its load is probed over. */
    private static final long START_NS = TimeUnit.SECONDS.toNanos(3);
    private static final long LOAD_PROBE_NS = TimeUnit.MILLISECONDS.toNanos(100);

    private final GateCase gateCase;
    private final Process process;
    private final Path errors;

    private PeerProcess(GateCase gateCase, Process process, Path errors) {
        this.gateCase = gateCase;
        this.process = process;
        this.errors = errors;
    }

    /**
     * Starts the case's peer against {@code url} and waits until {@code nginx} (that URL's server) counted the case's
     * load over the last {@link #LOAD_PROBE_NS}: wrk2 either ramps up over half a second or sends nothing for most of a
     * second and then its rate at once.
     */
    static PeerProcess start(GateCase gateCase, Path wrk2, Path wrk, URI url, NginxCounter nginx, Path errors) {
        Process process;
        try {
            process = new ProcessBuilder(gateCase.peerCommand(wrk2, wrk, url))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(errors.toFile()).start();
        } catch (IOException e) {
            throw new GateException("cannot start " + gateCase.peer() + ": " + e.getMessage());
        }
        PeerProcess peer = new PeerProcess(gateCase, process, errors);
        try {
            peer.awaitLoad(nginx);
            return peer;
        } catch (RuntimeException e) {
            peer.close();
            throw e;
        }
    }

    private void awaitLoad(NginxCounter nginx) {
        long deadlineNs = System.nanoTime() + START_NS;
        long before = nginx.requests();
        for (long probeNs = System.nanoTime() + LOAD_PROBE_NS; probeNs < deadlineNs && process.isAlive(); probeNs += LOAD_PROBE_NS) {
            WindowCost.parkUntil(probeNs);
            long now = nginx.requests();
            if (gateCase.atItsLoad(now - before, LOAD_PROBE_NS / 1e9)) {
                return;
            }
            before = now;
        }
        throw new GateException(gateCase.peer() + " did not reach the case's load within "
                + TimeUnit.NANOSECONDS.toSeconds(START_NS) + " s" + (process.isAlive() ? "" : ": " + ended()));
    }

    long pid() {
        return process.pid();
    }

    /** Fails with the peer's own words when it ended: a window it ended in is not its cost. */
    void checkAlive() {
        if (!process.isAlive()) {
            throw new GateException(gateCase.peer() + " ended before its window did: " + ended());
        }
    }

    private String ended() {
        String firstLine;
        try {
            firstLine = Files.readString(errors, StandardCharsets.UTF_8).lines().findFirst().orElse("(nothing on stderr)");
        } catch (IOException e) {
            firstLine = "(its stderr unreadable)";
        }
        return "exit " + process.exitValue() + ", " + firstLine;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
