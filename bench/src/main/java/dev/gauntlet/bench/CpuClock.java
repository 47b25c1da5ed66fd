package dev.gauntlet.bench;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * A process's CPU time so far, in nanoseconds, from Linux's per-thread scheduler statistics: exact, where
 * {@code /proc/PID/stat} and the JVM's own process CPU time count in 10 ms ticks (a window of 0.8 s would be off by
 * a few percent). The same clock for the gate's own JVM, which hosts Gauntlet's generator, and for a peer.
 *
 * <pre>{@code
 * CpuClock peer = CpuClock.ofProcess(process.pid());
 * long beforeNs = peer.cpuNs();   ...   long usedNs = peer.cpuNs() - beforeNs;
 * }</pre>
 */
interface CpuClock {
    long cpuNs();

    /**
     * The sum of a process's live threads' time on a CPU ({@code /proc/PID/task/TID/schedstat}'s first field). A
     * thread that ended drops out of the sum, so this suits processes whose threads outlive the window: wrk and wrk2
     * start theirs at once and keep them; a Gauntlet run starts its own before the window and ends them after it,
     * and perf-gate.sh keeps the JVM's compiler threads (-XX:-UseDynamicNumberOfCompilerThreads).
     */
    static CpuClock ofProcess(long pid) {
        return ofThreads(pid, name -> true);
    }

    /**
     * The same sum over a JVM's JIT compiler threads ({@code C1 CompilerThread0} and the like): 0 for a process
     * without them.
     */
    static CpuClock ofJitCompilers(long pid) {
        return ofThreads(pid, name -> name.startsWith("C1 Compiler") || name.startsWith("C2 Compiler"));
    }

    private static CpuClock ofThreads(long pid, Predicate<String> named) {
        Path tasks = Path.of("/proc", Long.toString(pid), "task");
        return () -> {
            try (Stream<Path> threads = Files.list(tasks)) {
                return threads.filter(thread -> named.test(name(thread))).mapToLong(CpuClock::threadCpuNs).sum();
            } catch (NoSuchFileException e) {
                throw new IllegalStateException("process " + pid + " ended before its window was measured", e);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    /** A thread's name as the kernel has it (15 characters at most), or "" for a thread that ended meanwhile. */
    private static String name(Path thread) {
        try {
            return Files.readString(thread.resolve("comm")).trim();
        } catch (IOException ended) {
            return "";
        }
    }

    private static long threadCpuNs(Path thread) {
        try {
            String schedstat = Files.readString(thread.resolve("schedstat")).trim();
            return Long.parseLong(schedstat.substring(0, schedstat.indexOf(' ')));
        } catch (IOException ended) {
            // The thread ended between the listing and the read: its file is gone, or reading it fails with ESRCH
            // ("No such process"), which Java reports as a plain IOException.
            return 0;
        }
    }
}
