package dev.gauntlet.runner.execution;

import dev.gauntlet.api.TargetCatalogue.TargetEntry;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;

/**
 * One running target of a suite, wherever it runs: a JVM on this machine ({@link TargetProcess}) or a
 * pod on a node of a cluster. The suite reaches it through its {@link #endpoint()} and asks this for
 * what only its host knows: whether it lives, why it died, where it runs, its JFR recording.
 */
public interface SuiteTarget extends AutoCloseable {

    TargetEntry entry();

    TargetEndpoint endpoint();

    boolean isAlive();

    /** Whether the target has exited, or does within {@code grace}. */
    boolean exitsWithin(Duration grace);

    /** Why the target is gone, for the one-line error of a run it did not survive. */
    String deathNotice();

    /** The note of a row the target did not survive: {@code target died}, and why when its host says. */
    String diedNote();

    /** Where the target runs and what is enforced on it, read back while it runs ({@code isolation.json}). */
    Map<String, Object> isolation();

    /**
     * Copies the window {@code from}–{@code to} of the target's JFR recording into {@code file}; null when done,
     * else why not, in one sentence.
     */
    String copyRecording(Instant from, Instant to, Path file);

    /** Stops the target, its log kept; promptly, and a kill when it will not stop. */
    @Override
    void close();
}
