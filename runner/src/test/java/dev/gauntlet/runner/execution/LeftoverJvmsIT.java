package dev.gauntlet.runner.execution;

import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.runner.LauncherIT;
import dev.gauntlet.runner.DummySuite;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.isolation.RolePlacement;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A target JVM left over as a runner killed before children watched their parent left it: pinned
 * to CPU 0, without {@code -Dgauntlet.parent}, its parent gone. A run on that CPU refuses to start
 * and names it; once it is killed, the run goes on.
 */
@Tag("alone") // its leftover JVM on CPU 0 makes any other run there refuse to start
class LeftoverJvmsIT {
    private static final long READY_TIMEOUT_MS = 30_000;

    @TempDir
    Path work;

    private ProcessHandle leftover;

    @BeforeEach
    void leaveATargetRunning() throws Exception {
        assumeTrue(Files.isExecutable(Path.of("/usr/bin/taskset")) || Files.isExecutable(Path.of("/bin/taskset")), "needs taskset");
        TargetCatalogue catalogue = TargetCatalogue.builtIn();
        TargetCatalogue.TargetEntry dummy = catalogue.target("dummy").orElseThrow();
        String classpath = GauntletHome.fromSystemProperty().classpathOf(catalogue.technology(dummy.technology()).module());
        // Made here: the backgrounded command opens it for its redirect only after the shell has printed its pid.
        Path log = Files.createFile(work.resolve("leftover.log"));
        // The shell exits at once: the target's parent is gone, as a killed runner's would be.
        Process shell = new ProcessBuilder("sh", "-c", "taskset -c 0 \"$0\" -Xmx64m -cp \"$1\" " + TargetLauncher.MAIN_CLASS
                + " --server \"$2\" >\"$3\" 2>&1 & echo $!", Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                classpath, dummy.serverClass(), log.toString()).start();
        long pid = Long.parseLong(new String(shell.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip());
        assertThat(shell.waitFor(10, TimeUnit.SECONDS)).isTrue();
        leftover = ProcessHandle.of(pid).orElseThrow();
        long deadline = System.currentTimeMillis() + READY_TIMEOUT_MS;
        // Polled: with its parent gone, the target's only signal is the line it writes to its log file.
        while (!Files.readString(log).contains("READY ")) {
            assertThat(leftover.isAlive()).as("the leftover target runs: %s", Files.readString(log)).isTrue();
            assertThat(System.currentTimeMillis()).as("the leftover target is ready").isLessThan(deadline);
            Thread.sleep(100);
        }
    }

    @AfterEach
    void killTheLeftover() throws Exception {
        if (leftover != null) {
            leftover.destroyForcibly();
            leftover.onExit().get(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void itIsFoundOnItsCpuOnly() {
        TargetCatalogue catalogue = TargetCatalogue.builtIn();

        assertThat(LeftoverJvms.on(RolePlacement.cpuSet("0"), catalogue))
                .contains(new LeftoverJvms.Leftover(leftover.pid(), "target dummy", "0"));
        if (Runtime.getRuntime().availableProcessors() > 1) {
            assertThat(LeftoverJvms.on(RolePlacement.cpuSet("1"), catalogue)).extracting(LeftoverJvms.Leftover::pid)
                    .doesNotContain(leftover.pid());
        }
    }

    @Test
    void aRunOnItsCpuRefusesToStartUntilItIsKilled() throws Exception {
        Path suite = DummySuite.openLoop(work.resolve("tiny.yaml"), "128m", 50, 500, 1_000);
        List<String> run = List.of("run", "--suite", suite.toString(), "--results", work.resolve("results").toString(),
                "--no-calibration");

        LauncherIT.Outcome refused = LauncherIT.gauntlet(run.toArray(String[]::new));

        assertThat(refused.exitCode()).isEqualTo(2);
        assertThat(refused.stderr()).singleElement().asString()
                .contains("Gauntlet JVM", "pid " + leftover.pid() + " (target dummy, CPUs 0)", "kill ")
                .endsWith(" " + leftover.pid());
        assertThat(work.resolve("results")).doesNotExist();

        leftover.destroyForcibly();
        leftover.onExit().get(10, TimeUnit.SECONDS);
        LauncherIT.Outcome measured = LauncherIT.gauntlet(run.toArray(String[]::new));

        assertThat(measured.exitCode()).as("%s", measured.stderr()).isZero();
        assertThat(measured.out()).containsPattern("(?m)^dummy +open +\\d+");
    }
}
