package dev.gauntlet.runner.cli;

import dev.gauntlet.runner.Cli.Result;
import dev.gauntlet.runner.results.ResultRow;
import dev.gauntlet.runner.results.ResultsStore;
import dev.gauntlet.runner.suite.Suite;
import dev.gauntlet.runner.suite.SuiteLoader;
import dev.gauntlet.runner.suite.SuiteScaling;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static dev.gauntlet.runner.Cli.cli;
import static dev.gauntlet.runner.results.StudyRows.forClient;
import static dev.gauntlet.runner.results.StudyRows.judged;
import static dev.gauntlet.runner.results.StudyRows.row;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code gauntlet contrast} on a results directory whose forks' figures, and so its answers, are known. */
class ContrastCommandTest {
    private static final Suite SUITE = SuiteLoader.parse("""
            name: study
            targets: [sync, async, same]
            forks: 3
            scenarios:
              - { name: slow, load: { type: open, ratePerSec: 1000 }, waitMs: 1000, durationMs: 6000 }
            """.getBytes(StandardCharsets.UTF_8), "test suite");

    @TempDir
    Path dir;

    /** p99 per fork: sync 1000.6–1000.8, async five more (as 2016's), same within sync's spread. */
    private Path study() {
        ResultsStore store = ResultsStore.create(dir, SUITE, new SuiteScaling.Fitted(SUITE, 1, List.of()), null, "none");
        double[] sync = {1000.6, 1000.8, 1000.7};
        double[] same = {1000.7, 1000.6, 1000.8};
        for (int fork = 1; fork <= 3; fork++) {
            store.add(row("sync", "slow", fork, 1, 1000, 1000, sync[fork - 1], 0));
            store.add(row("async", "slow", fork, 1, 1000, 1000, sync[fork - 1] + 5 + fork * 0.1, 0));
            store.add(row("same", "slow", fork, 1, 1000, 1000, same[fork - 1], 0));
        }
        // A failed run has no figure: it is left out and said, not counted as a zero.
        store.add(judged(row("same", "slow", 3, 2, Double.NaN, Double.NaN, Double.NaN, 0), null, "target died"));
        return store.dir();
    }

    @Test
    void aDifferenceBeyondTheForksSpreadIsDecidedAndOneWithinItIsNot() {
        Result result = cli("contrast", study().toString(), "--scenario", "slow", "sync", "async", "same");

        assertThat(result.code()).isZero();
        assertThat(result.out()).contains("slow · p99 (ms) over forks, mean and 95 % interval:");
        assertThat(result.out()).contains("sync   1000.70 (95 % CI 1000.45–1000.95, 3 forks); verdicts ok ×3");
        assertThat(result.out()).contains("async against sync: +5.20 ms (95 % CI +4.85–+5.55 ms): async is 0.520 % slower than sync (95 % CI 0.484–0.555 %)");
        assertThat(result.out()).contains("same against sync: 0 ms (95 % CI -0.227–+0.227 ms): no difference detectable (95 % CI -0.023–+0.023 %");
        assertThat(result.out()).contains("1 run without the figure, left out");
    }

    @Test
    void aClientStudysCaseContrastsItsClients() {
        ResultsStore store = ResultsStore.create(dir, SUITE, new SuiteScaling.Fitted(SUITE, 1, List.of()), null, "none");
        for (int fork = 1; fork <= 3; fork++) {
            store.add(forClient(row("netty", "held", fork, 1, 1000, 1000, 100 + fork, 0), "okhttp-platform"));
            store.add(forClient(row("netty", "held", fork, 1, 1000, 1000, 200 + fork, 0), "okhttp-virtual"));
            // None of its requests answered: its row's times are 0, which is no time at all.
            store.add(forClient(row("netty", "held", fork, 1, 0, 0, 0, 25_000), "jdk-platform"));
        }
        String results = store.dir().toString();

        Result result = cli("contrast", results, "--scenario", "held", "okhttp-platform", "okhttp-virtual");

        assertThat(result.code()).isZero();
        assertThat(result.out()).contains("okhttp-platform  102.0 (95 % CI");
        assertThat(result.out()).contains("okhttp-virtual against okhttp-platform: +100 ms");
        assertThat(cli("contrast", results, "--scenario", "held", "okhttp-platform", "jdk-platform").out())
                .contains("3 runs without the figure, left out")
                .contains("jdk-platform against okhttp-platform: no interval: jdk-platform has 0 forks");
        // A run's own scenario still names the targets that ran it.
        assertThat(cli("contrast", results, "--scenario", "held.okhttp-virtual", "netty").out()).contains("netty  202.0");
        assertOneLine(cli("contrast", results, "--scenario", "held", "okhttp-platfrom", "okhttp-virtual"),
                "has no held row of okhttp-platfrom; its clients there: okhttp-platform, okhttp-virtual, jdk-platform");
    }

    @Test
    void badInputIsOneLineAndExitTwo() {
        Path study = study();
        assertOneLine(cli("contrast", study.toString(), "--scenario", "slwo", "sync", "async"),
                "has no scenario slwo; its scenarios: slow");
        assertOneLine(cli("contrast", study.toString(), "--scenario", "slow", "sync", "asnyc"),
                "has no slow row of asnyc; its targets there: sync, async, same");
        assertOneLine(cli("contrast", study.toString(), "--scenario", "slow", "--figure", "p98", "sync", "async"),
                "--figure p98 is not a figure rows have; one of: mean, p50, p99");
        assertOneLine(cli("contrast", dir.resolve("nowhere").toString(), "--scenario", "slow", "sync", "async"),
                "is not a results directory with rows");
    }

    private static void assertOneLine(Result result, String says) {
        assertThat(result.code()).isEqualTo(2);
        assertThat(result.err()).contains(says);
        assertThat(result.err().strip()).doesNotContain("\n").doesNotContain("Exception");
        assertThat(result.out()).isEmpty();
    }
}
