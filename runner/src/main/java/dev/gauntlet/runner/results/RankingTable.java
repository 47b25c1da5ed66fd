package dev.gauntlet.runner.results;

import dev.gauntlet.api.Numbers;
import dev.gauntlet.api.Verdict;
import dev.gauntlet.runner.statistics.Contrast;
import dev.gauntlet.runner.statistics.Estimate;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The throughput table: every measured row ranked by the rate it achieved, highest first, with
 * its latency; rows without figures (failed, skipped) follow, unranked. A closed loop's p99 is marked as in
 * {@link ResultsTable}, with the same footnote. With forks, the targets are then ranked by their rate over forks,
 * a rank shared until a difference is resolved ({@link ForkRanking}).
 *
 * <pre>{@code
 * System.out.print(RankingTable.render(store.rows()));
 * //  #  target                          scenario                   rate/s   p50 ms ...
 * //  1  netty-event-loop                closed-100c                 41230    2.31 ...
 * }</pre>
 */
public final class RankingTable {
    private static final String FORMAT = "%3s  %-31s %-22s %7s %9s %9s %9s%-1s %9s %9s %7s  %-17s  %s%n";
    private static final String REPETITIONS_FORMAT = "     %-31s %-22s %4s %9s %9s  %-17s  %s%n";
    private static final String FORK_FORMAT = "  %3d  %-31s %10s  %-32s  %s%n";

    private RankingTable() {
    }

    public static String render(List<ResultRow> rows) {
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, FORMAT, "#", "target", "scenario", "warm-up", "rate/s",
                "p50 ms", "p99 ms", "", "p99.9 ms", "max ms", "errors", "verdict", "evidence"));
        List<ResultRow> ranked = rows.stream()
                .sorted(Comparator.comparing((ResultRow r) -> !r.measured())
                        .thenComparing(Comparator.comparingDouble(ResultRow::achievedRatePerSec).reversed()))
                .toList();
        int rank = 0;
        for (ResultRow row : ranked) {
            out.append(String.format(Locale.ROOT, FORMAT, row.measured() ? Integer.toString(++rank) : "-", row.target(),
                    row.scenario() + row.runSuffix(), ResultsTable.warmup(row),
                    ResultsTable.number(row.achievedRatePerSec()),
                    Numbers.millis(row.p50Ms()), Numbers.millis(row.p99Ms()), ResultsTable.mark(row), Numbers.millis(row.p999Ms()),
                    Numbers.millis(row.maxMs()), row.errors(), row.verdictLabel(), row.note()));
        }
        out.append(ResultsTable.footnote(rows));
        List<Repetitions.Group> groups = Repetitions.of(rows);
        if (!groups.isEmpty()) {
            out.append(String.format(Locale.ROOT, "%nRepetitions:%n")).append(String.format(Locale.ROOT, REPETITIONS_FORMAT,
                    "target", "scenario", "runs", "median/s", "cv", "verdict", "evidence"));
            for (Repetitions.Group group : groups) {
                out.append(String.format(Locale.ROOT, REPETITIONS_FORMAT, group.target(), group.scenario(), group.runs(),
                        ResultsTable.number(group.median().achievedRatePerSec()),
                        String.format(Locale.ROOT, "%.1f%%", 100 * group.spread().achievedRatePerSec()),
                        group.unsteady() == null ? "" : Verdict.NOT_STEADY.label(),
                        group.unsteady() == null ? "" : group.unsteady()));
            }
        }
        return out.append(forkRanking(rows)).toString();
    }

    /**
     * With forks, the targets of each scenario ranked by their rate over forks, sharing a rank where not resolved; the
     * sweep's table says the same per level. Empty without forks.
     */
    static String forkRanking(List<ResultRow> rows) {
        if (rows.stream().noneMatch(row -> row.fork() > 1)) {
            return "";
        }
        StringBuilder out = new StringBuilder();
        double confidence = Estimate.DEFAULT_CONFIDENCE;
        out.append(String.format(Locale.ROOT, "%nRanked over forks (each fork the mean of its repetitions; a rank is shared"
                + " until a difference is resolved at %s):%n", Estimate.level(confidence)));
        for (ForkRanking ranking : ForkRanking.of(rows, ResultRow::achievedRatePerSec, Contrast.Direction.HIGHER_IS_BETTER,
                confidence)) {
            out.append(String.format(Locale.ROOT, "  %s%n", ranking.scenario()));
            for (ForkRanking.Place place : ranking.places()) {
                out.append(String.format(Locale.ROOT, FORK_FORMAT, place.rank(), place.target(),
                        ResultsTable.number(place.figure().mean()) + "/s", place.figure().interval(), place.standing()));
            }
        }
        return out.toString();
    }
}
