package dev.gauntlet.runner.results;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.Verdict;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ResultRowTest {
    /** A results.json as the runner wrote it before rows held a typed verdict: a run that failed ({@code -}), then one ok. */
    private static final String WRITTEN_BEFORE = "results-with-a-failed-run.json";

    @Test
    void aResultsFileWrittenBeforeReadsWithItsFailedRunAsNoVerdictAndWritesBackTheSameInFork1() throws IOException {
        String before = resource(WRITTEN_BEFORE);

        ResultRow[] rows = Json.json().readValue(before, ResultRow[].class);

        assertThat(rows[0].verdict()).isNull();
        assertThat(rows[0].measured()).isFalse();
        assertThat(rows[0].verdictLabel()).isEqualTo("-");
        assertThat(rows[1].verdict()).isEqualTo(Verdict.OK);
        assertThat(rows[1].measured()).isTrue();
        assertThat(rows[1].verdictLabel()).isEqualTo("ok");
        assertThat(rows[0].fork()).as("a row written before forks is fork 1").isEqualTo(1);
        assertThat(Json.json().writeValueAsString(rows))
                .isEqualTo(before.replaceAll("(\"scenario\" : \"\\w+\",\n)", "$1  \"fork\" : 1,\n"));
    }

    @Test
    void requestsTheGeneratorDroppedAreWrittenWhenThereWereSome() throws IOException {
        ResultRow[] rows = Json.json().readValue(resource(WRITTEN_BEFORE), ResultRow[].class);
        ResultRow dropping = StudyRows.dropped(rows[1], 12_345);

        String written = Json.json().writeValueAsString(dropping);

        assertThat(rows[1].droppedQueueFull()).as("none in a file written before it was a column").isZero();
        assertThat(written).contains("\"droppedQueueFull\" : 12345");
        assertThat(Json.json().readValue(written, ResultRow.class).droppedQueueFull()).isEqualTo(12_345);
    }

    @Test
    void aVerdictNoOneWroteIsRefused() throws IOException {
        String unknown = resource(WRITTEN_BEFORE).replace("\"verdict\" : \"ok\"", "\"verdict\" : \"fine\"");

        assertThatThrownBy(() -> Json.json().readValue(unknown, ResultRow[].class)).hasMessageContaining("no verdict 'fine'");
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = ResultRowTest.class.getResourceAsStream(name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
