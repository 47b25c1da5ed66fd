package dev.gauntlet.runner.results;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The concurrency sweep's table, as jempower printed it: a target per row, a column per
 * concurrency level (scenario), each cell the median requests/s over the sweeps and, in
 * brackets, the most errors any sweep had at that level. With forks, each level's targets are then ranked by their
 * rate over forks, a rank shared until a difference is resolved ({@link ForkRanking}).
 *
 * <pre>{@code
 * System.out.print(SweepTable.render(store.rows()));
 * // target                         c1             c10            ...
 * // jetty-servlet-sync             9120 (0)       21340 (0)      ...
 * }</pre>
 */
public final class SweepTable {
    private static final String TARGET_COLUMN = "%-31s";
    private static final String CELL = " %-15s";

    private SweepTable() {
    }

    public static String render(List<ResultRow> rows) {
        List<String> levels = new ArrayList<>();
        Map<String, Map<String, List<ResultRow>>> byTarget = new LinkedHashMap<>();
        for (ResultRow row : rows) {
            if (!levels.contains(row.scenario())) {
                levels.add(row.scenario());
            }
            byTarget.computeIfAbsent(row.target(), t -> new LinkedHashMap<>())
                    .computeIfAbsent(row.scenario(), s -> new ArrayList<>()).add(row);
        }
        StringBuilder out = new StringBuilder(String.format(Locale.ROOT, TARGET_COLUMN, "target"));
        levels.forEach(level -> out.append(String.format(Locale.ROOT, CELL, level)));
        out.append(System.lineSeparator());
        byTarget.forEach((target, cells) -> {
            out.append(String.format(Locale.ROOT, TARGET_COLUMN, target));
            levels.forEach(level -> out.append(String.format(Locale.ROOT, CELL, cell(cells.getOrDefault(level, List.of())))));
            out.append(System.lineSeparator());
        });
        out.append("Each cell: the median requests/s over the sweeps (the most errors of any sweep); - where no sweep measured it.")
                .append(System.lineSeparator());
        return out.append(RankingTable.forkRanking(rows)).toString();
    }

    private static String cell(List<ResultRow> sweeps) {
        double[] rates = sweeps.stream().filter(ResultRow::measured).mapToDouble(ResultRow::achievedRatePerSec).toArray();
        if (rates.length == 0) {
            return "-";
        }
        long errors = sweeps.stream().filter(ResultRow::measured).mapToLong(ResultRow::errors).max().orElse(0);
        return ResultsTable.number(Repetitions.median(rates)) + " (" + errors + ")";
    }
}
