package dev.gauntlet.api;

import java.util.List;

/**
 * What the target's and the generator's JVMs cost during one run, and whether GC explains its worst
 * moments: read by the runner from both sides' JFR recordings after the generator exited, and written
 * as {@code jvm.json} beside the generator's {@code summary.json} ({@link RunDirectory#jvm()}).
 *
 * <pre>{@code
 * RunJvmCosts jvm = Json.json().readValue(new RunDirectory(runDir).jvm().toFile(), RunJvmCosts.class);
 * jvm.target().gcPauses().maxMs();
 * }</pre>
 *
 * Results directories written before {@code jvm.json} hold the same object as {@code summary.json}'s {@code jvm}.
 *
 * @param target    the target JVM's figures; null when its recording could not be read ({@code notes} says why)
 * @param generator the generator JVM's; when the load was split over several processes, the parent's that
 *                  started and merged them (its children are not recorded)
 * @param alignment the measured phase's worst intervals paired with the pauses inside them
 * @param notes     what could not be recorded or read, one sentence each
 */
public record RunJvmCosts(JvmMetrics target, JvmMetrics generator, PauseAlignment alignment, List<String> notes) {
    public RunJvmCosts {
        notes = notes == null ? List.of() : List.copyOf(notes);
    }

    /**
     * The interval logs lined up with the GC pauses (both epoch-based): of the measured phase's worst
     * response-time intervals, how many contain a target pause; of the worst schedule-lag intervals, how many
     * contain a generator pause.
     *
     * @param worstIntervals          how many worst intervals each count looks at (10, or fewer in a short run)
     * @param worstResponseWithTargetPause of the worst response-time intervals (by max), those with a target pause
     * @param worstLagWithGeneratorPause   of the worst schedule-lag intervals (by max), those with a generator pause
     * @param intervals               every measured interval: its worst latencies and the longest pause of each side in it
     */
    public record PauseAlignment(int worstIntervals, int worstResponseWithTargetPause, int worstLagWithGeneratorPause,
                                 List<IntervalPauses> intervals) {
        public PauseAlignment {
            intervals = intervals == null ? List.of() : List.copyOf(intervals);
        }
    }

    /** One interval of the logs: its start (epoch ms), worst response time and lag, the longest pause of each side (0: none). */
    public record IntervalPauses(double startEpochMs, double lengthMs, double responseMaxMs, double lagMaxMs,
                                 double targetPauseMaxMs, double generatorPauseMaxMs) {
    }
}
