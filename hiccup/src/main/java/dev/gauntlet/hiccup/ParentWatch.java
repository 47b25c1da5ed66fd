package dev.gauntlet.hiccup;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;
import java.util.function.BooleanSupplier;

/**
 * Ends this JVM soon after the process that started it has ended, however that ended: a parent
 * killed with SIGKILL cannot stop its children, so each child JVM watches its parent instead. The
 * parent names itself on the child's command line, and the child's main starts the watch first:
 *
 * <pre>{@code
 * argv.add(ParentWatch.jvmOption());   // in the parent: -Dgauntlet.parent=PID:START_EPOCH_MS
 * ParentWatch.start();                 // first thing in the child's main; without the option it does nothing
 * }</pre>
 *
 * <p>A JVM started by hand, without the option, is nobody's child to watch. An orphan prints one
 * line on stderr and exits; its shutdown hooks get 3 s (a target stops its server, a generator
 * writes its files), then it halts.
 *
 * <p>Why poll the parent by pid and start instant: the wrappers a child starts through
 * ({@code taskset}, {@code ip netns exec}, the shell that enters its cgroups) all exec, so the child
 * keeps the pid its parent started, and the start instant tells that parent from a later process
 * given the same pid. The alternatives fail somewhere: EOF on a stdin pipe never comes to the
 * children of {@code ./gauntlet target} and {@code load --client}, which share the terminal's stdin;
 * {@code prctl(PR_SET_PDEATHSIG)} fires when the thread that started the child ends, not its
 * process, and Java has no call for it. It lives in {@code hiccup} because every child JVM (target,
 * generator, calibration) has this module.
 */
public final class ParentWatch {
    /** The system property naming the parent, as {@code PID:START_EPOCH_MS}. */
    public static final String PROPERTY = "gauntlet.parent";
    private static final long POLL_MS = 250;
    private static final long EXIT_GRACE_MS = 3_000;
    private static final int ORPHANED_EXIT_CODE = 1;
    /** Enough of {@code /proc/PID/stat} for its state: pid, command (at most 64 bytes) and the state after it. */
    private static final int STAT_BYTES = 512;

    private ParentWatch() {
    }

    /** The JVM option that lets a child JVM started by this process end with it. */
    public static String jvmOption() {
        ProcessHandle self = ProcessHandle.current();
        return "-D" + PROPERTY + "=" + self.pid() + self.info().startInstant().map(start -> ":" + start.toEpochMilli()).orElse("");
    }

    /**
     * Watches the parent that {@code -Dgauntlet.parent} names on a daemon thread, and exits when it
     * is gone; at once if it is gone already. Without the property, does nothing.
     */
    public static void start() {
        String identity = System.getProperty(PROPERTY);
        if (identity == null) {
            return;
        }
        Optional<ProcessHandle> parent;
        try {
            parent = find(identity);
        } catch (NumberFormatException e) {
            System.err.println("gauntlet: -D" + PROPERTY + " needs PID:START_EPOCH_MS, got " + identity);
            System.exit(2);
            return;
        }
        if (parent.isEmpty()) {
            exitOrphaned(identity.split(":", 2)[0]);
            return;
        }
        Thread.ofPlatform().daemon().name("parent-watch").start(() -> watch(parent.get()));
    }

    /** Whether the process that {@code identity} (a {@code -Dgauntlet.parent} value) names still runs; false when malformed. */
    public static boolean isAlive(String identity) {
        try {
            return find(identity).isPresent();
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /**
     * The running process {@code identity} names. A handle keeps the start time it was found with,
     * so it never passes for a later process given the same pid; a zombie is not alive either.
     */
    private static Optional<ProcessHandle> find(String identity) {
        String[] parts = identity.split(":", 2);
        Optional<ProcessHandle> process = ProcessHandle.of(Long.parseLong(parts[0]));
        if (parts.length == 1) {
            return process;
        }
        long startEpochMs = Long.parseLong(parts[1]);
        return process.filter(p -> p.info().startInstant().map(Instant::toEpochMilli).orElse(startEpochMs) == startEpochMs);
    }

    /**
     * Polls until the parent is gone. On Linux through its {@code /proc/PID/stat}, opened once here: a JVM that
     * has used up its open files (a target holding 19,000 connections) cannot open a file to ask, and
     * {@link ProcessHandle#isAlive} opens one each time, so it read a full table as a dead parent and ended a
     * healthy target. The file stays the parent's own, whatever process gets its pid later: once the parent is gone
     * its read fails.
     */
    private static void watch(ProcessHandle parent) {
        try (FileChannel stat = FileChannel.open(Path.of("/proc", Long.toString(parent.pid()), "stat"))) {
            pollWhile(() -> running(stat));
        } catch (IOException e) {
            // No /proc (not Linux), or the parent gone before it was opened: ask the handle.
            pollWhile(parent::isAlive);
        }
        exitOrphaned(Long.toString(parent.pid()));
    }

    private static void pollWhile(BooleanSupplier alive) {
        while (alive.getAsBoolean()) {
            try {
                Thread.sleep(POLL_MS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    /**
     * Whether the process whose {@code stat} this is still runs: the file reads, and its state (the field after the
     * command's closing parenthesis) is neither zombie nor dead.
     */
    static boolean running(FileChannel stat) {
        ByteBuffer content = ByteBuffer.allocate(STAT_BYTES);
        try {
            stat.read(content, 0);
        } catch (IOException e) {
            return false; // ESRCH: the process has ended
        }
        String text = new String(content.array(), 0, content.position(), StandardCharsets.US_ASCII);
        int afterCommand = text.lastIndexOf(')');
        if (afterCommand < 0 || afterCommand + 2 >= text.length()) {
            return false;
        }
        char state = text.charAt(afterCommand + 2);
        return state != 'Z' && state != 'X';
    }

    private static void exitOrphaned(String parentPid) {
        System.err.println("gauntlet: the process that started this one (pid " + parentPid + ") has ended; exiting");
        // A shutdown hook that blocks must not keep the orphan alive.
        Thread.ofPlatform().daemon().name("parent-watch-halt").start(() -> {
            try {
                Thread.sleep(EXIT_GRACE_MS);
            } catch (InterruptedException e) {
                // Halt all the same.
            }
            Runtime.getRuntime().halt(ORPHANED_EXIT_CODE);
        });
        System.exit(ORPHANED_EXIT_CODE);
    }
}
