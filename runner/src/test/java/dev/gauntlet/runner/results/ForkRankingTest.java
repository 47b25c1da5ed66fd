package dev.gauntlet.runner.results;

import dev.gauntlet.runner.statistics.Contrast;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static dev.gauntlet.runner.results.StudyRows.row;
import static org.assertj.core.api.Assertions.assertThat;

class ForkRankingTest {
    /** Three forks of each target, two repetitions each; {@code rates} the forks' means. */
    private static List<ResultRow> forks(String target, double... rates) {
        List<ResultRow> rows = new ArrayList<>();
        for (int fork = 1; fork <= rates.length; fork++) {
            // The repetitions of a fork straddle its mean: only the fork's mean is a sample.
            rows.add(row(target, "flood", fork, 1, rates[fork - 1] - 500, 1, 2, 0));
            rows.add(row(target, "flood", fork, 2, rates[fork - 1] + 500, 1, 2, 0));
        }
        return rows;
    }

    @Test
    void targetsShareARankUntilTheirDifferenceIsResolved() {
        List<ResultRow> rows = new ArrayList<>();
        rows.addAll(forks("undertow", 99_000, 100_500, 99_700));
        rows.addAll(forks("jetty", 80_000, 81_000, 79_500));
        rows.addAll(forks("netty", 100_000, 101_000, 99_800));

        List<ForkRanking.Place> places = ForkRanking.of(rows, ResultRow::achievedRatePerSec,
                Contrast.Direction.HIGHER_IS_BETTER, 0.95).getFirst().places();

        assertThat(places).extracting(ForkRanking.Place::target).containsExactly("netty", "undertow", "jetty");
        assertThat(places).extracting(ForkRanking.Place::rank).containsExactly(1, 1, 3);
        assertThat(places.get(1).standing()).startsWith("no difference detectable (95 % CI");
        assertThat(places.get(2).standing()).startsWith("undertow is 24.4 % faster than jetty (95 % CI");
        assertThat(places.getFirst().figure().samples()).as("forks, not runs").isEqualTo(3);
    }

    @Test
    void theTablesGiveTheIntervalsOverForks() {
        List<ResultRow> rows = new ArrayList<>();
        rows.addAll(forks("netty", 100_000, 101_000, 99_800));
        rows.addAll(forks("jetty", 80_000, 81_000, 79_500));

        List<String> runs = ResultsTable.render(rows).lines().toList();
        String ranking = RankingTable.render(rows);

        assertThat(runs).anySatisfy(line -> assertThat(line).contains("mean of 3 forks").contains("100267"));
        // Forks' means 100,000, 101,000 and 99,800: standard deviation 643, t(2) 4.303: ±1,597.
        assertThat(runs).anySatisfy(line -> assertThat(line).contains("± 95 % CI").contains("±1597"));
        assertThat(runs).anySatisfy(line -> assertThat(line).contains("flood f3 #2"));
        assertThat(ranking).contains("Ranked over forks")
                .containsPattern("1  netty +100267/s  95 % CI 98670–101864, 3 forks")
                .containsPattern("2  jetty .*netty is 25\\.1 % faster than jetty \\(95 % CI 23\\.1–27\\.1 %\\)");
    }
}
