package dev.gauntlet.runner.results;

import dev.gauntlet.runner.GauntletCli;
import dev.gauntlet.runner.Signals;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A results directory is one live run's: a real runner holds it, a second {@code ./gauntlet run --resume} of it is
 * refused with one line naming the runner's process, and a runner killed by SIGKILL leaves it free.
 */
class ResultsLockIT {
    private static final String SUITE = """
            name: it-lock
            targets: [dummy]
            jvm: { target: [-Xmx256m], generator: [-Xmx256m, -Dgauntlet.jitWarmup=false] }
            scenarios:
              - name: long
                load: { type: closed, connections: 1 }
                durationMs: 60000
            """;
    private static final String RESULTS_IN = "gauntlet: results in ";

    @TempDir
    Path work;

    @Test
    void aSecondRunOfADirectoryInUseIsRefusedAndASigkilledRunnerLeavesItFree() throws Exception {
        Path suite = Files.writeString(work.resolve("lock.yaml"), SUITE);
        Process runner = GauntletCli.command("run", "--suite", suite.toString(), "--results", work.resolve("results").toString(),
                "--no-calibration").redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            Path dir = Path.of(resultsLine(runner).get(120, TimeUnit.SECONDS).substring(RESULTS_IN.length()));

            GauntletCli.Finished second = GauntletCli.run(Duration.ofSeconds(60), "run", "--resume", dir.toString());

            assertThat(second.exitCode()).isEqualTo(2);
            assertThat(second.stderr()).containsExactly("gauntlet: " + dir + " is in use by a run in process " + runner.pid()
                    + "; wait for it to end, or stop it (kill " + runner.pid() + "; what it measured is kept) and resume then");
            assertThat(runner.isAlive()).as("the run holding the directory goes on").isTrue();

            killWithItsChildren(runner);
            // The kernel let go of the dead runner's lock: nothing was left to clean up.
            ResultsLock.take(dir).close();
        } finally {
            killWithItsChildren(runner);
        }
    }

    /** The line naming the results directory, once the runner prints it; its stderr is passed through meanwhile. */
    private static CompletableFuture<String> resultsLine(Process runner) {
        CompletableFuture<String> line = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader err = new BufferedReader(new InputStreamReader(runner.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String l; (l = err.readLine()) != null; ) {
                    System.err.println(l);
                    if (l.startsWith(RESULTS_IN)) {
                        line.complete(l);
                    }
                }
            } catch (IOException e) {
                // The pipe closes when the runner is gone.
            }
            line.completeExceptionally(new AssertionError("the runner ended without naming its results directory"));
        });
        return line;
    }

    /** SIGKILL, which no hook sees: the runner is stopped first, so that the children it started are all known. */
    private static void killWithItsChildren(Process runner) throws Exception {
        if (!runner.isAlive()) {
            return;
        }
        Signals.send("STOP", runner.pid());
        List<ProcessHandle> children = runner.descendants().toList();
        Signals.send("KILL", runner.pid());
        children.forEach(ProcessHandle::destroyForcibly);
        assertThat(runner.waitFor(10, TimeUnit.SECONDS)).as("the runner ended by SIGKILL").isTrue();
        for (ProcessHandle child : children) {
            assertThat(child.onExit().get(10, TimeUnit.SECONDS).isAlive()).isFalse();
        }
    }
}
