package dev.gauntlet.runner.results;

import dev.gauntlet.runner.suite.RunPlan;
import dev.gauntlet.runner.suite.Suite;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.gauntlet.runner.results.StudyRows.row;
import static org.assertj.core.api.Assertions.assertThat;

/** The tables of the sweep, latency-diff and throughput suites, from rows built by hand. */
class StudyTablesTest {

    @Test
    void theSweepShowsTheMedianRateAndTheMostErrorsPerLevel() {
        List<ResultRow> rows = List.of(
                row("jetty", "c1", 1, 9_000, 0.1, 0.2, 0),
                row("jetty", "c10", 1, 20_000, 0.4, 1, 0),
                row("jetty", "c1", 2, 9_400, 0.1, 0.2, 0),
                row("jetty", "c10", 2, 21_000, 0.4, 1, 7),
                row("jetty", "c1", 3, 9_200, 0.1, 0.2, 0),
                row("jetty", "c10", 3, 22_000, 0.4, 1, 3),
                row("undertow", "c1", 1, 10_000, 0.1, 0.2, 0));

        List<String> lines = SweepTable.render(rows).lines().toList();

        assertThat(lines.get(0)).containsSubsequence("target", "c1", "c10");
        assertThat(lines.get(1)).containsSubsequence("jetty", "9200 (0)", "21000 (7)");
        assertThat(lines.get(2)).containsSubsequence("undertow", "10000 (0)", "-");
    }

    @Test
    void latencyDiffTakesTheDifferenceForkByForkAndCallsOneWhoseIntervalSpansZeroNone() {
        List<ResultRow> rows = List.of(
                // The machine drifts by 20 µs from fork to fork; the differences do not.
                row("dummy", "one", 1, 1, 10_000, 0.090, 1, 0),
                row("dummy", "one", 2, 1, 10_000, 0.110, 1, 0),
                row("dummy", "one", 3, 1, 10_000, 0.100, 1, 0),
                row("undertow", "one", 1, 1, 10_000, 0.103, 1, 0),
                row("undertow", "one", 2, 1, 10_000, 0.122, 1, 0),
                row("undertow", "one", 3, 1, 10_000, 0.113, 1, 0),
                row("tomcat", "one", 1, 1, 10_000, 0.092, 1, 0),
                row("tomcat", "one", 2, 1, 10_000, 0.109, 1, 0),
                row("tomcat", "one", 3, 1, 10_000, 0.103, 1, 0));

        List<String> lines = LatencyDiffTable.render(rows).lines().toList();

        assertThat(lines.get(1)).containsSubsequence("dummy", "3", "100", "baseline");
        // tomcat: +2, -1, +3: mean +1.3, standard error 1.2, t(2) 4.30: ±5.2, spans 0; undertow: +13, +12, +13: ±1.4
        assertThat(lines.get(2)).containsSubsequence("tomcat", "103", "+1.3", "-3.8–+6.5", "none detectable");
        assertThat(lines.get(3)).containsSubsequence("undertow", "113", "+12.7", "+11.2–+14.1", "+12.7 µs");
    }

    @Test
    void latencyDiffWithoutTheBaselineSaysSo() {
        assertThat(LatencyDiffTable.render(List.of(row("undertow", "one", 1, 10_000, 0.1, 1, 0))))
                .contains("no dummy baseline in this suite");
    }

    @Test
    void repetitionsThatDisagreeBeyondTheToleranceAreNotSteadyInTheRankingAndTheSpreadRow() {
        // The spring-mvc-sync: 3,098 / 15,998 / 37,855 requests/s; Netty within 10 %.
        List<ResultRow> rows = List.of(
                row("spring", "flood", 1, 3_098, 5, 9, 0), row("spring", "flood", 2, 15_998, 5, 9, 0),
                row("spring", "flood", 3, 37_855, 5, 9, 0),
                row("netty", "flood", 1, 100_000, 1, 2, 0), row("netty", "flood", 2, 95_000, 1, 2, 0),
                row("netty", "flood", 3, 104_000, 1, 2, 0));

        List<String> ranking = RankingTable.render(rows).lines().toList();
        List<String> runs = ResultsTable.render(rows).lines().toList();

        assertThat(ranking).anySatisfy(line -> assertThat(line).containsSubsequence("spring", "flood", "3", "15998",
                "not-steady", "rate/s varied by 93 % (cv) over 3 repetitions, beyond the 10 % tolerance"));
        assertThat(ranking).anySatisfy(line -> assertThat(line).containsSubsequence("netty", "flood", "3", "100000", "4.5%")
                .doesNotContain("not-steady"));
        assertThat(runs).anySatisfy(line -> assertThat(line).contains("spread (cv)").contains("not-steady"));
        assertThat(runs.stream().filter(line -> line.contains("spread (cv)") && line.contains("not-steady"))).hasSize(1);
    }

    @Test
    void theRankingPutsTheHighestRateFirstAndFailedRowsLast() {
        ResultRow failed = ResultRow.failed("tomcat", new RunPlan.Run(new Suite.Scenario("flood", null,
                Suite.Scenario.template(new dev.gauntlet.api.LoadModel.ClosedLoop(100)), 0, false, false), 1, 1), "target did not start");
        List<String> lines = RankingTable.render(List.of(
                row("jetty", "flood", 1, 20_000, 1, 5, 0), failed, row("netty", "flood", 1, 40_000, 1, 5, 0))).lines().toList();

        assertThat(lines.get(1)).containsSubsequence("1", "netty", "40000");
        assertThat(lines.get(2)).containsSubsequence("2", "jetty", "20000");
        assertThat(lines.get(3)).containsSubsequence("-", "tomcat", "target did not start");
        assertThat(lines).as("a failed closed loop's row has no p99 to mark").hasSize(4);
    }

    @Test
    void theRankingMarksAClosedLoopsP99AsTheRunsTableDoes() {
        ResultRow closed = StudyRows.timedFromActualSend(row("netty", "flood", 1, 40_000, 1, 5, 0));

        List<String> lines = RankingTable.render(List.of(closed)).lines().toList();

        assertThat(lines.get(1)).contains(" 5.00† ");
        assertThat(lines.get(2)).startsWith("† closed loop");
    }
}
