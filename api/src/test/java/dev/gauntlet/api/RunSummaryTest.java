package dev.gauntlet.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class RunSummaryTest {
    /**
     * A summary.json as the runner wrote it before summaries were built through the builder, and before the runner
     * wrote the JVMs' costs to jvm.json: they are in its {@code jvm}; with the fields added since (the wake granularity).
     */
    private static final String WRITTEN_BEFORE = "summary.json";

    @Test
    void aSummaryWrittenBeforeReadsAndWritesBackAsItWasItsJvmCostsLeftOut() throws IOException {
        String before = resource(WRITTEN_BEFORE);
        ObjectNode withoutJvm = (ObjectNode) Json.json().readTree(before);
        assertThat(withoutJvm.remove("jvm")).as("the runner's jvm in the summary written before").isNotNull();

        RunSummary summary = Json.json().readValue(before, RunSummary.class);

        assertThat(Json.json().writeValueAsString(summary)).isEqualTo(Json.json().writeValueAsString(withoutJvm));
        assertThat(Json.json().writeValueAsString(summary.toBuilder().build())).isEqualTo(Json.json().writeValueAsString(withoutJvm));
    }

    /**
     * jvm.json holds what a summary.json written before held as {@code jvm}, field for field: readers take either; JFR's
     * CPU load, a share of the machine, is written under the names that say so.
     */
    @Test
    void theJvmCostsOfASummaryWrittenBeforeReadAsJvmJsonAndWriteBackAsTheyWere() throws IOException {
        JsonNode before = Json.json().readTree(resource(WRITTEN_BEFORE)).get("jvm");

        RunJvmCosts jvm = Json.json().treeToValue(before, RunJvmCosts.class);

        assertThat(jvm.target().gc()).isEqualTo("DefNew/SerialOld");
        assertThat(jvm.generator().gcPauses().timeline()).hasSize(2);
        assertThat(jvm.alignment().intervals()).hasSize(8);
        assertThat(Json.json().writeValueAsString(jvm)).isEqualTo(Json.json().writeValueAsString(before)
                .replace("\"meanPercent\"", "\"meanPercentOfMachine\"").replace("\"maxPercent\"", "\"maxPercentOfMachine\"")
                .replace("\"cpuPercent\"", "\"cpuPercentOfMachine\""));
        assertThat(jvm.target().cpu().meanPercent()).isEqualTo(before.path("target").path("cpu").path("meanPercent").asDouble());
    }

    @Test
    void theBuilderSetsEachFigureByNameAndChangesOnlyThoseAsked() throws IOException {
        RunSummary summary = Json.json().readValue(resource(WRITTEN_BEFORE), RunSummary.class);

        RunSummary judged = summary.toBuilder().verdict(Verdict.TARGET_OVERLOADED).evidence(List.of("connections piled up"))
                .droppedQueueFull(3).build();

        assertThat(judged).usingRecursiveComparison().ignoringFields("verdict", "evidence", "droppedQueueFull").isEqualTo(summary);
        assertThat(judged.verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(judged.evidence()).containsExactly("connections piled up");
        assertThat(judged.droppedQueueFull()).isEqualTo(3);
        assertThat(summary.withVerdict(Verdict.TARGET_OVERLOADED, List.of("connections piled up")))
                .isEqualTo(summary.toBuilder().verdict(Verdict.TARGET_OVERLOADED).evidence(List.of("connections piled up")).build());
    }

    @Test
    void aBuiltSummaryStartsFromNeutralFigures() {
        LoadSpec spec = LoadSpec.of(URI.create("http://127.0.0.1:1/hello"), new LoadModel.ClosedLoop(1));

        RunSummary summary = RunSummary.builder().spec(spec).startedAt(Instant.EPOCH).measuredSec(2).sent(10).completed(10)
                .errors(Map.of(ErrorClass.RESET, 0L)).build();

        assertThat(summary.completed()).isEqualTo(10);
        assertThat(summary.errorCount()).isZero();
        assertThat(summary.verdict()).isEqualTo(Verdict.OK);
        assertThat(summary.evidence()).isEmpty();
        assertThat(summary.responseTime()).isEqualTo(Percentiles.EMPTY);
        assertThat(summary.connectTime()).isEqualTo(Percentiles.EMPTY);
        assertThat(summary.processes()).isEqualTo(1);
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = RunSummaryTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
