package dev.gauntlet.runner.cli;

import dev.gauntlet.runner.Signals;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.execution.FullCommandLine;
import dev.gauntlet.runner.execution.TargetLauncher;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./gauntlet target dummy} as a user runs it: the script execs the runner JVM, which starts
 * the target JVM as its child. However the runner is ended, the target JVM must end with it.
 */
// Alone: an orphaned target lives up to ~3 s by design, and a suite started meanwhile in the other fork of the ITs
// would refuse to run beside it (LeftoverJvms); alone, each case waits for its orphan's end before the next class.
@Tag("alone")
class TargetCommandSignalIT {
    private static final long READY_TIMEOUT_SEC = 30;
    /** The runner waits 5 s for its target before it kills it; the rest is the JVMs' own exit. */
    private static final long RUNNER_EXIT_TIMEOUT_SEC = 15;
    /** An orphaned target notices within 250 ms and halts 3 s later at the latest. */
    private static final long ORPHAN_EXIT_TIMEOUT_SEC = 10;

    @TempDir
    Path work;

    @ParameterizedTest(name = "SIG{0}")
    @ValueSource(strings = {"TERM", "INT", "HUP"})
    void theTargetJvmEndsWithTheRunner(String signal) throws Exception {
        withReadyTarget((gauntlet, target) -> {
            Signals.send(signal, gauntlet.pid());

            assertThat(gauntlet.waitFor(RUNNER_EXIT_TIMEOUT_SEC, TimeUnit.SECONDS)).as("runner exited after SIG%s", signal).isTrue();
            assertThat(target.isAlive()).as("target JVM alive after the runner's SIG%s (runner stderr: %s)", signal, stderr())
                    .isFalse();
        });
    }

    /** SIGKILL gives the runner no chance to stop the target: the target sees its parent gone and exits. */
    @Test
    void theTargetJvmEndsWithARunnerKilledWithSigkill() throws Exception {
        withReadyTarget((gauntlet, target) -> {
            gauntlet.destroyForcibly();

            assertThat(gauntlet.waitFor(RUNNER_EXIT_TIMEOUT_SEC, TimeUnit.SECONDS)).as("runner exited").isTrue();
            assertThat(target.onExit().completeOnTimeout(null, ORPHAN_EXIT_TIMEOUT_SEC, TimeUnit.SECONDS).get())
                    .as("target JVM ended within %d s of the runner's SIGKILL", ORPHAN_EXIT_TIMEOUT_SEC).isNotNull();
            assertThat(stderr()).contains("gauntlet: the process that started this one (pid " + gauntlet.pid() + ") has ended; exiting");
        });
    }

    @Test
    void aTargetDeafToSigtermIsKilledWhenTheRunnerEnds() throws Exception {
        withReadyTarget((gauntlet, target) -> {
            // A stopped process is as deaf to SIGTERM as a JVM whose heap is exhausted; SIGKILL still ends it.
            Signals.send("STOP", target.pid());
            Signals.send("TERM", gauntlet.pid());

            assertThat(gauntlet.waitFor(RUNNER_EXIT_TIMEOUT_SEC, TimeUnit.SECONDS)).as("runner exited").isTrue();
            assertThat(target.isAlive()).as("target JVM alive after the runner exited (runner stderr: %s)", stderr())
                    .isFalse();
        });
    }

    /** Runs {@code test} on a started {@code ./gauntlet target dummy} and its ready target JVM; kills both after it. */
    private void withReadyTarget(RunnerAndTarget test) throws Exception {
        Process gauntlet = startTargetDummy();
        ProcessHandle target = awaitReadyTarget(gauntlet);
        try {
            test.run(gauntlet, target);
        } finally {
            target.destroyForcibly();
            gauntlet.destroyForcibly();
        }
    }

    @FunctionalInterface
    private interface RunnerAndTarget {
        void run(Process gauntlet, ProcessHandle target) throws Exception;
    }

    /**
     * {@code env --default-signal}: a runner started by a script in the background inherits SIGINT
     * ignored, and a JVM keeps ignored signals ignored; a user's terminal leaves them at default.
     */
    private Process startTargetDummy() throws IOException {
        Path home = GauntletHome.fromSystemProperty().root();
        ProcessBuilder builder = new ProcessBuilder(List.of("env", "--default-signal=HUP,INT,TERM",
                home.resolve("gauntlet").toString(), "target", "dummy", "--jvm-option", "-Xmx256m"));
        builder.environment().put("GAUNTLET_NO_BUILD", "1");
        builder.redirectError(work.resolve("stderr.txt").toFile());
        Process process = builder.start();
        process.getOutputStream().close();
        return process;
    }

    /** Waits for the target's READY line on the runner's stdout, which the target inherits; returns the target JVM. */
    private static ProcessHandle awaitReadyTarget(Process gauntlet) throws Exception {
        CompletableFuture<String> ready = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(gauntlet.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    if (line.startsWith("READY ")) {
                        ready.complete(line);
                    }
                }
            } catch (IOException e) {
                // The pipe closes when both JVMs are gone.
            }
            ready.completeExceptionally(new IllegalStateException("the runner printed no READY line"));
        });
        ready.get(READY_TIMEOUT_SEC, TimeUnit.SECONDS);
        List<ProcessHandle> targets = gauntlet.children()
                .filter(p -> FullCommandLine.of(p).contains(TargetLauncher.MAIN_CLASS)).toList();
        assertThat(targets).as("target JVMs started by the runner").hasSize(1);
        return targets.getFirst();
    }

    private String stderr() throws IOException {
        return Files.readString(work.resolve("stderr.txt"));
    }
}
