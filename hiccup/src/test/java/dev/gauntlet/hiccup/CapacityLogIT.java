package dev.gauntlet.hiccup;

import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * The capacity log on real CPUs: a busy process started on every CPU this JVM may use takes them
 * from it, and the log's seconds say so (their foreign share near 1, their index near 0), while the
 * probe's own speed stays what it was: a waking probe still gets a CPU at once.
 */
@Tag("alone") // takes every CPU of this JVM for 3 s
class CapacityLogIT {

    @Test
    void anotherProcessOnTheseCpusIsForeignAndTakesTheCapacity() throws Exception {
        try (CapacityLog log = CapacityLog.start()) {
            Thread.sleep(2_500);
            List<CapacityLog.Second> before = log.seconds();
            long hogsFromEpochMs = System.currentTimeMillis();
            List<Process> hogs = hogs(3);
            try {
                Thread.sleep(3_000);
            } finally {
                hogs.forEach(CapacityLogIT::end);
            }
            List<CapacityLog.Second> during = log.seconds().stream()
                    .filter(s -> s.startEpochMs() >= hogsFromEpochMs + 200 && s.endEpochMs() <= System.currentTimeMillis()).toList();

            assertThat(before).isNotEmpty();
            assertThat(during).isNotEmpty();
            double quietIndex = before.getLast().index();
            assertThat(before.getLast().foreignShare()).as("%s", before).isLessThan(0.5);
            for (CapacityLog.Second second : during) {
                assertThat(second.foreignShare()).as("%s", during).isGreaterThan(0.6);
                assertThat(second.index()).as("%s", during).isLessThan(0.5 * quietIndex);
                assertThat(second.probeUs()).as("the probe's own speed, %s", during)
                        .isCloseTo(before.getLast().probeUs(), within(before.getLast().probeUs()));
            }
        }
    }

    @Test
    void theLogReadsBackAsServed() throws Exception {
        try (CapacityLog log = CapacityLog.start()) {
            log.reset();
            Thread.sleep(2_200);
            List<CapacityLog.Second> seconds = log.seconds();

            assertThat(seconds).hasSizeBetween(1, 3);
            List<CapacityLog.Second> read = CapacityLog.parse(log.text());
            assertThat(read).hasSameSizeAs(seconds);
            assertThat(read.getFirst().startEpochMs()).isEqualTo(seconds.getFirst().startEpochMs());
            assertThat(read.getFirst().index()).isCloseTo(seconds.getFirst().index(), within(0.1 + 0.001 * seconds.getFirst().index()));
            assertThat(seconds.getFirst().probeUs()).isPositive();
        }
    }

    @Test
    void aLogStartedByAnInterruptedThreadStillMeasures() throws Exception {
        // A generator's main thread carries an interrupt out of its JIT warm-up's runs; the probe's pipe must not be its.
        Thread.currentThread().interrupt();
        CapacityLog log;
        try {
            log = CapacityLog.start();
        } finally {
            assertThat(Thread.interrupted()).isTrue();
        }
        try (log) {
            Thread.sleep(1_500);
            assertThat(log.seconds()).isNotEmpty();
        }
    }

    @Test
    void aCpuListIsReadAsTheKernelWritesIt() {
        assertThat(CpuAccounting.parseList("0-3,6").stream().boxed().toList()).containsExactly(0, 1, 2, 3, 6);
        assertThat(CpuAccounting.parseList("1").stream().boxed().toList()).containsExactly(1);
    }

    /** Ends a hog: the shell under {@code timeout} first, which killing {@code timeout} would leave running. */
    static void end(Process hog) {
        hog.descendants().forEach(ProcessHandle::destroyForcibly);
        hog.destroyForcibly();
    }

    /** A shell loop on each CPU this JVM may use, each ending by itself after {@code seconds}. */
    private static List<Process> hogs(int seconds) throws IOException, InterruptedException {
        List<Process> hogs = new ArrayList<>();
        String allowed = Files.readAllLines(Path.of("/proc/self/status")).stream()
                .filter(l -> l.startsWith("Cpus_allowed_list:")).findFirst().orElseThrow().split(":")[1].trim();
        for (int cpu : CpuAccounting.parseList(allowed).stream().toArray()) {
            hogs.add(new ProcessBuilder("taskset", "-c", Integer.toString(cpu), "timeout", Integer.toString(seconds + 1),
                    "sh", "-c", "while :; do :; done").start());
        }
        assertThat(hogs.getFirst().isAlive()).isTrue();
        TimeUnit.MILLISECONDS.sleep(100);
        return hogs;
    }
}
