package dev.gauntlet.loadgen.split;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class GeneratorProcessIT {
    /** Far beyond a JVM's start here, far below the child that hangs. */
    private static final long DEADLINE_MS = 60_000;

    @Test
    void aChildThatExitsNonZeroIsReportedWithItsLogsLastLineAndItsEnvironment(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("generator.log");
        GeneratorProcess child = GeneratorProcess.start(command("fail"), log, Map.of("GAUNTLET_TEST_WORD", "refused"),
                ProcessBuilder::start);

        assertThat(child.exitedWithin(DEADLINE_MS)).isTrue();
        assertThat(child.process().exitValue()).isEqualTo(3);
        assertThat(child.lastLine()).isEqualTo("gauntlet: the target refused (see " + log + ")");
    }

    @Test
    void aChildOverrunningItsDeadlineIsKilledAndReported(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("generator.log");
        GeneratorProcess child = GeneratorProcess.start(command("hang"), log, Map.of(), ProcessBuilder::start);
        try {
            assertThat(child.exitedWithin(200)).isFalse();
            assertThat(child.process().isAlive()).isFalse();
            assertThat(child.lastLine()).contains("see " + log);
        } finally {
            child.process().destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aChildWithoutOutputSaysSo(@TempDir Path dir) throws Exception {
        Path log = dir.resolve("generator.log");
        GeneratorProcess child = GeneratorProcess.start(command("quiet"), log, Map.of(), ProcessBuilder::start);

        assertThat(child.exitedWithin(DEADLINE_MS)).isTrue();
        assertThat(child.process().exitValue()).isEqualTo(1);
        assertThat(child.lastLine()).isEqualTo("no output; see " + log);
    }

    private static JavaCommand command(String mode) {
        return new JavaCommand(List.of("-Xmx32m", "-XX:TieredStopAtLevel=1"), System.getProperty("java.class.path"),
                Child.class.getName(), List.of(mode));
    }

    /** The generator's stand-in: fails with a message, hangs, or fails in silence. */
    public static final class Child {
        public static void main(String[] args) throws InterruptedException {
            switch (args[0]) {
                case "fail" -> {
                    System.out.println("gauntlet: starting");
                    System.err.println("gauntlet: the target " + System.getenv("GAUNTLET_TEST_WORD"));
                    System.exit(3);
                }
                case "hang" -> {
                    System.out.println("gauntlet: running");
                    Thread.currentThread().join(); // never returns: the hang is the behaviour under test
                }
                default -> System.exit(1);
            }
        }
    }
}
