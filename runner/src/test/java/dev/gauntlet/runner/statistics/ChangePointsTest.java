package dev.gauntlet.runner.statistics;

import dev.gauntlet.runner.statistics.ChangePoints.Mark;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;

class ChangePointsTest {
    private static final int TRIALS = 2_000;

    @Test
    void aStepThatStaysIsOneChangeAtItsFirstPoint() {
        List<ChangePoints.Point> points = ChangePoints.of(List.of(forks(100, 102, 101), forks(99, 101, 100),
                forks(130, 128, 131), forks(129, 131, 130), forks(128, 130, 129)), 0.95);

        assertThat(points).extracting(ChangePoints.Point::mark)
                .containsExactly(Mark.NONE, Mark.NONE, Mark.CHANGE, Mark.NONE, Mark.NONE);
        Contrast change = points.get(2).contrast();
        assertThat(change.resolved()).isTrue();
        assertThat(change.difference()).as("the new level (points 2 and 3) against the old").isBetween(28.0, 31.0);
    }

    @Test
    void onePointAstrayIsAnOutlierAndTheLevelGoesOnWithoutIt() {
        List<ChangePoints.Point> points = ChangePoints.of(List.of(forks(100, 102, 101), forks(99, 101, 100),
                forks(150, 152, 151), forks(100, 101, 99), forks(130, 131, 129), forks(129, 130, 131)), 0.95);

        assertThat(points).extracting(ChangePoints.Point::mark)
                .as("the spike at 2 an outlier; the step at 4 a change against 0, 1 and 3 alone")
                .containsExactly(Mark.NONE, Mark.NONE, Mark.OUTLIER, Mark.NONE, Mark.CHANGE, Mark.NONE);
    }

    @Test
    void theLastPointBeyondTheNoiseIsALatestChangeToBeConfirmed() {
        List<ChangePoints.Point> points = ChangePoints.of(List.of(forks(100, 102), forks(101, 99), forks(120, 121)), 0.95);

        assertThat(points).extracting(ChangePoints.Point::mark).containsExactly(Mark.NONE, Mark.NONE, Mark.LATEST_CHANGE);
        assertThat(points.get(2).contrast().percent()).isBetween(18.0, 21.0);
    }

    @Test
    void singleForkRunsShowAStepOnceTwoRunsStandOnEachSide() {
        List<double[]> history = List.of(forks(100), forks(102), forks(140), forks(141));
        assertThat(ChangePoints.of(history, 0.95)).extracting(ChangePoints.Point::mark)
                .containsExactly(Mark.NONE, Mark.NONE, Mark.CHANGE, Mark.NONE);

        assertThat(ChangePoints.of(List.of(forks(100), forks(140), forks(141)), 0.95))
                .as("one sample before the step: no noise to judge it by, nothing decided")
                .extracting(ChangePoints.Point::mark).containsOnly(Mark.NONE);
    }

    @Test
    void aChangeFollowedByAPointOfOneForkOnItsSideIsStillAChange() {
        assertThat(ChangePoints.of(List.of(forks(100, 102, 101), forks(130, 131, 129), forks(128)), 0.95))
                .extracting(ChangePoints.Point::mark).containsExactly(Mark.NONE, Mark.CHANGE, Mark.NONE);
        assertThat(ChangePoints.of(List.of(forks(100, 102, 101), forks(130, 131, 129), forks(95)), 0.95))
                .as("one fork back below the level: the step was one point astray")
                .extracting(ChangePoints.Point::mark).containsExactly(Mark.NONE, Mark.OUTLIER, Mark.NONE);
    }

    @Test
    void historiesOfNoChangeMarkAChangeRarely() {
        SplittableRandom random = new SplittableRandom(7);
        int changed = 0;
        for (int trial = 0; trial < TRIALS; trial++) {
            List<double[]> history = new ArrayList<>();
            for (int point = 0; point < 6; point++) {
                history.add(random.doubles(3).map(u -> 100 + 10 * (u - 0.5)).toArray());
            }
            changed += ChangePoints.of(history, 0.95).stream().anyMatch(p -> p.mark() == Mark.CHANGE) ? 1 : 0;
        }
        // A change needs two points beyond a 95 % interval on one side, each test at 5 %: a few per cent of histories.
        assertThat(changed / (double) TRIALS).as("histories of 6 points with a change marked").isLessThan(0.03);
    }

    private static double[] forks(double... samples) {
        return samples;
    }
}
