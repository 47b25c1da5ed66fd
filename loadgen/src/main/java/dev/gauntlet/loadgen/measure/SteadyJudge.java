package dev.gauntlet.loadgen.measure;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.SteadyRule;
import dev.gauntlet.hiccup.JitActivity;
import org.HdrHistogram.Histogram;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Supplier;
import java.util.function.ToDoubleFunction;
import java.util.function.ToIntFunction;
import java.util.function.ToLongFunction;

/**
 * A run's one-second windows, warm-up and measured phase alike, and whether the warm-up has
 * settled by its {@link SteadyRule}: the record of {@link RunSummary.Steadiness}. The interval
 * ticker hands it each window as it closes; it never touches the engines.
 *
 * <pre>{@code
 * SteadyJudge judge = new SteadyJudge(spec, runStartNs, target::jit);
 * judge.warmupWindow(recorder.sampleWarmup(), hiccups, startNs, endNs);   // each tick of the warm-up
 * if (judge.settled() || judge.fallingBehind()) engines.startMeasuringAt(nextTickNs);
 * judge.measuredWindow(completed, responseInterval, hiccups, startNs, endNs);  // each tick of the measured phase
 * RunSummary.Steadiness steadiness = judge.result(warmupMs);
 * }</pre>
 */
public final class SteadyJudge {
    /** A window shorter than this share of a second is not judged. */
    private static final double WHOLE_WINDOW_SHARE = 0.9;

    private final LoadSpec spec;
    private final SteadyRule rule;
    private final boolean openLoop;
    private final long judgedFromNs;
    private final Supplier<JitActivity.Snapshot> targetJit;
    private final List<RunSummary.Steadiness.Window> warmup = new ArrayList<>();
    private final List<RunSummary.Steadiness.Window> measured = new ArrayList<>();
    /** When each of {@link #measured} began, {@code System.nanoTime()}: the machine's capacity is lined up by it. */
    private final List<Long> measuredStartsNs = new ArrayList<>();
    private long targetCompiledMs;
    private long generatorCompiledMs;

    /**
     * @param runStartNs when the run started: windows of its ramp are not judged
     * @param targetJit  the target's JIT activity, the latest known; null when unknown
     */
    public SteadyJudge(LoadSpec spec, long runStartNs, Supplier<JitActivity.Snapshot> targetJit) {
        this.spec = spec;
        this.rule = spec.steady();
        this.openLoop = spec.model().schedulesByRate();
        this.judgedFromNs = runStartNs + spec.rampMs() * 1_000_000;
        this.targetJit = targetJit;
        this.targetCompiledMs = compileMs(targetJit.get());
        this.generatorCompiledMs = JitActivity.now().compileMs();
    }

    /** A window of the warm-up closed: its answers, the loop's lateness and the platform's hiccups in it. */
    public void warmupWindow(LatencyRecorder.Warmup window, Histogram hiccups, long startNs, long endNs) {
        RunSummary.Steadiness.Window judged = window(window.response().getTotalCount(), window.response(),
                window.lateness(), hiccups, endNs - startNs);
        if (startNs >= judgedFromNs && whole(startNs, endNs)) {
            warmup.add(judged);
        }
    }

    /**
     * A window of the measured phase closed: {@code completed} answers in it (the warm-up's late
     * ones included: the target's throughput), the measured ones' response times.
     */
    public void measuredWindow(long completed, Histogram response, Histogram hiccups, long startNs, long endNs) {
        // Built either way: the compile counters move on, so that the next window counts only its own.
        RunSummary.Steadiness.Window judged = window(completed, response, null, hiccups, endNs - startNs);
        if (whole(startNs, endNs)) {
            measured.add(judged);
            measuredStartsNs.add(startNs);
        }
    }

    /** When each whole window of the measured phase began, {@code System.nanoTime()}, in order. */
    public List<Long> measuredWindowStartsNs() {
        return List.copyOf(measuredStartsNs);
    }

    /** A window shorter than most of a second (the first tick's, the run's last) is left out. */
    private static boolean whole(long startNs, long endNs) {
        return endNs - startNs >= WHOLE_WINDOW_SHARE * SteadyRule.WINDOW_MS * 1_000_000;
    }

    /** Why the warm-up's last windows do not agree yet, for the progress line. */
    public String unsettledReason() {
        String reason = rule == null ? null : disagreement(warmup, rule, openLoop);
        return reason == null ? "settled" : reason;
    }

