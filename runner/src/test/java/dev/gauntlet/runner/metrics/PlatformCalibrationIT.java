package dev.gauntlet.runner.metrics;

import dev.gauntlet.api.CapacityLevel;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.isolation.Isolation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** The calibration's two JVMs on this machine, pinned as a suite's target and generator would be. */
@Tag("alone") // pins CPUs, asserts sample counts, and takes the target's CPUs for 4 s
class PlatformCalibrationIT {

    @Test
    void measuresBothSidesHiccupsAndTheRoundTripBetweenThem() {
        Isolation isolation = Isolation.defaults();

        PlatformCalibration.PlatformFloor floor = new PlatformCalibration(GauntletHome.fromSystemProperty(), isolation.target(),
                isolation.generator()).measure(Duration.ofSeconds(2));

        assertThat(floor.targetCpus()).isEqualTo(isolation.target().cpus());
        // About one wake-up a millisecond on each side, and a round trip every 2 ms or so. The target's side measures
        // until the generator's hangs up, so its count has the generator's JVM start and probe warm-up in it too.
        assertThat(floor.targetHiccups().count()).isBetween(1_000L, 2_500L);
        assertThat(floor.generatorHiccups().count()).isBetween(1_000L, 2_100L);
        assertThat(floor.roundTrip().count()).isBetween(100L, 1_000L);
        assertThat(floor.roundTrip().p50Ms()).isGreaterThan(0).isLessThan(floor.roundTrip().maxMs() + 1e-9);
        // Each side's whole seconds: the last one, cut short by the end, is not one.
        for (CapacityLevel capacity : List.of(floor.targetCapacity(), floor.generatorCapacity())) {
            assertThat(capacity.seconds()).isBetween(1, 3).isEqualTo(capacity.indexes().size());
            assertThat(capacity.indexes()).allSatisfy(index -> assertThat(index).isPositive());
            assertThat(capacity.mean()).isPositive();
            assertThat(capacity.probeUs()).isPositive();
        }
        assertThat(floor.describe()).startsWith("platform: wake-up p99 ").contains("loopback round trip p50 ")
                .containsPattern("; capacity [\\d,]+ \\(±\\d+ %\\) target / [\\d,]+ \\(±\\d+ %\\) generator \\(2 s calibration\\)$");
    }

    @Test
    void aBusyProcessOnTheTargetsCpusTakesTheTargetSidesCapacity() throws IOException {
        Isolation isolation = Isolation.defaults();
        assumeTrue(!isolation.target().cpus().isEmpty() && isExecutable("taskset") && isExecutable("timeout"),
                "needs the target's own CPUs, taskset and timeout");
        List<Process> busy = new ArrayList<>();
        PlatformCalibration.PlatformFloor floor;
        try {
            // As many loops as this machine has CPUs, all on the target's: each of its CPUs gets one at least.
            for (int i = 0; i < Runtime.getRuntime().availableProcessors(); i++) {
                busy.add(new ProcessBuilder("taskset", "-c", isolation.target().cpus(), "timeout", "15", "sh", "-c",
                        "while :; do :; done").redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start());
            }
            floor = new PlatformCalibration(GauntletHome.fromSystemProperty(), isolation.target(), isolation.generator())
                    .measure(Duration.ofSeconds(4));
        } finally {
            busy.forEach(PlatformCalibrationIT::stop);
        }

        CapacityLevel target = floor.targetCapacity();
        CapacityLevel generator = floor.generatorCapacity();
        assertThat(target.seconds()).as("%s", target).isGreaterThanOrEqualTo(2);
        assertThat(generator.seconds()).as("%s", generator).isGreaterThanOrEqualTo(2);
        assertThat(target.mean()).as("target %s, generator %s", target, generator).isLessThan(0.5 * generator.mean());
        // The loops run whenever the echo's JVM does not: most of the target's CPU time is another process's, and
        // little of the generator's.
        assertThat(target.foreignShare()).as("%s", target).isGreaterThan(0.5);
        assertThat(generator.foreignShare()).as("%s", generator).isLessThan(0.5);
    }

    /**
     * SIGTERM, which {@code timeout} passes on to its loop: SIGKILL would end {@code timeout} alone and leave the loop
     * running with no one to end it.
     */
    private static void stop(Process loop) {
        loop.destroy();
        try {
            if (!loop.waitFor(5, TimeUnit.SECONDS)) {
                loop.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            loop.destroyForcibly();
        }
    }

    private static boolean isExecutable(String tool) {
        return Files.isExecutable(Path.of("/usr/bin", tool)) || Files.isExecutable(Path.of("/bin", tool));
    }
}
