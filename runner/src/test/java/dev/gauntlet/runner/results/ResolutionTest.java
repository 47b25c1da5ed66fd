package dev.gauntlet.runner.results;

import dev.gauntlet.runner.suite.RunPlan;
import dev.gauntlet.runner.suite.Suite;
import dev.gauntlet.runner.suite.SuiteLoader;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static dev.gauntlet.runner.results.StudyRows.row;
import static org.assertj.core.api.Assertions.assertThat;

class ResolutionTest {
    private static Suite suite(String table) {
        return SuiteLoader.parse("""
                name: resolve
                targets: [dummy, jetty, netty, undertow]
                forks: 2
                table: %s
                scenarios:
                  - name: flood
                    load: { type: closed, connections: 10 }
                    durationMs: 1000
                """.formatted(table).getBytes(StandardCharsets.UTF_8), "test");
    }

    /** {@code rates} per fork; p50 in ms as the latency-diff reads it. */
    private static List<ResultRow> forks(String target, double p50Ms, double... rates) {
        List<ResultRow> rows = new ArrayList<>();
        for (int fork = 1; fork <= rates.length; fork++) {
            rows.add(row(target, "flood", fork, 1, rates[fork - 1], p50Ms + fork * 0.001, 1, 0));
        }
        return rows;
    }

    @Test
    void aRankingsNeighboursThatForksHaveNotToldApartAreWhatTheNextForkRuns() {
        List<ResultRow> rows = new ArrayList<>();
        rows.addAll(forks("netty", 0.1, 100_000, 101_000, 99_800));
        rows.addAll(forks("undertow", 0.1, 99_000, 100_500, 99_700));
        rows.addAll(forks("jetty", 0.1, 80_000, 81_000, 79_500));

        Resolution resolution = Resolution.of(rows, suite("ranking"), 0.95);

        assertThat(resolution.pairs()).extracting(Resolution.Pair::a, Resolution.Pair::b, Resolution.Pair::resolved)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("netty", "undertow", false),
                        org.assertj.core.groups.Tuple.tuple("undertow", "jetty", true));
        assertThat(resolution.resolved()).isFalse();
        assertThat(resolution.targets()).containsExactly("netty", "undertow");
        assertThat(resolution.describe()).startsWith("1 of 2 ranked pairs not resolved (netty against undertow in flood:"
                + " smallest detectable difference ");
        assertThat(RunPlan.fork(suite("ranking"), 4, resolution.targets()).sessions())
                .extracting(RunPlan.Session::target).containsExactly("netty", "undertow");
    }

    @Test
    void latencyDiffResolvesEachTargetAgainstTheBaselineAndOneForkResolvesNothing() {
        List<ResultRow> rows = new ArrayList<>();
        rows.addAll(forks("dummy", 0.100, 1, 1));
        rows.addAll(forks("netty", 0.150, 1, 1));
        rows.addAll(forks("jetty", 0.130, 1));

        Resolution resolution = Resolution.of(rows, suite("latency-diff"), 0.95);

        assertThat(resolution.unresolved()).extracting(Resolution.Pair::a).containsExactly("jetty");
        assertThat(resolution.targets()).containsExactly("jetty", "dummy");
        assertThat(resolution.describe()).contains("jetty against dummy: no interval yet (one fork)");
    }
}
