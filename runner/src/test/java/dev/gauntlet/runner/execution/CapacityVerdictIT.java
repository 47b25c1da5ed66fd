package dev.gauntlet.runner.execution;

import dev.gauntlet.api.AdminToken;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.Protocol;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.api.Verdict;
import dev.gauntlet.loadgen.split.JavaCommand;
import dev.gauntlet.runner.FileWatch;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.isolation.Isolation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The machine's capacity against the target's own drift, each for real, target and generator
 * pinned to CPUs of their own: a busy process started on the target's CPU in the middle of the
 * measured phase (the platform's step: the target's throughput halves and so does its CPUs'
 * capacity) gives {@code platform-noisy}; a target that slows itself on CPUs whose capacity holds
 * gives {@code not-steady}.
 */
@Tag("alone") // pins CPUs and takes the target's CPU from it
@Timeout(120)
class CapacityVerdictIT {
    private static final long WARMUP_MS = 3_000;
    private static final long MEASURED_MS = 8_000;

    @TempDir
    Path dir;

    @Test
    void aBusyNeighbourOnTheTargetsCpuMidPhaseIsThePlatforms() throws Exception {
        Isolation isolation = pinned();
        TargetLauncher launcher = new TargetLauncher(GauntletHome.fromSystemProperty(), TargetCatalogue.builtIn(),
                isolation.target(), List.of("-Xmx256m"));
        Path runDir = dir.resolve("step");
        AtomicReference<Process> neighbour = new AtomicReference<>();
        try (TargetProcess target = launcher.start("dummy-spin-50us", dir.resolve("target.log"))) {
            // From the measured phase's fifth second on: its second half runs beside the neighbour throughout.
            CompletableFuture<Void> step = afterMeasuredSecond(runDir, 4).thenRun(() -> neighbour.set(
                    busyOn(isolation.target().cpus())));
            RunSummary summary = generator(isolation).run(closedLoop(target.endpoint()), target.endpoint().adminToken(), runDir);
            step.cancel(true);

            assertThat(neighbour.get()).as("the neighbour was started").isNotNull();
            assertThat(summary.verdict()).as("%s; windows %s; %s", summary.evidence(), summary.steadiness().measured(),
                    summary.capacity()).isEqualTo(Verdict.PLATFORM_NOISY);
            assertThat(summary.evidence().getFirst()).contains("the capacity of the target's CPUs with it")
                    .endsWith("the machine's, not the target's");
            assertThat(summary.capacity().target().foreignShare()).as("the neighbour's share").isGreaterThan(0.15);
            assertThat(Files.readString(new RunDirectory(runDir).capacity())).startsWith("role,").contains("\ntarget,")
                    .contains("\ngenerator,");
        } finally {
            if (neighbour.get() != null) {
                // The shell under timeout first: killing timeout alone would leave it running.
                neighbour.get().descendants().forEach(ProcessHandle::destroyForcibly);
                neighbour.get().destroyForcibly();
            }
        }
    }

    @Test
    void aTargetThatSlowsItselfOnSteadyCpusIsNotSteady() throws Exception {
        Isolation isolation = pinned();
        String token = AdminToken.fresh();
        JavaCommand command = new JavaCommand(List.of("-Xmx256m"), System.getProperty("java.class.path"),
                TargetLauncher.MAIN_CLASS, List.of("--server", SlowingTargetStandIn.class.getName(), "--bind", "127.0.0.1",
                "--admin-bind", "127.0.0.1"));
        List<String> hostSteps = new ArrayList<>();
        RunSummary summary = null;
        // The premise is CPUs whose capacity holds: a run in which this host's own capacity stepped as well is rightly
        // the platform's, says nothing of the rule, and is run again (at most twice more).
        for (int attempt = 1; attempt <= 3 && (summary == null || summary.verdict() == Verdict.PLATFORM_NOISY); attempt++) {
            try (TargetProcess target = TargetProcess.start(command, token, isolation.target(),
                    TargetCatalogue.builtIn().target("dummy").orElseThrow(), Protocol.HTTP1,
                    dir.resolve("target-" + attempt + ".log"), Duration.ofSeconds(30))) {
                summary = generator(isolation).run(closedLoop(target.endpoint()), token, dir.resolve("ramp-" + attempt));
            }
            if (summary.verdict() == Verdict.PLATFORM_NOISY) {
                assertThat(summary.evidence().getFirst()).as("a platform verdict only for a capacity that moved")
                        .contains("the capacity of the target's CPUs with it");
                hostSteps.add(summary.evidence().getFirst());
            }
        }

        assertThat(summary.verdict()).as("%s; before it, the host's own steps: %s", summary.evidence(), hostSteps)
                .isEqualTo(Verdict.NOT_STEADY);
        assertThat(summary.evidence().getFirst()).startsWith("its throughput moved from")
                .contains("which does not explain it");
        assertThat(summary.capacity().target().known()).as("the target served its capacity").isTrue();
    }

    private static Isolation pinned() {
        assumeTrue(Runtime.getRuntime().availableProcessors() >= 2, "needs a CPU for the target and one for the generator");
        Isolation isolation = Isolation.defaults();
        assumeTrue(!isolation.target().cpus().isEmpty(), "needs taskset to pin the roles");
        return isolation;
    }

    private static GeneratorLauncher generator(Isolation isolation) {
        return new GeneratorLauncher(GauntletHome.fromSystemProperty(), isolation.generator(), List.of("-Xmx256m"));
    }

    private static LoadSpec closedLoop(TargetEndpoint target) {
        return LoadSpec.of(target.uri("/hello"), new LoadModel.ClosedLoop(20)).toBuilder().warmupMs(WARMUP_MS)
                .durationMs(MEASURED_MS).adminUrl(target.adminUri("/")).build();
    }

    /**
     * Completes when the generator's log shows its measured phase's second {@code second} over, watched for: the
     * neighbour then starts with the next second, mid-phase, which is the behaviour under test.
     */
    private static CompletableFuture<Void> afterMeasuredSecond(Path runDir, int second) {
        return CompletableFuture.runAsync(() -> {
            try {
                FileWatch.awaitLine(new RunDirectory(runDir).generatorLog(), l -> l.matches("\\s+" + second + "s\\s+sent.*"),
                        Duration.ofSeconds(90));
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
    }

    /** A shell loop on {@code cpus}, ending by itself after 15 s (and by the test's finally before). */
    private static Process busyOn(String cpus) {
        try {
            return new ProcessBuilder("taskset", "-c", cpus, "timeout", "15", "sh", "-c", "while :; do :; done").start();
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