    /**
     * Whether an open loop's target has completed under {@link Tolerances#SUSTAINED_SHARE} of the
     * offered rate in each of the last twice-the-rule's windows: it is falling behind, and a longer
     * warm-up would only lengthen the backlog the measured phase starts behind (jetty-servlet-sync
     * at 50,000/s on one CPU fell from 46,000/s to 20,000/s over a 15 s warm-up, its median from
     * 0.1 s to 6 s). False without a rule and for the other models.
     */
    public boolean fallingBehind() {
        if (rule == null || !openLoop || warmup.size() < 2 * rule.windows()) {
            return false;
        }
        double ratePerSec = spec.model().scheduledRatePerSec();
        return warmup.subList(warmup.size() - 2 * rule.windows(), warmup.size()).stream()
                .allMatch(w -> w.completedPerSec() < Tolerances.SUSTAINED_SHARE * ratePerSec);
    }

    /** Whether the last windows of the warm-up agree by the rule; false without a rule. */
    public boolean settled() {
        return rule != null && disagreement(warmup, rule, openLoop) == null;
    }

    /**
     * Why the last windows do not agree, in words with their figures; null when they do. The last
     * {@code windows} must lie within the tolerance of their mean, and their mean within half the
     * tolerance of the mean of the {@code windows} before them, so that a slow climb does not pass
     * for a plateau; fewer windows than twice the rule's do not agree.
     */
    public static String disagreement(List<RunSummary.Steadiness.Window> windows, SteadyRule rule, boolean openLoop) {
        int k = rule.windows();
        if (windows.size() < 2 * k) {
            return windows.size() + " windows judged, the rule needs " + 2 * k;
        }
        List<RunSummary.Steadiness.Window> last = windows.subList(windows.size() - k, windows.size());
        List<RunSummary.Steadiness.Window> before = windows.subList(windows.size() - 2 * k, windows.size() - k);
        if (windows.subList(windows.size() - 2 * k, windows.size()).stream().anyMatch(w -> w.completedPerSec() == 0)) {
            return "a window without an answer";
        }
        double tolerance = rule.tolerancePercent();
        List<String> reasons = new ArrayList<>();
        if (!openLoop) {
            reasons.add(spread(last, RunSummary.Steadiness.Window::completedPerSec, tolerance, 0, "completed/s"));
            reasons.add(shift(before, last, RunSummary.Steadiness.Window::completedPerSec, tolerance / 2, 0, "completed/s"));
        } else {
            double explainedMs = platformExplainsMs(windows.subList(windows.size() - 2 * k, windows.size()));
            reasons.add(spread(last, RunSummary.Steadiness.Window::p50Ms, tolerance, explainedMs, "p50 ms"));
            reasons.add(shift(before, last, RunSummary.Steadiness.Window::p50Ms, tolerance / 2, explainedMs, "p50 ms"));
            reasons.add(spread(last, RunSummary.Steadiness.Window::latenessP99Ms, tolerance, explainedMs,
                    "the generator's lateness p99 ms"));
        }
        reasons.add(jitBusy("target", last, RunSummary.Steadiness.Window::targetCompileMs,
                RunSummary.Steadiness.Window::targetJitQueued));
        reasons.add(jitBusy("generator", last, RunSummary.Steadiness.Window::generatorCompileMs,
                RunSummary.Steadiness.Window::generatorJitQueued));
        return reasons.stream().filter(Objects::nonNull).findFirst().orElse(null);
    }

    /**
     * Why one side's JIT is still at work in the windows, null when it is not (or it does not say): a
     * window ended with more than {@link SteadyRule#SETTLED_JIT_QUEUE} methods queued, or the windows
     * held more than {@link SteadyRule#COMPILE_SHARE} of compile time.
     */
    private static String jitBusy(String side, List<RunSummary.Steadiness.Window> windows,
                                  ToLongFunction<RunSummary.Steadiness.Window> compileMs,
                                  ToIntFunction<RunSummary.Steadiness.Window> queued) {
        int mostQueued = windows.stream().mapToInt(queued).max().orElse(-1);
        if (mostQueued > SteadyRule.SETTLED_JIT_QUEUE) {
            return String.format(Locale.ROOT, "the %s's JIT had up to %d methods queued in the last %d s", side, mostQueued,
                    windows.size());
        }
        double allowedMs = SteadyRule.COMPILE_SHARE * SteadyRule.WINDOW_MS * windows.size();
        long compiledMs = windows.stream().mapToLong(compileMs).sum();
        if (windows.stream().allMatch(w -> compileMs.applyAsLong(w) >= 0) && compiledMs > allowedMs) {
            return String.format(Locale.ROOT, "the %s's JIT compiled for %d ms in the last %d s", side, compiledMs,
                    windows.size());
        }
        return null;
    }

