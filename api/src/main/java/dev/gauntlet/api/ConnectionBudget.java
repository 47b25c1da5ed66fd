package dev.gauntlet.api;

/**
 * The connections one generator process may open on this machine: its open files less what its JVM keeps
 * ({@link #reservedFiles()}), and the ephemeral ports of its source addresses. The runner sizes a suite's
 * generator processes by it before any has started; each generator's preflight checks its share against the
 * same figure, so a process the runner plans is one the generator accepts.
 *
 * <pre>{@code
 * ConnectionBudget budget = new ConnectionBudget(limits.openFiles(), limits.ephemeralPorts(), spec.sourceAddresses().size(),
 *         spec.threads());
 * long connections = Math.min(budget.files(), budget.ports());
 * }</pre>
 *
 * @param openFiles       a process's open-files limit
 * @param ephemeralPorts  the local ports of one source address towards one host and port
 * @param sourceAddresses the addresses the connections spread over; 0 counts as one (the system's choice)
 * @param engineThreads   engine threads in the process, each with a selector of its own
 */
public record ConnectionBudget(long openFiles, long ephemeralPorts, int sourceAddresses, int engineThreads) {
    /**
     * Descriptors a generator JVM with one engine thread keeps besides its connections, counted from the
     * open-files limit rather than from what a process has open: the runner plans processes before they exist,
     * so the reserve must be one it can know, and the generator must use the same to accept each plan. Measured
     * here (2026-11-26, the runner's JVM running {@code load}, the largest classpath): 42 jars, 7–12 files (JFR,
     * interval logs, the summary), stdio and a pipe, 2 per engine selector — about 60 before the connections;
     * during the JIT warm-up its loopback sink holds 64 connections more, closed before the load. 200 leaves
     * room for a client library's own selectors and files, and is a fraction of a percent of a usual limit.
     */
    public static final int RESERVED_FILES = 200;
    /** Each further engine thread's selector: an epoll descriptor and its wake-up eventfd. */
    public static final int FILES_PER_EXTRA_ENGINE_THREAD = 2;

    /** What the JVM keeps: {@link #RESERVED_FILES}, and two for each engine thread beyond the first. */
    public long reservedFiles() {
        return RESERVED_FILES + (long) FILES_PER_EXTRA_ENGINE_THREAD * Math.max(0, engineThreads - 1);
    }

    /** The connections the open files allow: the limit less the reserve, 0 at least. */
    public long files() {
        return Math.max(0, openFiles - reservedFiles());
    }

    /** The connections to one host and port the source addresses' ephemeral ports allow. */
    public long ports() {
        return ephemeralPorts * Math.max(1, sourceAddresses);
    }
}
