package dev.gauntlet.runner.results;

import dev.gauntlet.api.JvmMetrics;
import dev.gauntlet.api.Numbers;
import dev.gauntlet.api.Verdict;
import dev.gauntlet.runner.statistics.Estimate;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * Formats result rows as the fixed-width table the CLI prints: a row per run, and after the runs of
 * a target × scenario repeated more than once, its best, median and spread ({@link Repetitions}), and
 * when it ran in several forks its headline figures' means over forks with their intervals ({@link Intervals}).
 * The {@code dropped} column is there only when a row's generator dropped requests its queue had no room for.
 * {@code goodput/s} stands beside {@code rate/s}: what the target answered per second of the measured phase, whatever
 * each answer's intended start, so a target working through a backlog never reads as idle. A row whose times are
 * not free of coordinated omission (a closed loop's: {@link ResultRow#timedFromActualSend}) has its p99 marked
 * {@code †}, and the table ends with the footnote that says why.
 */
public final class ResultsTable {
    private static final String FORMAT = "%-31s %-22s %7s %9s %10s%s %9s %9s %9s %9s %9s%-1s %9s %9s %7s %9s %11s %11s %11s  %-17s  %s%n";
    private static final double BYTES_PER_MB = 1024.0 * 1024.0;
    private static final String FROM_ACTUAL_SEND = "†";
    private static final String FROM_ACTUAL_SEND_NOTE = FROM_ACTUAL_SEND + " closed loop (and max concurrency after its "
            + "burst): each request waited for the answer before it, so its time runs from its actual send, as wrk's, "
            + "and is not free of coordinated omission";

    private ResultsTable() {
    }

    public static String render(List<ResultRow> rows) {
        StringBuilder out = new StringBuilder();
        boolean dropping = rows.stream().anyMatch(row -> row.droppedQueueFull() > 0);
        out.append(String.format(Locale.ROOT, FORMAT, "target", "scenario", "warm-up", "requests", "unanswered",
                dropped(dropping, "dropped"), "rate/s", "goodput/s", "mean ms",
                "p50 ms", "p99 ms", "", "p99.9 ms", "max ms", "errors", "in flight", "hiccup p99", "gc max ms", "heap MB", "verdict", "evidence"));
        List<Repetitions.Group> groups = Repetitions.of(rows);
        List<Intervals> intervals = Intervals.of(rows, Estimate.DEFAULT_CONFIDENCE);
        for (int i = 0; i < rows.size(); i++) {
            ResultRow row = rows.get(i);
            out.append(String.format(Locale.ROOT, FORMAT, row.target(),
                    row.scenario() + row.runSuffix(),
                    warmup(row), row.requests(), row.measured() ? row.unansweredAtEnd() : "-",
                    dropped(dropping, row.measured() ? row.droppedQueueFull() : "-"), number(row.achievedRatePerSec()),
                    row.goodputPerSec() == null ? "-" : number(row.goodputPerSec()), Numbers.millis(row.meanMs()), Numbers.millis(row.p50Ms()), Numbers.millis(row.p99Ms()), mark(row),
                    Numbers.millis(row.p999Ms()), Numbers.millis(row.maxMs()), row.errors(),
                    row.serverMaxInFlight() == null ? "-" : row.serverMaxInFlight(),
                    hiccups(row.generatorHiccupP99Ms(), row.targetHiccupP99Ms()),
                    bothSides(row, ResultsTable::gcPauseMax), bothSides(row, ResultsTable::heapMax), row.verdictLabel(), row.note()));
            boolean lastOfCase = i + 1 == rows.size() || !rows.get(i + 1).target().equals(row.target())
                    || !rows.get(i + 1).scenario().equals(row.scenario());
            if (lastOfCase) {
                groups.stream().filter(g -> g.target().equals(row.target()) && g.scenario().equals(row.scenario()))
                        .findFirst().ifPresent(group -> appendGroup(out, group, dropping));
                intervals.stream().filter(c -> c.target().equals(row.target()) && c.scenario().equals(row.scenario())
                        && c.forks() > 1).findFirst().ifPresent(c -> appendIntervals(out, c, dropping));
            }
        }
        return out.append(footnote(rows)).toString();
    }

    /** The mark after a p99 that runs from the actual send ({@link #footnote}), in a column of its own; else nothing. */
    static String mark(ResultRow row) {
        return marked(row) ? FROM_ACTUAL_SEND : "";
    }

    private static boolean marked(ResultRow row) {
        return row.timedFromActualSend() && !Double.isNaN(row.p99Ms());
    }

    /** The line that says why a p99 is marked, when one of {@code rows} is; else nothing. */
    static String footnote(List<ResultRow> rows) {
        return rows.stream().anyMatch(ResultsTable::marked) ? FROM_ACTUAL_SEND_NOTE + System.lineSeparator() : "";
    }

    /** Best and median in the columns' own units, the spread as a percentage of each figure's mean. */
    private static void appendGroup(StringBuilder out, Repetitions.Group group, boolean dropping) {
        appendFigures(out, "  best of " + group.runs(), group.best(), ResultsTable::number, Numbers::millis, dropping, "", "");
        appendFigures(out, "  median", group.median(), ResultsTable::number, Numbers::millis, dropping, "", "");
        appendFigures(out, "  spread (cv)", group.spread(), ResultsTable::percent, ResultsTable::percent, dropping,
                group.unsteady() == null ? "" : Verdict.NOT_STEADY.label(), group.unsteady() == null ? "" : group.unsteady());
    }

    /** The mean over forks of the headline figures, and their intervals' half-widths in the columns' units. */
    private static void appendIntervals(StringBuilder out, Intervals c, boolean dropping) {
        appendHeadline(out, "  mean of " + c.forks() + " forks", dropping, number(c.rate().mean()), Numbers.millis(c.p50Ms().mean()),
                Numbers.millis(c.p99Ms().mean()), Numbers.millis(c.maxMs().mean()), "");
        appendHeadline(out, "  ± " + Estimate.level(c.rate().confidence()) + " CI", dropping, "±" + number(c.rate().halfWidth()),
                "±" + Numbers.millis(c.p50Ms().halfWidth()), "±" + Numbers.millis(c.p99Ms().halfWidth()), "±" + Numbers.millis(c.maxMs().halfWidth()),
                "over forks, each the mean of its repetitions");
    }

    /** A row of the headline figures alone: rate/s, p50, p99 and max. */
    private static void appendHeadline(StringBuilder out, String label, boolean dropping, String rate, String p50,
                                       String p99, String max, String evidence) {
        out.append(String.format(Locale.ROOT, FORMAT, "", label, "", "", "", dropped(dropping, ""), rate, "", "", p50, p99,
                "", "", max, "", "", "", "", "", "", evidence));
    }

    private static void appendFigures(StringBuilder out, String label, Repetitions.Figures f,
                                      Function<Double, String> count, Function<Double, String> time, boolean dropping,
                                      String verdict, String evidence) {
        out.append(String.format(Locale.ROOT, FORMAT, "", label, "", count.apply(f.requests()), "", dropped(dropping, ""),
                count.apply(f.achievedRatePerSec()), "",
                time.apply(f.meanMs()), time.apply(f.p50Ms()), time.apply(f.p99Ms()), "", time.apply(f.p999Ms()), time.apply(f.maxMs()),
                count.apply(f.errors()), count.apply(f.serverMaxInFlight()), "", "", "", verdict, evidence));
    }

    /** The {@code dropped} column's cell, with the space before it; nothing when the table has no such column. */
    private static String dropped(boolean shown, Object cell) {
        return shown ? String.format(Locale.ROOT, " %7s", cell) : "";
    }

    /** How long the run's warm-up lasted, s, {@code *} when it reached its maximum unsettled; {@code -} unknown. */
    static String warmup(ResultRow row) {
        return row.warmup() == null ? "-" : row.warmup().column();
    }

    private static String percent(double fraction) {
        return Double.isNaN(fraction) ? "-" : String.format(Locale.ROOT, "%.1f%%", fraction * 100);
    }

    /** The noise floor of both sides, generator/target, in ms. */
    private static String hiccups(double generatorMs, double targetMs) {
        return Double.isNaN(generatorMs) ? "-" : Numbers.millis(generatorMs) + "/" + Numbers.millis(targetMs);
    }

    /** A JVM figure of each side, generator/target like the hiccups, as {@code gc max ms} and {@code heap MB} show it. */
    private static String bothSides(ResultRow row, Function<JvmMetrics, String> figure) {
        if (row.targetJvm() == null && row.generatorJvm() == null) {
            return "-";
        }
        return figureOf(row.generatorJvm(), figure) + "/" + figureOf(row.targetJvm(), figure);
    }

    private static String figureOf(JvmMetrics metrics, Function<JvmMetrics, String> figure) {
        return metrics == null ? "-" : figure.apply(metrics);
    }

    /** The longest stop-the-world pause of the measured phase; 0 when there was none. */
    private static String gcPauseMax(JvmMetrics metrics) {
        return metrics.gcPauses().count() == 0 ? "0" : Numbers.millis(metrics.gcPauses().maxMs());
    }

    /** Heap used after GC at most; {@code -} when no collection happened in the measured phase. */
    private static String heapMax(JvmMetrics metrics) {
        Long bytes = metrics.heap().usedMaxBytes();
        return bytes == null ? "-" : number(bytes / BYTES_PER_MB);
    }

    static String number(double value) {
        return Double.isNaN(value) ? "-" : String.format(Locale.ROOT, "%.0f", value);
    }

}
