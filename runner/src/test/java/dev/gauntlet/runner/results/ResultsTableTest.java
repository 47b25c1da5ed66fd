package dev.gauntlet.runner.results;

import dev.gauntlet.api.JvmMetrics;
import dev.gauntlet.api.Numbers;
import dev.gauntlet.api.Verdict;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ResultsTableTest {

    @Test
    void millisKeepThreeSignificantFigures() {
        assertThat(Numbers.millis(0.04123)).isEqualTo("0.041");
        assertThat(Numbers.millis(1.2345)).isEqualTo("1.23");
        assertThat(Numbers.millis(12.345)).isEqualTo("12.3");
        assertThat(Numbers.millis(1234.5)).isEqualTo("1235");
        assertThat(Numbers.millis(Double.NaN)).isEqualTo("-");
    }

    @Test
    void aRowShowsItsFiguresAndItsNote() {
        ResultRow row = new ResultRow("dummy", "closed-50c", 1, 1, "closed 50c", 0, 123_456, 3, 12_345.6, 0.75,
                0.5, 2.25, 10.5, 101, 50L, 0.21, 3.4, Verdict.PLATFORM_NOISY, "schedule lag p99 3.1 ms is the platform's",
                jvm(3, 12.5, 200L * 1024 * 1024), jvm(0, 0, null), null, null, 7, null, null, 0, null, null, null);

        String table = ResultsTable.render(List.of(row));

        assertThat(table.lines().toList()).hasSize(2);
        assertThat(table.lines().toList().getFirst()).contains("target", "unanswered", "rate/s", "p99.9 ms", "errors", "in flight",
                "hiccup p99", "gc max ms", "heap MB", "verdict");
        assertThat(table.lines().toList().get(1)).containsPattern("123456 +7 +12346").contains("dummy", "closed-50c", "0.750", "0.500", "2.25",
                "10.5", "101", " 50 ", "0.210/3.40", "0/12.5", "-/200", "platform-noisy", "schedule lag p99 3.1 ms is the platform's");
    }

    @Test
    void requestsTheGeneratorDroppedHaveAColumnOnlyWhenARowDroppedSome() {
        ResultRow clean = StudyRows.row("dummy", "open-1k", 1, 1_000, 1, 2, 0);
        ResultRow dropping = new ResultRow("dummy", "open-50k", 1, 1, "open 50000/s exp", 0, 400_000, 0, 40_000, 1, 0.5, 2, 3, 4,
                null, 0.2, 0.2, Verdict.GENERATOR_LIMITED, "12345 requests of the measured phase were dropped", null, null,
                null, null, 0, null, null, 12_345, null, null, null);

        assertThat(ResultsTable.render(List.of(clean)).lines().toList().getFirst()).doesNotContain("dropped");

        List<String> lines = ResultsTable.render(List.of(clean, dropping)).lines().toList();
        assertThat(lines.getFirst()).containsPattern("unanswered +dropped +rate/s");
        assertThat(lines.get(1)).containsPattern("10000 +0 +0 +1000 ");
        assertThat(lines.get(2)).containsPattern("400000 +0 +12345 +40000 ");
    }

    @Test
    void aTargetBusyWithABacklogShowsWhatItAnsweredBesideARateOfZero() {
        ResultRow behind = new ResultRow("jetty-servlet-virtual", "overhead", 1, 1, "open 100000/s exp", 0, 0, 0, 0, Double.NaN,
                Double.NaN, Double.NaN, Double.NaN, Double.NaN, 10_000L, 0.2, 0.2, Verdict.TARGET_OVERLOADED, "", null, null,
                null, null, 150_000, null, null, 0, 41_234.4, true, null);
        ResultRow before = StudyRows.row("dummy", "open-1k", 1, 1_000, 1, 2, 0);

        List<String> lines = ResultsTable.render(List.of(behind, before)).lines().toList();

        assertThat(lines.getFirst()).containsPattern("rate/s +goodput/s +mean ms");
        assertThat(lines.get(1)).containsPattern(" 150000 +0 +41234 +- ");
        assertThat(lines.get(2)).as("a row written before goodput was counted").containsPattern(" 1000 +- ");
    }

    @Test
    void aClosedLoopsP99IsMarkedAsTimedFromTheActualSendAndTheTableSaysWhy() {
        ResultRow open = new ResultRow("dummy", "open-1k", 1, 1, "open 1k/s exp", 0, 10_000, 0, 1_000, 1, 0.5, 2.5, 3, 4, null,
                0.2, 0.2, Verdict.OK, "", null, null, null, null, 0, null, null, 0, 1_000.0, true, null);
        ResultRow closed = new ResultRow("dummy", "closed-50c", 1, 1, "closed 50c", 0, 10_000, 0, 1_000, 1, 0.5, 7.5, 9, 12, null,
                0.2, 0.2, Verdict.OK, "", null, null, null, null, 0, null, null, 0, 1_000.0, false, null);

        List<String> lines = ResultsTable.render(List.of(open, closed)).lines().toList();

        assertThat(lines.get(1)).contains(" 2.50 ").doesNotContain("†");
        assertThat(lines.get(2)).contains(" 7.50† ");
        assertThat(lines.getLast()).startsWith("† closed loop").contains("actual send", "as wrk's", "not free of coordinated omission");
        assertThat(ResultsTable.render(List.of(open)).lines().toList()).as("no footnote without a marked row").hasSize(2);
    }

    @Test
    void aFailedRowHasNoJvmFigures() {
        ResultRow row = new ResultRow("dummy", "closed-50c", 1, 1, "closed 50c", 0, 0, 0, 0, Double.NaN, Double.NaN, Double.NaN,
                Double.NaN, Double.NaN, null, Double.NaN, Double.NaN, null, "target died", null, null, null, null, 0, null, null, 0, null, null, null);

        assertThat(ResultsTable.render(List.of(row)).lines().toList().get(1)).containsPattern("-\\s+-\\s+-\\s+-\\s+target died");
    }

    @Test
    void repeatedRunsEndWithTheirBestMedianAndSpread() {
        List<ResultRow> rows = List.of(
                StudyRows.row("jetty", "slow", 1, 500, 1010, 1050, 0),
                StudyRows.row("jetty", "slow", 2, 490, 1030, 1200, 2),
                StudyRows.row("jetty", "slow", 3, 495, 1020, 1100, 1),
                StudyRows.row("jetty", "overhead", 1, 20_000, 1, 5, 0));

        List<String> lines = ResultsTable.render(rows).lines().toList();

        assertThat(lines).hasSize(1 + 3 + 3 + 1);
        assertThat(lines.get(4)).contains("best of 3", "500", "1050").doesNotContain("1200");
        assertThat(lines.get(5)).contains("median", "495", "1100");
        // p99 1050, 1200, 1100: mean 1116.7, sample deviation 76.4, so 6.8 % of the mean
        assertThat(lines.get(6)).contains("spread (cv)", "6.8%");
        assertThat(lines.get(7)).contains("overhead").doesNotContain("best");
    }

    private static JvmMetrics jvm(int pauses, double pauseMaxMs, Long heapMaxBytes) {
        return new JvmMetrics("G1New/G1Old", List.of(), new JvmMetrics.GcPauses(pauses, pauses * pauseMaxMs, pauseMaxMs, List.of()),
                new JvmMetrics.Heap(heapMaxBytes, heapMaxBytes, heapMaxBytes), new JvmMetrics.Threads(20, 0, null, null, null),
                new JvmMetrics.Cpu(10.0, 20.0, 5.0), new JvmMetrics.Memory(null, null));
    }
}
