package dev.gauntlet.runner.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.ResultsDirectory;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.runner.Cli.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

import static dev.gauntlet.runner.Cli.cli;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run's JVM costs as the report and {@code compare} read them: from {@code jvm.json}, or, in a results directory
 * written before the runner wrote one, from {@code summary.json}'s {@code jvm}. The fixture is such a directory, one
 * run of a real suite (its recordings left out, which the report never reads).
 */
class ReportDataTest {
    private static final String WRITTEN_BEFORE = "written-before-jvm-json";
    private static final String RUN = "runs/netty-event-loop/overhead/1";

    @TempDir
    Path work;

    @Test
    void aRunWrittenBeforeJvmJsonHasItsJvmCostsFromSummaryJson() throws Exception {
        JsonNode run = ReportData.read(fixture()).path("runs").path(0);

        assertThat(run.path("jvm").path("target").path("gc").asText()).isEqualTo("G1New/G1Old");
        assertThat(run.path("jvm").path("generator").path("gc").asText()).isEqualTo("G1New/G1Old");
        assertThat(run.path("jvm").path("target").path("gcPauses").has("timeline")).as("the pauses go to gc").isFalse();
        assertThat(run.path("gc").path("target")).as("the target's pauses, on the timeline").hasSize(2);
        assertThat(run.path("samples").path("target").path("platformThreads")).hasSize(10);
        assertThat(run.path("jvm").path("notes")).isEmpty();
    }

    @Test
    void theSameRunWithItsJvmCostsInJvmJsonReadsTheSame() throws Exception {
        Path before = fixture();
        Path today = inTodaysLayout(before, work.resolve("today"));

        ObjectNode runBefore = (ObjectNode) ReportData.read(before).path("runs").path(0);
        ObjectNode runToday = (ObjectNode) ReportData.read(today).path("runs").path(0);

        assertThat(runToday.remove("files")).contains(Json.json().getNodeFactory().textNode("jvm.json"));
        runBefore.remove("files");
        assertThat(runToday.path("jvm").path("target").isObject()).isTrue();
        assertThat(runToday).isEqualTo(runBefore);
    }

    @Test
    void compareReadsADirectoryWrittenBeforeJvmJsonBesideOneWrittenToday() throws Exception {
        Path before = copy(fixture(), work.resolve("before"));
        // The fixture's run was judged target-overloaded, whose figures compare would not compare.
        Path results = new ResultsDirectory(before).results();
        JsonNode rows = Json.json().readTree(results.toFile());
        rows.forEach(row -> ((ObjectNode) row).put("verdict", "ok"));
        Json.json().writeValue(results.toFile(), rows);
        Path today = inTodaysLayout(before, work.resolve("today"));

        Result compared = cli("compare", before.toString(), today.toString(), "--fail-on", "p99=+1%");

        assertThat(compared.code()).as(compared.out() + compared.err()).isZero();
        assertThat(compared.out()).contains("all hold");
    }

    private static Path fixture() throws URISyntaxException {
        return Path.of(ReportDataTest.class.getResource(WRITTEN_BEFORE).toURI());
    }

    /** A copy of {@code before} as the runner writes it now: summary.json the generator's, the JVM costs in jvm.json. */
    private static Path inTodaysLayout(Path before, Path today) throws IOException {
        copy(before, today);
        RunDirectory run = new ResultsDirectory(today).run("netty-event-loop", "overhead", 1, 1);
        assertThat(run.path()).isEqualTo(today.resolve(RUN));
        ObjectNode summary = (ObjectNode) Json.json().readTree(run.summary().toFile());
        JsonNode jvm = summary.remove("jvm");
        assertThat(jvm).as("the fixture's summary.json holds the jvm costs").isNotNull();
        Json.json().writeValue(run.summary().toFile(), summary);
        Json.json().writeValue(run.jvm().toFile(), jvm);
        return today;
    }

    private static Path copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : files.toList()) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target);
                }
            }
        }
        return to;
    }
}