    /**
     * What the platform's noise explains of a latency's movement: the lateness allowance plus twice
     * the worst wake-up p99 of the windows, as the verdicts weigh lateness.
     */
    public static double platformExplainsMs(List<RunSummary.Steadiness.Window> windows) {
        double hiccupP99Ms = windows.stream().mapToDouble(RunSummary.Steadiness.Window::hiccupP99Ms).max().orElse(0);
        return LoadSpec.DEFAULT_MAX_SCHEDULE_LAG_P99_MS + Tolerances.HICCUP_FACTOR * hiccupP99Ms;
    }

    public RunSummary.Steadiness result(long warmupMs) {
        String ruleText = rule == null ? String.format(Locale.ROOT, "a fixed warm-up of %s s, not judged",
                warmupMs / 1000.0) : rule.describe(spec.warmupMs());
        boolean settled = settled();
        return new RunSummary.Steadiness(rule, ruleText, warmupMs, rule == null ? null : settled,
                !settled && fallingBehind(), warmup, measured);
    }

    /** Why the windows' {@code figure} spreads beyond ±tolerance of its mean (and beyond {@code floor}); null when it does not. */
    private static String spread(List<RunSummary.Steadiness.Window> windows, ToDoubleFunction<RunSummary.Steadiness.Window> figure,
                                 double tolerancePercent, double floor, String name) {
        double min = windows.stream().mapToDouble(figure).min().orElse(0);
        double max = windows.stream().mapToDouble(figure).max().orElse(0);
        double mean = windows.stream().mapToDouble(figure).average().orElse(0);
        double allowed = Math.max(tolerancePercent / 100 * mean, floor);
        if (max - mean <= allowed && mean - min <= allowed) {
            return null;
        }
        return String.format(Locale.ROOT, "%s from %s to %s in the last %d s, beyond ±%s of their mean %s", name,
                figureText(min), figureText(max), windows.size(), figureText(allowed), figureText(mean));
    }

    /** Why the mean of {@code figure} moved from {@code before} to {@code last} beyond ±tolerance (and {@code floor}); null when it did not. */
    private static String shift(List<RunSummary.Steadiness.Window> before, List<RunSummary.Steadiness.Window> last,
                                ToDoubleFunction<RunSummary.Steadiness.Window> figure, double tolerancePercent, double floor,
                                String name) {
        double from = before.stream().mapToDouble(figure).average().orElse(0);
        double to = last.stream().mapToDouble(figure).average().orElse(0);
        double allowed = Math.max(tolerancePercent / 100 * Math.max(from, to), floor);
        if (Math.abs(to - from) <= allowed) {
            return null;
        }
        return String.format(Locale.ROOT, "%s moved from a mean of %s to %s over the last %d s, beyond ±%s", name,
                figureText(from), figureText(to), before.size() + last.size(), figureText(allowed));
    }

    public static String figureText(double value) {
        return value >= 100 ? String.format(Locale.ROOT, "%,.0f", value)
                : value >= 10 ? String.format(Locale.ROOT, "%.1f", value) : String.format(Locale.ROOT, "%.2f", value);
    }

    private RunSummary.Steadiness.Window window(long completed, Histogram response, Histogram lateness, Histogram hiccups,
                                               long lengthNs) {
        JitActivity.Snapshot target = targetJit.get();
        long targetNowMs = compileMs(target);
        long targetMs = targetNowMs < 0 || targetCompiledMs < 0 ? -1 : targetNowMs - targetCompiledMs;
        targetCompiledMs = targetNowMs;
        JitActivity.Snapshot generator = JitActivity.now();
        long generatorMs = generator.compileMs() < 0 || generatorCompiledMs < 0 ? -1 : generator.compileMs() - generatorCompiledMs;
        generatorCompiledMs = generator.compileMs();
        boolean answered = response.getTotalCount() > 0;
        return new RunSummary.Steadiness.Window(completed * 1e9 / Math.max(lengthNs, 1),
                answered ? response.getValueAtPercentile(50) / 1e6 : Double.NaN,
                answered ? response.getValueAtPercentile(99) / 1e6 : Double.NaN,
                !openLoop || lateness == null ? Double.NaN
                        : lateness.getTotalCount() == 0 ? 0 : lateness.getValueAtPercentile(99) / 1e6,
                hiccups.getTotalCount() == 0 ? 0 : hiccups.getValueAtPercentile(99) / 1e6,
                hiccups.getTotalCount() == 0 ? 0 : hiccups.getMaxValue() / 1e6,
                targetMs, target == null ? -1 : target.queued(), generatorMs, generator.queued());
    }

    private static long compileMs(JitActivity.Snapshot jit) {
        return jit == null ? -1 : jit.compileMs();
    }
}
