package dev.gauntlet.runner.metrics;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunJvmCosts;
import dev.gauntlet.runner.Main;
import dev.gauntlet.runner.report.ReportData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A suite's profile gives one target JVM options of its own: the run records them, the target's recording shows the
 * collector they name, and the report lists them.
 *
 * <p>Side by side, not alone (it was a case of {@link JvmMetricsIT} until 2026-12): it checks which collector each
 * target ran on and what was recorded, no pause, rate or duration, so a neighbour cannot change its outcome.
 */
class SuiteProfileJvmIT {

    @TempDir
    Path work;

    @Test
    void aTargetGivenItsOwnCollectorByTheSuitesProfileRunsOnIt() throws Exception {
        Path results = work.resolve("own");
        // The profile gives dummy 2016's collector; jetty-handler-sync keeps the suite's.
        Path suite = Files.writeString(work.resolve("own.yaml"), """
                name: it-own-jvm
                targets: [dummy, jetty-handler-sync]
                jvm: { target: [-Xmx256m, -XX:+UseSerialGC], generator: [-Xmx256m, -Dgauntlet.jitWarmup=false] }
                scenarios:
                  - { name: run, load: { type: closed, connections: 2 }, durationMs: 1000 }
                profiles:
                  parallel:
                    description: dummy on the Parallel collector
                    jvm: { perTarget: { dummy: [-Xms256m, -Xmx256m, -XX:+UseParallelGC] } }
                """);

        int exit = Main.execute("run", "--suite", suite.toString(), "--profile", "parallel", "--results",
                results.toString(), "--no-calibration");

        assertThat(exit).isZero();
        Path dir;
        try (Stream<Path> dirs = Files.list(results)) {
            dir = dirs.toList().getFirst();
        }
        JsonNode recorded = Json.json().readTree(dir.resolve("suite.json").toFile()).path("suite");
        assertThat(recorded.path("jvm").path("perTarget").path("dummy").toString()).contains("-XX:+UseParallelGC");
        assertThat(recorded.path("description").asText()).isEqualTo("Profile parallel: dummy on the Parallel collector.");
        assertThat(gcOf(dir, "dummy")).contains("Parallel");
        assertThat(gcOf(dir, "jetty-handler-sync")).isEqualTo("DefNew/SerialOld");
        JsonNode shown = ReportData.read(dir).path("jvmOptions").path("targets");
        assertThat(shown.path("dummy").toString()).contains("-XX:+UseParallelGC");
        assertThat(shown.path("jetty-handler-sync").toString()).contains("-XX:+UseSerialGC");
    }

    /** The collectors a run's target ran with, as its recording says. */
    private static String gcOf(Path resultsDir, String target) throws IOException {
        RunDirectory run = new RunDirectory(resultsDir.resolve("runs").resolve(target).resolve("run").resolve("1"));
        return Json.json().readValue(run.jvm().toFile(), RunJvmCosts.class).target().gc();
    }
}
