package dev.gauntlet.runner.execution;

import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.runner.DummySuite;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.isolation.RolePlacement;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * A runner killed with SIGKILL cannot stop its children: they must end by themselves, by watching it
 * ({@code ParentWatch}). {@code ./gauntlet run}, {@code ./gauntlet load --processes 2} and {@code load --client}
 * as a user runs them, killed once their JVMs are up; every JVM below them must be gone within 10 s.
 */
class ParentDeathIT {
    private static final Duration UP_TIMEOUT = Duration.ofSeconds(60);
    private static final Duration GONE_WITHIN = Duration.ofSeconds(10);

    @TempDir
    Path work;

    @Test
    void aRunKilledWithSigkillLeavesNoJvm() throws Exception {
        // Long enough to be killed in the middle: the test ends it after a few seconds.
        Path suite = DummySuite.openLoop(work.resolve("long.yaml"), "128m", 20, 1_000, 60_000);
        Process runner = gauntlet("run", "--suite", suite.toString(), "--results", work.resolve("results").toString(),
                "--no-calibration");

        assertEveryJvmEndsWhenKilled(runner, Map.of(TargetLauncher.MAIN_CLASS, 1, GeneratorLauncher.MAIN_CLASS, 1));
    }

    @Test
    void aLoadOverTwoProcessesKilledWithSigkillLeavesNoJvm() throws Exception {
        try (TargetProcess target = dummy()) {
            Process load = gauntlet("load", target.endpoint().uri("/hello").toString(), "--rate", "20", "--processes", "2",
                    "--duration", "60s", "--output", work.resolve("load").toString());

            assertEveryJvmEndsWhenKilled(load, Map.of(GeneratorLauncher.MAIN_CLASS, 2));
        }
    }

    @Test
    void aLoadWithAClientKilledWithSigkillLeavesNoJvm() throws Exception {
        try (TargetProcess target = dummy()) {
            Process load = gauntlet("load", target.endpoint().uri("/hello").toString(), "--client", "jdk-platform", "--rate", "20",
                    "--duration", "60s");

            assertEveryJvmEndsWhenKilled(load, Map.of(ClientLoad.LOAD_MAIN, 1));
        }
    }

    private TargetProcess dummy() {
        TargetLauncher launcher = new TargetLauncher(GauntletHome.fromSystemProperty(), TargetCatalogue.builtIn(),
                RolePlacement.unplaced("target"), List.of("-Xmx128m"));
        return launcher.start("dummy", List.of(), work.resolve("target.log"));
    }

    /** Waits until {@code parent} has the child JVMs expected, SIGKILLs it, and asserts they all end within 10 s. */
    private void assertEveryJvmEndsWhenKilled(Process parent, Map<String, Integer> expected) throws Exception {
        List<ProcessHandle> below = List.of();
        try {
            below = awaitJvms(parent, expected);
            parent.destroyForcibly();
            long killedNs = System.nanoTime();
            assertThat(parent.waitFor(GONE_WITHIN.toSeconds(), TimeUnit.SECONDS)).as("the killed process is gone").isTrue();

            try {
                CompletableFuture.allOf(below.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new))
                        .get(GONE_WITHIN.toMillis() - (System.nanoTime() - killedNs) / 1_000_000, TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                fail("still running %d s after their parent's SIGKILL: %s (stderr: %s)", GONE_WITHIN.toSeconds(),
                        below.stream().filter(ProcessHandle::isAlive).map(p -> p.pid() + " " + FullCommandLine.of(p))
                                .toList(), Files.readString(work.resolve("stderr.txt")));
            }
        } finally {
            below.forEach(ProcessHandle::destroyForcibly);
            parent.destroyForcibly();
        }
    }

    /** Every process below {@code parent} once it has at least the JVMs {@code expected} names (main class → count). */
    private static List<ProcessHandle> awaitJvms(Process parent, Map<String, Integer> expected) throws Exception {
        long deadline = System.nanoTime() + UP_TIMEOUT.toNanos();
        while (System.nanoTime() < deadline) {
            assertThat(parent.isAlive()).as("%s still runs", parent.info().commandLine().orElse("the parent")).isTrue();
            List<ProcessHandle> below = parent.descendants().toList();
            if (expected.entrySet().stream().allMatch(e -> below.stream()
                    .filter(p -> FullCommandLine.of(p).contains(e.getKey())).count() >= e.getValue())) {
                return below;
            }
            Thread.sleep(100);
        }
        throw new AssertionError("no " + expected + " below " + parent.pid() + " within " + UP_TIMEOUT.toSeconds() + " s");
    }

    private Process gauntlet(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(GauntletHome.fromSystemProperty().root().resolve("gauntlet").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectOutput(work.resolve("stdout.txt").toFile())
                .redirectError(work.resolve("stderr.txt").toFile());
        builder.environment().put("GAUNTLET_NO_BUILD", "1");
        Process process = builder.start();
        process.getOutputStream().close();
        return process;
    }
}
