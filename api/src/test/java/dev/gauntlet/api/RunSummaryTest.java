package dev.gauntlet.api;

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
    /** A summary.json as the runner wrote it (JVM costs included) before summaries were built through the builder, with the fields added since. */
    private static final String WRITTEN_BEFORE = "summary.json";

    @Test
    void aSummaryWrittenBeforeReadsAndWritesBackByteForByte() throws IOException {
        String before = resource(WRITTEN_BEFORE);

        RunSummary summary = Json.json().readValue(before, RunSummary.class);

        assertThat(summary.jvm()).isNotNull();
        assertThat(Json.json().writeValueAsString(summary)).isEqualTo(before);
        assertThat(Json.json().writeValueAsString(summary.toBuilder().build())).isEqualTo(before);
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
        assertThat(summary.withVerdict(Verdict.TARGET_OVERLOADED, List.of("connections piled up")).withJvm(summary.jvm()))
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
        assertThat(summary.jvm()).isNull();
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = RunSummaryTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
