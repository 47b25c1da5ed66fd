package dev.gauntlet.loadgen.verdict;

import dev.gauntlet.api.Capacity;
import dev.gauntlet.api.Numbers;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.SteadyRule;
import dev.gauntlet.loadgen.measure.SteadyJudge;

import java.util.List;
import java.util.Locale;
import java.util.stream.IntStream;

/**
 * The measured phase's first half against its second, by whole windows: a closed loop's throughput,
 * an open loop's median response time (the median of the windows' medians). Beyond the tolerance and
 * what the platform's stalls explain (a closed loop: the share of a window its worst stall took; an
 * open loop: the lateness allowance and twice the worst wake-up p99), it drifted; then the machine's
 * capacity on each role's CPUs over the same halves ({@link Capacity}) says whose the drift was.
 *
 * <pre>{@code
 * MeasuredDrift.Drift drift = MeasuredDrift.of(run);   // null: steady, or too few windows to tell
 * (drift.platforms() ? platform : unsteady).add(drift.sentence());
 * }</pre>
 *
 * <p>The capacity explains a drift when the figure, scaled by the capacity's own change between the
 * halves, lands within the same allowance: throughput in proportion to the capacity, an open loop's
 * median beyond its declared wait in inverse proportion (the wait is a timer's, whatever the CPU);
 * and when that change predicts at least half of the figure's move, the same way: a capacity that
 * moved by its own second-to-second noise (a few percent) does not explain a drift just past the
 * allowance. Either role's CPUs may explain it: a closed loop runs at the pace of the slower side.
 */
final class MeasuredDrift {
    /** Whole windows each half needs for its drift to be judged. */
    static final int MIN_HALF_WINDOWS = 2;
    /** Share of the figure's move the capacity's change must predict to explain it. */
    static final double MOST = 0.5;

    /**
     * @param sentence  the evidence, with its numbers
     * @param platforms true when the capacity of a role's CPUs moved with the figure and explains it
     */
    record Drift(String sentence, boolean platforms) {
    }

    private MeasuredDrift() {
    }

    static Drift of(RunSummary run) {
        RunSummary.Steadiness steadiness = run.steadiness();
        if (steadiness == null) {
            return null;
        }
        boolean openLoop = run.spec().model().schedulesByRate();
        List<RunSummary.Steadiness.Window> windows = steadiness.measured();
        List<Integer> judged = IntStream.range(0, windows.size())
                .filter(i -> !openLoop || !Double.isNaN(windows.get(i).p50Ms())).boxed().toList();
        int half = judged.size() / 2;
        if (half < MIN_HALF_WINDOWS) {
            return null;
        }
        List<Integer> first = judged.subList(0, half);
        List<Integer> second = judged.subList(judged.size() - half, judged.size());
        double tolerance = steadiness.tolerancePercent() / 100;
        double from;
        double to;
        double allowed;
        String moved;
        if (!openLoop) {
            from = first.stream().mapToDouble(i -> windows.get(i).completedPerSec()).average().orElse(0);
            to = second.stream().mapToDouble(i -> windows.get(i).completedPerSec()).average().orElse(0);
            double stallShare = judged.stream().mapToDouble(i -> windows.get(i).hiccupMaxMs()).max().orElse(0)
                    / SteadyRule.WINDOW_MS;
            allowed = (tolerance + stallShare) * Math.max(from, to);
            moved = String.format(Locale.ROOT, "its throughput moved from %s/s in the first half of the measured phase "
                    + "to %s/s in the second, beyond ±%s/s (%s %% and the worst platform stall)", SteadyJudge.figureText(from),
                    SteadyJudge.figureText(to), SteadyJudge.figureText(allowed), Numbers.compact(steadiness.tolerancePercent()));
        } else {
            from = median(windows, first);
            to = median(windows, second);
            allowed = Math.max(tolerance * Math.max(from, to),
                    SteadyJudge.platformExplainsMs(judged.stream().map(windows::get).toList()));
            moved = String.format(Locale.ROOT, "its median response time moved from %s ms in the first half of the "
                    + "measured phase to %s ms in the second, beyond ±%s ms (%s %% or what the platform explains)",
                    Verdicts.ms(from), Verdicts.ms(to), Verdicts.ms(allowed), Numbers.compact(steadiness.tolerancePercent()));
        }
        if (Math.abs(to - from) <= allowed) {
            return null;
        }
        Explanation target = explanation("target", run.capacity().target(), first, second, from, to, openLoop, run);
        Explanation generator = explanation("generator", run.capacity().generator(), first, second, from, to, openLoop, run);
        Explanation best = target == null ? generator : generator == null || target.residual() <= generator.residual()
                ? target : generator;
        if (best != null && best.residual() <= allowed && best.accountsForMost()) {
            return new Drift(moved + String.format(Locale.ROOT, ", and the capacity of the %s's CPUs with it, from %s to "
                    + "%s (%s): the machine's, not the target's", best.role(), SteadyJudge.figureText(best.from()),
                    SteadyJudge.figureText(best.to()), percent(best.to() / best.from())), true);
        }
        String capacity = best == null ? "" : String.format(Locale.ROOT, "; the capacity of the target's CPUs went %s, "
                + "the generator's %s, which does not explain it", course(target), course(generator));
        return new Drift(moved + capacity + ": not a steady state", false);
    }

    /**
     * What a role's capacity explains: the figure its change between the halves predicts, and how far
     * the second half's figure is from it. Null when the role's capacity is unknown in either half.
     */
    private record Explanation(String role, double from, double to, double residual, double predictedMove,
                               double observedMove) {
        /** The capacity's change predicts at least half of the figure's move, in its direction. */
        boolean accountsForMost() {
            return Math.signum(predictedMove) == Math.signum(observedMove)
                    && Math.abs(predictedMove) >= MOST * Math.abs(observedMove);
        }
    }

    private static Explanation explanation(String role, Capacity.Course course, List<Integer> first, List<Integer> second,
                                           double figureFrom, double figureTo, boolean openLoop, RunSummary run) {
        double from = mean(course, first);
        double to = mean(course, second);
        if (from <= 0 || to <= 0) {
            return null;
        }
        double ratio = to / from;
        double waitMs = run.spec().declaredWaitMs();
        double expected = openLoop ? waitMs + Math.max(0, figureFrom - waitMs) / ratio : figureFrom * ratio;
        return new Explanation(role, from, to, Math.abs(figureTo - expected), expected - figureFrom, figureTo - figureFrom);
    }

    private static double mean(Capacity.Course course, List<Integer> windows) {
        return windows.stream().filter(i -> i < course.perWindow().size()).mapToDouble(i -> course.perWindow().get(i))
                .filter(index -> index > 0).average().orElse(0);
    }

    private static String course(Explanation explanation) {
        return explanation == null ? "unknown" : String.format(Locale.ROOT, "from %s to %s (%s)",
                SteadyJudge.figureText(explanation.from()), SteadyJudge.figureText(explanation.to()),
                percent(explanation.to() / explanation.from()));
    }

    private static String percent(double ratio) {
        return String.format(Locale.ROOT, "%+.0f %%", 100 * (ratio - 1));
    }

    private static double median(List<RunSummary.Steadiness.Window> windows, List<Integer> indices) {
        double[] medians = indices.stream().mapToDouble(i -> windows.get(i).p50Ms()).sorted().toArray();
        int n = medians.length;
        return n % 2 == 1 ? medians[n / 2] : (medians[n / 2 - 1] + medians[n / 2]) / 2;
    }
}
