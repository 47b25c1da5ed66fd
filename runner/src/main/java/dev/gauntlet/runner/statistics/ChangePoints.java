package dev.gauntlet.runner.statistics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where a figure's history changed beyond the noise. The history is a sequence of points in time order (a results
 * directory each: one commit or version), each point its fork samples (a fresh JVM each). Walking it, the points since
 * the last change are the current level; a point is set against that level by {@link Contrast} (Welch, its interval
 * over all the level's forks):
 *
 * <ul>
 *   <li>within the noise (the interval spans no difference, or there is none): it joins the level;</li>
 *   <li>beyond it, and the next point is beyond it too, on the same side: a {@link Mark#CHANGE}, the new level
 *       starting there (the next point is then set against the new level: a second step is a change of its own); a
 *       next point of one fork, with no interval of its own, counts when it lies on the same side and the two together
 *       are beyond the noise;</li>
 *   <li>beyond it, and the next point does not follow: an {@link Mark#OUTLIER}, kept out of the level;</li>
 *   <li>beyond it as the last point: a {@link Mark#LATEST_CHANGE}, which the next point will confirm or not.</li>
 * </ul>
 *
 * A point of one fork has no interval of its own; with the next point beside it on the same side, the two together are
 * set against the level, so a history of single-fork runs still shows a change once two runs follow it, as long as the
 * level has two samples. A level of a single sample decides nothing: such a point joins it, {@link Mark#NONE}.
 *
 * <pre>{@code
 * List<ChangePoints.Point> marks = ChangePoints.of(List.of(new double[] {100, 102}, new double[] {101, 99},
 *         new double[] {130, 128}, new double[] {129, 131}), 0.95);
 * marks.get(2).mark();         // CHANGE
 * marks.get(2).contrast();     // the new level (points 2 and 3) against the old (0 and 1): +29.0 (95 % CI ...)
 * }</pre>
 */
public final class ChangePoints {
    private ChangePoints() {
    }

    /** What a point of the history is. */
    public enum Mark {
        /** Within the noise of the level before it, or not decidable against it. */
        NONE,
        /** The first point of a new level: it and the next differ from the level before, on the same side. */
        CHANGE,
        /** Differs from the level before, the next point does not: one point astray, not a change. */
        OUTLIER,
        /** The last point differs from the level before it; no later point yet says whether it stays. */
        LATEST_CHANGE
    }

    /**
     * One point's reading.
     *
     * @param mark     what it is
     * @param contrast for a change, the new level (this point and the next) against the level before; for an outlier
     *                 or a latest change, this point against it; null for {@link Mark#NONE}
     */
    public record Point(Mark mark, Contrast contrast) {
    }

    /** Each point's reading, in the history's order; the first point is always {@link Mark#NONE}. */
    public static List<Point> of(List<double[]> history, double confidence) {
        Estimate.checkConfidence(confidence);
        List<Point> points = new ArrayList<>();
        List<double[]> level = new ArrayList<>();
        for (int i = 0; i < history.size(); i++) {
            double[] point = history.get(i);
            if (level.isEmpty()) {
                points.add(new Point(Mark.NONE, null));
                level.add(point);
                continue;
            }
            double[] before = pooled(level);
            double[] next = i + 1 < history.size() ? history.get(i + 1) : null;
            Point reading = read(point, next, before, confidence);
            points.add(reading);
            switch (reading.mark()) {
                case NONE, LATEST_CHANGE -> level.add(point);
                case CHANGE -> {
                    level.clear();
                    level.add(point);
                }
                case OUTLIER -> { }
            }
        }
        return points;
    }

    private static Point read(double[] point, double[] next, double[] level, double confidence) {
        Contrast alone = Contrast.of(point, level, confidence);
        if (alone.resolved()) {
            if (next == null) {
                return new Point(Mark.LATEST_CHANGE, alone);
            }
            Contrast following = Contrast.of(next, level, confidence);
            Contrast together = Contrast.of(pooled(List.of(point, next)), level, confidence);
            // A next point of one fork has no interval of its own: on the same side, it and this one are set together.
            boolean stays = following.bounded()
                    ? following.resolved() && Math.signum(following.difference()) == Math.signum(alone.difference())
                    : Math.signum(following.difference()) == Math.signum(alone.difference()) && together.resolved();
            return stays ? new Point(Mark.CHANGE, together) : new Point(Mark.OUTLIER, alone);
        }
        if (!alone.bounded() && next != null && point.length < 2) {
            // One fork: the point and its successor, when both lie on one side of the level, are one new level or none.
            double levelMean = Arrays.stream(level).average().orElse(Double.NaN);
            boolean sameSide = Math.signum(mean(point) - levelMean) == Math.signum(mean(next) - levelMean);
            Contrast together = Contrast.of(pooled(List.of(point, next)), level, confidence);
            if (sameSide && together.resolved()) {
                return new Point(Mark.CHANGE, together);
            }
        }
        return new Point(Mark.NONE, null);
    }

    private static double mean(double[] samples) {
        return Arrays.stream(samples).average().orElse(Double.NaN);
    }

    private static double[] pooled(List<double[]> points) {
        return points.stream().flatMapToDouble(Arrays::stream).toArray();
    }
}
