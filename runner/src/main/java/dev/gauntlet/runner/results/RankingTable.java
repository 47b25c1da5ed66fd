package dev.gauntlet.runner.results;

import dev.gauntlet.api.Verdict;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The throughput table: every measured row ranked by the rate it achieved, highest first, with
 * its latency; rows without figures (failed, skipped) follow, unranked. A closed loop's p99 is marked as in
 * {@link ResultsTable}, with the same footnote.
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
                    row.scenario() + (row.repetition() > 1 ? " #" + row.repetition() : ""), ResultsTable.warmup(row),
                    ResultsTable.number(row.achievedRatePerSec()),
                    ResultsTable.millis(row.p50Ms()), ResultsTable.millis(row.p99Ms()), ResultsTable.mark(row), ResultsTable.millis(row.p999Ms()),
                    ResultsTable.millis(row.maxMs()), row.errors(), row.verdictLabel(), row.note()));
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
        return out.toString();
    }
}
