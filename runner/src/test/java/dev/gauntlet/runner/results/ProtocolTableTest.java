package dev.gauntlet.runner.results;

import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.gauntlet.runner.results.StudyRows.costing;
import static dev.gauntlet.runner.results.StudyRows.row;
import static dev.gauntlet.runner.results.StudyRows.timedFromActualSend;
import static org.assertj.core.api.Assertions.assertThat;

class ProtocolTableTest {

    /** Rows in run order (a target JVM a protocol, its scenarios in turn) come out a group per target and scenario. */
    @Test
    void groupsEachTargetsScenarioWithALineAProtocolAndEachSidesCpuPerRequest() {
        List<ResultRow> rows = List.of(
                costing(row("netty-event-loop@http1", "flood-64", 1, 165_776, 0.347, 1.16, 0), 11.84, 10.9),
                costing(row("netty-event-loop@http1", "handshake-8c", 1, 25_883, 0.205, 0.93, 0), 40.2, 38.0),
                costing(row("netty-event-loop@h3", "flood-64", 1, 31_204, 1.78, 6.14, 0), 57.25, 123.4),
                costing(row("netty-event-loop@h3", "handshake-8c", 1, 1_123, 6.14, 16.7, 2), null, 1_490.0));

        List<String> lines = ProtocolTable.render(rows).lines().toList();

        assertThat(lines.getFirst()).contains("target", "scenario", "protocol", "target µs/req", "generator µs/req");
        assertThat(lines.get(1)).startsWith("netty-event-loop").contains("flood-64", "http1", "165776", "11.8", "10.9");
        assertThat(lines.get(2)).startsWith(" ").doesNotContain("flood-64").contains("h3", "31204", "57.3", "123");
        assertThat(lines.get(3)).startsWith("netty-event-loop").contains("handshake-8c", "http1", "40.2", "38.0");
        // The target's CPU unknown (a target that does not say it): a dash, not a zero.
        assertThat(lines.get(4)).contains("h3", "1123", " - ", "1490", " 2 ");
        assertThat(lines).hasSize(5);
    }

    @Test
    void marksAClosedLoopsP99AndSaysWhyUnderTheTable() {
        String table = ProtocolTable.render(List.of(timedFromActualSend(row("jetty-handler-virtual@h2", "flood-64", 1, 90_000, 0.5, 2.0, 0))));

        assertThat(table).contains("2.00†").contains("† closed loop");
    }
}
