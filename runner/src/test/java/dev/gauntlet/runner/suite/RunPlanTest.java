package dev.gauntlet.runner.suite;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** The order of a suite's runs in each {@link Suite.Repeat}, warm-ups, resuming and the time estimate. */
class RunPlanTest {

    /** A client suite of {@code targets} and {@code clients}: the built-in warm-up, then a slow open loop per client. */
    private static Suite warmAndSlowFor(String targets, String clients) {
        return SuiteLoader.parse(("""
                name: plan
                targets: %s
                clients: %s
                scenarios:
                  - name: warm
                    warmUp: true
                    load: { type: closed, connections: 10 }
                    durationMs: 5000
                  - name: slow
                    load: { type: open, ratePerSec: 10 }
                    durationMs: 8000
                """.formatted(targets, clients)).getBytes(StandardCharsets.UTF_8), "test").withClientScenarios();
    }

    private static Suite suite(String repeat) {
        return suite(repeat, 1);
    }

    private static Suite suite(String repeat, int forks) {
        return SuiteLoader.parse("""
                name: plan
                targets: [a, b]
                forks: %d
                repetitions: 2
                repeat: %s
                scenarios:
                  - name: held
                    load: { type: max-concurrency, requests: 10 }
                    waitMs: 12000
                    warmupMs: 1000
                    durationMs: 10000
                  - name: warm
                    warmUp: true
                    load: { type: closed, connections: 10 }
                    durationMs: 5000
                  - name: slow
                    load: { type: open, ratePerSec: 10 }
                    warmupMs: 2000
                    durationMs: 8000
                """.formatted(forks, repeat).getBytes(StandardCharsets.UTF_8), "test");
    }

    private static List<String> order(RunPlan plan) {
        return plan.sessions().stream().map(s -> s.target() + ":" + String.join(",", s.runs().stream()
                .map(r -> r.scenario().name() + r.repetition()).toList())).toList();
    }

    @Test
    void scenarioOrderRepeatsEachScenarioInARowAndWarmsUpOnce() {
        assertThat(order(RunPlan.of(suite("scenario")))).containsExactly(
                "a:held1,held2,warm1,slow1,slow2", "b:held1,held2,warm1,slow1,slow2");
    }

    @Test
    void sweepOrderRepeatsTheWholePassAndWarmsUpInTheFirst() {
        assertThat(order(RunPlan.of(suite("sweep")))).containsExactly(
                "a:held1,warm1,slow1,held2,slow2", "b:held1,warm1,slow1,held2,slow2");
    }

    @Test
    void forksStartEveryTargetAfreshInTurnEachWithTheWholeOrder() {
        RunPlan plan = RunPlan.of(suite("sweep", 2));

        assertThat(order(plan)).containsExactly("a:held1,warm1,slow1,held2,slow2", "b:held1,warm1,slow1,held2,slow2",
                "a:held1,warm1,slow1,held2,slow2", "b:held1,warm1,slow1,held2,slow2");
        assertThat(plan.sessions().get(2).runs()).allMatch(run -> run.fork() == 2);
        assertThat(plan.forks()).isEqualTo(2);
        assertThat(plan.recordedRuns()).isEqualTo(2 * 2 * 4);
    }

    @Test
    void resumingKeepsTheWarmUpBeforeWhatIsLeftAndDropsFinishedSessions() {
        RunPlan left = RunPlan.of(suite("scenario")).without(Set.of(
                new RunPlan.Key("a", "held", 1, 1), new RunPlan.Key("a", "held", 1, 2), new RunPlan.Key("a", "slow", 1, 1),
                new RunPlan.Key("b", "held", 1, 1), new RunPlan.Key("b", "held", 1, 2),
                new RunPlan.Key("b", "slow", 1, 1), new RunPlan.Key("b", "slow", 1, 2)));

        assertThat(order(left)).containsExactly("a:warm1,slow2");
        assertThat(left.recordedRuns()).isEqualTo(1);
    }

    @Test
    void aClientRunsOnlyAgainstTheTargetsWhoseProtocolItsLibrarySpeaks() {
        Suite suite = warmAndSlowFor("[a, a@h3, b@h3]", "[reactor-async, jdk-async]");

        RunPlan plan = RunPlan.of(suite);

        // jdk-async speaks no h3 (the JDK's HttpClient has it only from Java 26); the built-in warm-up speaks every protocol.
        assertThat(order(plan)).containsExactly("a:warm1,slow.reactor-async1,slow.jdk-async1", "a@h3:warm1,slow.reactor-async1",
                "b@h3:warm1,slow.reactor-async1");
        assertThat(plan.recordedRuns()).isEqualTo(4);
        assertThat(order(RunPlan.of(suite.withTargets(List.of("a@h3")).withClients(List.of()))))
                .containsExactly("a@h3:warm1,slow.reactor-async1");
    }

    @Test
    void aSessionWithNothingToRecordForItsProtocolIsNone() {
        Suite suite = warmAndSlowFor("[a, a@h3]", "[jdk-async]");

        assertThat(order(RunPlan.of(suite))).containsExactly("a:warm1,slow.jdk-async1");
    }

    @Test
    void theEstimateCountsPhasesOverheadsAndTheHeldRequestsDraining() {
        RunPlan plan = RunPlan.of(suite("scenario").withTargets(List.of("a")).withRepetitions(1));
        // start + held (1 + 10 s, its 12 s wait drained, 10 requests set up in 3 ms) + warm (5 s) + slow (2 + 8 s),
        // each run with its overhead, and the generator's JIT warm-up before the two that are not held
        Duration expected = RunPlan.TARGET_START.plus(RunPlan.RUN_OVERHEAD.multipliedBy(3))
                .plus(RunPlan.GENERATOR_JIT_WARMUP.multipliedBy(2)).plusSeconds(11 + 12 + 5 + 10).plusMillis(3);
        assertThat(plan.estimate()).isEqualTo(expected);
        // At most: the two that are not held also wait out their last requests (30 s, the response timeout) and the
        // target's drain, as a target that fell behind leaves them.
        Duration tails = Duration.ofMillis(2 * 30_000).plus(RunPlan.FALLING_BEHIND_DRAIN.multipliedBy(2));
        assertThat(plan.estimateAtMost()).isEqualTo(expected.plus(tails));
    }
}
