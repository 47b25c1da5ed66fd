package dev.gauntlet.runner.results;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.Verdict;
import dev.gauntlet.runner.suite.RunPlan;
import dev.gauntlet.runner.suite.Suite;
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
        // Written back in fork 1, and JFR's CPU load under its name of today: a share of the machine.
        assertThat(Json.json().writeValueAsString(rows))
                .isEqualTo(before.replaceAll("(\"scenario\" : \"\\w+\",\n)", "$1  \"fork\" : 1,\n")
                        .replace("\"meanPercent\"", "\"meanPercentOfMachine\"").replace("\"maxPercent\"", "\"maxPercentOfMachine\"")
                        .replace("\"cpuPercent\"", "\"cpuPercentOfMachine\""));
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
    void goodputIsCarriedFromTheSummaryAndAbsentFromAFileWrittenBeforeIt() throws IOException {
        ResultRow[] before = Json.json().readValue(resource(WRITTEN_BEFORE), ResultRow[].class);
        Suite.Scenario open = new Suite.Scenario("open", null,
                Suite.Scenario.template(new LoadModel.OpenLoop(400, LoadModel.InterArrival.CONSTANT)), 50, false, false);
        RunSummary behindItsBacklog = RunSummary.builder().spec(open.template()).measuredSec(2).achievedRatePerSec(0)
                .sustainedRatePerSec(0.0).goodputPerSec(78.5).build();

        ResultRow row = ResultRow.of("dummy", new RunPlan.Run(open, 1, 1), behindItsBacklog, null, null, null);
        String written = Json.json().writeValueAsString(row);

        assertThat(before[1].goodputPerSec()).as("unknown in a file written before it was a column").isNull();
        assertThat(before[1].freeOfCoordinatedOmission()).isNull();
        assertThat(before[1].timedFromActualSend()).as("unknown: unmarked").isFalse();
        assertThat(row.freeOfCoordinatedOmission()).as("the open loop's, as its model says").isTrue();
        assertThat(row.achievedRatePerSec()).isZero();
        assertThat(written).contains("\"goodputPerSec\" : 78.5", "\"freeOfCoordinatedOmission\" : true");
        assertThat(Json.json().readValue(written, ResultRow.class).goodputPerSec()).isEqualTo(78.5);
    }

    @Test
    void aClosedLoopsRowSaysItsTimesRunFromTheActualSendFailedOrNot() {
        Suite.Scenario closed = new Suite.Scenario("closed", null, Suite.Scenario.template(new LoadModel.ClosedLoop(4)), 0,
                false, false);
        RunSummary summary = RunSummary.builder().spec(closed.template()).measuredSec(2).build();

        assertThat(ResultRow.of("dummy", new RunPlan.Run(closed, 1, 1), summary, null, null, null).timedFromActualSend()).isTrue();
        assertThat(ResultRow.failed("dummy", new RunPlan.Run(closed, 1, 1), "target died").freeOfCoordinatedOmission()).isFalse();
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
