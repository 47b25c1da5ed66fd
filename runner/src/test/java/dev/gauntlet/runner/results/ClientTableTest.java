package dev.gauntlet.runner.results;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.JvmMetrics;
import dev.gauntlet.api.Verdict;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ClientTableTest {

    @Test
    void aRowShowsTheCaseTheClientTheGeneratorsCostsAndTheErrorsByClass() {
        JvmMetrics generator = new JvmMetrics("G1", List.of(), new JvmMetrics.GcPauses(2, 3, 2, List.of()),
                new JvmMetrics.Heap(300L << 20, 120L << 20, 512L << 20), new JvmMetrics.Threads(19_030, 0, null, null, null),
                new JvmMetrics.Cpu(48.5, 90.0, 100.0), new JvmMetrics.Memory(900L << 20, 16L << 20));
        ResultRow row = new ResultRow("netty-event-loop", "held.okhttp-platform", 1, 1, "max-concurrency 19000", 9000, 0,
                19_000, 0, Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN, 17_800L, 0.2, 0.2, Verdict.OK, "",
                null, generator, "okhttp-platform", Map.of(ErrorClass.NO_THREAD, 1_200L, ErrorClass.RESET, 3L), 0, null, null, 0, null, null, null);

        List<String> lines = ClientTable.render(List.of(row)).lines().toList();

        assertThat(lines.getFirst()).contains("case", "client", "avg ms", "max ms", "heap max MB", "heap avg MB", "threads",
                "direct MB", "cpu %", "errors", "in flight");
        assertThat(lines.get(1)).startsWith("held ").contains("okhttp-platform", " 17800 ", " 300 ", " 120 ", "19030", " 16 ", "48.5",
                "1200 no_thread, 3 reset");
        assertThat(lines.get(1)).as("held requests go unanswered: no times").doesNotContain("0.000").containsPattern("( +-){5} +17800 ");
    }

    @Test
    void aRunWithoutAGcHasNoHeapAfterGcAndSaysSo() {
        JvmMetrics noGc = new JvmMetrics("G1", List.of(), new JvmMetrics.GcPauses(0, 0, 0, List.of()),
                new JvmMetrics.Heap(null, null, null), new JvmMetrics.Threads(30, 0, null, null, null),
                new JvmMetrics.Cpu(20.0, 30.0, 5.0), new JvmMetrics.Memory(200L << 20, 0L));
        ResultRow row = new ResultRow("netty-event-loop", "slow.apache-async", 1, 1, "open 500/s exp", 1000, 2_485,
                0, 497, 1001, 1010, 1001, 1005, 1009, 544L, 0.2, 0.2, Verdict.OK, "", null, noGc, "apache-async", Map.of(), 0, null, null, 0, null, null, null);

        assertThat(ClientTable.render(List.of(row)).lines().toList().get(1)).containsPattern(" 544 +no gc +no gc +30 ");
    }

    @Test
    void aClientLimitedRowShowsItsVerdictAndEvidenceInTheirColumns() {
        ResultRow row = new ResultRow("netty-event-loop", "overhead.jdk-platform", 1, 1, "closed 100c", 0, 80_000,
                0, 10_000, 9.8, 9.5, 21, 30, 45, 100L, 0.2, 0.2, Verdict.CLIENT_LIMITED,
                "the generator process used 99 % of the CPUs it may use", null, null, "jdk-platform", Map.of(), 0, null, null, 0, null, null, null);

        String line = ClientTable.render(List.of(row)).lines().toList().get(1);

        assertThat(line).containsPattern(" -  +client-limited +the generator process used 99 % of the CPUs it may use$");
    }

    @Test
    void aRowOverAnotherProtocolThanHttp1SaysItBesideTheClient() {
        ResultRow row = new ResultRow("netty-event-loop@h3", "overhead.reactor-async", 1, 1, "closed 100c", 0, 80_000,
                0, 10_000, 9.8, 9.5, 21, 30, 45, 100L, 0.2, 0.2, Verdict.OK, "", null, null, "reactor-async", Map.of(), 0, null,
                null, 0, null, null, null);

        assertThat(ClientTable.render(List.of(row)).lines().toList().get(1)).startsWith("overhead ").contains(" reactor-async@h3 ");
    }

    @Test
    void aRowOfTheBuiltInEngineKeepsItsScenarioName() {
        ResultRow row = StudyRows.row("netty-event-loop", "closed-100c", 1, 1_000, 1, 2, 0);

        assertThat(ClientTable.caseOf(row)).isEqualTo("closed-100c");
        assertThat(ClientTable.render(List.of(row)).lines().toList().get(1)).contains("built-in");
    }
}
