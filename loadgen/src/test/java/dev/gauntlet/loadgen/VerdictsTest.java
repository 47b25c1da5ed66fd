package dev.gauntlet.loadgen;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.Percentiles;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.Verdict;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.time.Instant;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Each rule of {@link Verdicts} on a constructed run: 1,000 requests/s for 10 s, 1 ms median service. */
class VerdictsTest {
    private static final LoadSpec OPEN = LoadSpec.of(URI.create("http://127.0.0.1:1/hello"),
            new LoadModel.OpenLoop(1_000, LoadModel.InterArrival.EXPONENTIAL));
    private static final LoadSpec CLOSED = LoadSpec.of(URI.create("http://127.0.0.1:1/hello"), new LoadModel.ClosedLoop(50));

    /** A clean open-loop run; each test changes what its rule looks at. */
    private static final class Run {
        LoadSpec spec = OPEN;
        long scheduled = 10_000;
        long sent = 10_000;
        Map<ErrorClass, Long> errors = new EnumMap<>(ErrorClass.class);
        double lagP99Ms = 0.2;
        double loopLateP99Ms = 0.2;
        double serviceP50Ms = 1;
        /** NaN: twice the median. */
        double serviceP99Ms = Double.NaN;
        double connectP99Ms = 0.2;
        double responseP99Ms = 2;
        double hiccupP99Ms = 0.3;
        double hiccupMaxMs = 2;
        double engineCpuPercent = 20;
        double engineWaitingPercent = 1;
        double processCpuPercent = 25;
        Double targetCpuPercent = 30.0;
        int connectionsPeak = 10;
        int connectionsLimit = 19_000;
        boolean hardCapReached;
        Double sustainedRatePerSec = 1_000.0;
        RunSummary.Steadiness steadiness;
        long connectionsOpenedMeasured;
        long droppedQueueFull;

        RunSummary judge() {
            for (ErrorClass c : ErrorClass.values()) {
                errors.putIfAbsent(c, 0L);
            }
            long failed = errors.values().stream().mapToLong(Long::longValue).sum();
            return Verdicts.judge(RunSummary.builder().spec(spec).startedAt(Instant.EPOCH).measuredSec(10).scheduled(scheduled)
                    .sent(sent).completed(sent - failed).errors(errors).achievedRatePerSec((sent - failed) / 10.0)
                    .sustainedRatePerSec(sustainedRatePerSec).responseTime(latency(serviceP50Ms, responseP99Ms))
                    .serviceTime(latency(serviceP50Ms, Double.isNaN(serviceP99Ms) ? 2 * serviceP50Ms : serviceP99Ms))
                    .scheduleLag(latency(lagP99Ms / 4, lagP99Ms)).connectionsOpened(connectionsPeak)
                    .generatorCost(new RunSummary.GeneratorCost(1_000, 1 << 20, 8, engineCpuPercent, engineWaitingPercent,
                            processCpuPercent))
                    .loopLateness(spec.model() instanceof LoadModel.OpenLoop ? latency(loopLateP99Ms / 4, loopLateP99Ms) : Percentiles.EMPTY)
                    .generatorHiccups(new Percentiles(10_000, 0.1, 0.1, 0.1, hiccupP99Ms, hiccupMaxMs, hiccupMaxMs, hiccupMaxMs))
                    .targetCpuPercent(targetCpuPercent).connectionsPeak(connectionsPeak).connectionsLimit(connectionsLimit)
                    .hardCapReached(hardCapReached).connectTime(latency(connectP99Ms / 4, connectP99Ms)).steadiness(steadiness)
                    .connectionsOpenedMeasured(connectionsOpenedMeasured).droppedQueueFull(droppedQueueFull).build());
        }

        private static Percentiles latency(double p50Ms) {
            return latency(p50Ms, 2 * p50Ms);
        }

        private static Percentiles latency(double p50Ms, double p99Ms) {
            return new Percentiles(10_000, p50Ms, p50Ms, p50Ms, p99Ms, p99Ms, p99Ms, p99Ms);
        }
    }

    @Test
    void aClosedLoopWhoseThroughputClimbsBetweenItsHalvesIsNotSteady() {
        Run run = new Run();
        run.spec = CLOSED;
        run.steadiness = measured(closedWindow(10_000), closedWindow(10_100), closedWindow(11_500), closedWindow(11_600));
        RunSummary judged = run.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.NOT_STEADY);
        assertThat(judged.evidence().getFirst()).startsWith("its throughput moved from 10,050/s in the first half of the "
                + "measured phase to 11,550/s in the second");
    }

    @Test
    void aClosedLoopMovingWithinItsToleranceAndAStallIsSteady() {
        // 9 % apart: within the 10 % tolerance; 12 % apart with a 50 ms stall in a window: within 10 % + 5 %.
        Run within = new Run();
        within.spec = CLOSED;
        within.steadiness = measured(closedWindow(10_000), closedWindow(10_000), closedWindow(10_900), closedWindow(10_900));
        Run stalled = new Run();
        stalled.spec = CLOSED;
        RunSummary.Steadiness.Window stall = new RunSummary.Steadiness.Window(8_800, 5, 9, Double.NaN, 0.2, 50, 0, 0, 0, 0);
        stalled.steadiness = measured(stall, closedWindow(8_800), closedWindow(10_000), closedWindow(10_000));

        assertThat(within.judge().verdict()).isEqualTo(Verdict.OK);
        assertThat(stalled.judge().verdict()).isEqualTo(Verdict.OK);
    }

    @Test
    void anOpenLoopsMedianMovingWithinThePlatformsNoiseIsSteadyBeyondItNot() {
        // 0.4 ms to 1.2 ms: three times over, yet within the 1 ms allowance and twice the 0.3 ms wake-up p99.
        Run noisy = new Run();
        noisy.steadiness = measured(openWindow(0.4), openWindow(0.4), openWindow(1.2), openWindow(1.2));
        Run drifting = new Run();
        drifting.steadiness = measured(openWindow(2), openWindow(2), openWindow(6), openWindow(6));

        assertThat(noisy.judge().verdict()).isEqualTo(Verdict.OK);
        assertThat(drifting.judge().verdict()).isEqualTo(Verdict.NOT_STEADY);
        assertThat(drifting.judge().evidence().getFirst()).startsWith("its median response time moved from 2.00 ms");
    }

    @Test
    void aTargetThatFellBehindIsOverloadedWhateverItsDrift() {
        // The study's mixed case: a collapsing target's latency climbs too; the overload is the finding, the drift a note.
        Run run = new Run();
        run.sustainedRatePerSec = 600.0;
        run.steadiness = measured(openWindow(50), openWindow(200), openWindow(600), openWindow(900));
        RunSummary judged = run.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(judged.evidence()).anyMatch(sentence -> sentence.startsWith("its median response time moved"));
    }

    @Test
    void aWarmUpThatReachedItsMaximumUnsettledIsNotSteady() {
        Run run = new Run();
        run.spec = CLOSED;
        List<RunSummary.Steadiness.Window> climbing = List.of(closedWindow(1_000), closedWindow(2_000), closedWindow(3_000),
                closedWindow(4_000));
        run.steadiness = new RunSummary.Steadiness(new dev.gauntlet.api.SteadyRule(5_000, 2, 10), "rule", 5_000, false,
                false, climbing, List.of());
        RunSummary judged = run.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.NOT_STEADY);
        assertThat(judged.evidence().getFirst()).isEqualTo("the warm-up did not settle within its maximum of 5 s: "
                + "completed/s from 3,000 to 4,000 in the last 2 s, beyond ±350 of their mean 3,500");
    }

    @Test
    void aWarmUpEndedBecauseTheTargetFellBehindSaysSoBesideTheOverload() {
        Run run = new Run();
        run.sustainedRatePerSec = 700.0;
        run.steadiness = new RunSummary.Steadiness(new dev.gauntlet.api.SteadyRule(15_000, 3, 10), "rule", 9_000, false,
                true, List.of(), List.of());
        RunSummary judged = run.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(judged.evidence()).contains("the warm-up ended unsettled after 9 s: the target completed under 90 % "
                + "of the offered rate in each of its last 6 s, and a longer warm-up would only have lengthened its backlog");
    }

    private static RunSummary.Steadiness measured(RunSummary.Steadiness.Window... windows) {
        return new RunSummary.Steadiness(null, "fixed", 2_000, null, false, List.of(), List.of(windows));
    }

    private static RunSummary.Steadiness.Window closedWindow(double perSec) {
        return new RunSummary.Steadiness.Window(perSec, 5, 9, Double.NaN, 0.2, 1, 0, 0, 0, 0);
    }

    private static RunSummary.Steadiness.Window openWindow(double p50Ms) {
        return new RunSummary.Steadiness.Window(1_000, p50Ms, 2 * p50Ms, Double.NaN, 0.3, 1, 0, 0, 0, 0);
    }

    @Test
    void aCleanRunIsOk() {
        RunSummary judged = new Run().judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.OK);
        assertThat(judged.evidence()).isEmpty();
    }

    @Test
    void lagThatTheHiccupsExplainIsThePlatforms() {
        Run run = new Run();
        run.hiccupP99Ms = 2.9;
        run.lagP99Ms = 3.9;
        run.loopLateP99Ms = 3.8;

        RunSummary judged = run.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.PLATFORM_NOISY);
        assertThat(judged.evidence()).singleElement().asString()
                .contains("schedule lag p99 3.90 ms, no later than the platform's own noise explains")
                .contains("wake-up p99 2.90 ms");
    }

    @Test
    void requestsDroppedAtAFullQueueAreTheGeneratorsWhileTheTargetKeepsToItsWait() {
        Run run = new Run();
        run.droppedQueueFull = 1_234;
        run.hardCapReached = true;

        RunSummary judged = run.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.GENERATOR_LIMITED);
        assertThat(judged.evidence().getFirst()).startsWith("1234 requests of the measured phase were dropped, never sent")
                .contains("queue of requests waiting for a connection was full (1048576 a process)")
                .contains("the rate outrunning what it could send");
    }

    @Test
    void requestsDroppedAtAFullQueueBehindACollapsingTargetAreTheTargets() {
        // The mixed case: the server collapses, its slow answers hold every connection of the capped pool, and the
        // requests falling due pile up in the generator until its queue is full.
        Run collapse = collapse();
        collapse.droppedQueueFull = 1_234;
        collapse.hardCapReached = true;

        RunSummary judged = collapse.judge();

        assertThat(judged.verdict()).as("%s", judged.evidence()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(judged.evidence()).anyMatch(e -> e.startsWith("1234 requests of the measured phase were dropped")
                && e.endsWith("its connections held by the target's slow answers"));
    }

    @Test
    void aLoopLateBeyondTheHiccupsIsTheGenerators() {
        Run run = new Run();
        run.hiccupP99Ms = 0.3;
        run.lagP99Ms = 40;
        run.loopLateP99Ms = 40;

        RunSummary judged = run.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.GENERATOR_LIMITED);
        assertThat(judged.evidence()).anyMatch(e -> e.contains("late by p99 40.0 ms"));
    }

    @Test
    void aLoopLateByASmallShareOfTheResponseTimesLeavesThemTheTargets() {
        // A target stopped for a second answers its backlog at once: the loop comes late while it takes the burst in.
        Run stalled = new Run();
        stalled.responseP99Ms = 950;
        stalled.lagP99Ms = 1.8;
        stalled.loopLateP99Ms = 1.8;
        stalled.connectionsPeak = 1_000;
        stalled.connectionsOpenedMeasured = 990;

        RunSummary judged = stalled.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(judged.evidence()).anyMatch(e -> e.contains("connections piled up"))
                .anyMatch(e -> e.contains("late by p99 1.80 ms") && e.contains("under a tenth of the response-time p99 of 950 ms"));

        stalled.loopLateP99Ms = 96;
        stalled.lagP99Ms = 96;
        assertThat(stalled.judge().verdict()).as("a tenth of the response time is the generator's").isEqualTo(Verdict.GENERATOR_LIMITED);
    }

    @Test
    void anEngineThatRanOrWaitedForACpuAllAlongIsTheLimitUnlessTheTargetWasSaturatedToo() {
        Run starved = new Run();
        starved.engineCpuPercent = 30;
        starved.engineWaitingPercent = 69;
        assertThat(starved.judge().verdict()).isEqualTo(Verdict.GENERATOR_LIMITED);

        Run balanced = new Run();
        balanced.spec = CLOSED;
        balanced.engineCpuPercent = 97;
        balanced.engineWaitingPercent = 2;
        balanced.targetCpuPercent = 96.0;
        RunSummary judged = balanced.judge();
        assertThat(judged.verdict()).isEqualTo(Verdict.OK);
        assertThat(judged.evidence()).singleElement().asString().contains("target used 96 %");

        balanced.targetCpuPercent = null;
        assertThat(balanced.judge().verdict()).isEqualTo(Verdict.GENERATOR_LIMITED);
    }

    @Test
    void aClientLibrarysProcessWithNoCpuToSpareIsTheLimitWhileItsDriverThreadIdles() {
        Run library = new Run();
        library.spec = OPEN.toBuilder().client("okhttp-virtual").build();
        library.processCpuPercent = 95;
        library.lagP99Ms = 500;
        library.serviceP50Ms = 300;
        RunSummary judged = library.judge();
        assertThat(judged.verdict()).isEqualTo(Verdict.CLIENT_LIMITED);
        assertThat(judged.evidence()).anyMatch(e -> e.contains("client library's process used 95 %"));

        library.targetCpuPercent = 95.0;
        assertThat(library.judge().verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);

        Run threadsLate = new Run();
        threadsLate.spec = library.spec;
        threadsLate.lagP99Ms = 50;
        RunSummary late = threadsLate.judge();
        assertThat(late.verdict()).as("lag below the in-flight limit is the library's").isEqualTo(Verdict.CLIENT_LIMITED);
        assertThat(late.evidence()).anyMatch(e -> e.contains("waited in the client library"));

        Run lean = new Run();
        lean.processCpuPercent = 95;
        assertThat(lean.judge().verdict()).as("the built-in engine is judged by its own thread").isEqualTo(Verdict.OK);
    }

    @Test
    void requestsWaitingForAConnectionWhileTheTargetAnswersBeyondItsWaitAreTheTargets() {
        Run run = new Run();
        run.lagP99Ms = 800;
        run.loopLateP99Ms = 0.4;
        run.serviceP99Ms = 700;

        RunSummary judged = run.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(judged.evidence()).anyMatch(e -> e.startsWith("requests waited for a connection")
                && e.contains("answered beyond its declared wait of 0 ms (service p99 700 ms)"));
    }

    @Test
    void requestsWaitingForAConnectionWhileTheTargetAcceptsSlowlyAreTheTargets() {
        Run run = new Run();
        run.lagP99Ms = 800;
        run.loopLateP99Ms = 0.4;
        run.connectP99Ms = 1_000;

        RunSummary judged = run.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(judged.evidence()).anyMatch(e -> e.contains("was slow to accept new connections (connect p99 1000 ms)"));
    }

    @Test
    void aLongWaitBehindASmallPoolIsTheGeneratorsWhenTheTargetKeepsToItsWaitAndAccepts() {
        // The server study's slow case: 500/s of 1 s, the target answering in 1 s, the pool short of 500 busy connections.
        Run slow = new Run();
        slow.spec = LoadSpec.of(URI.create("http://127.0.0.1:1/hello?wait=1000"), new LoadModel.OpenLoop(500, LoadModel.InterArrival.EXPONENTIAL));
        slow.serviceP50Ms = 1_001;
        slow.serviceP99Ms = 1_012;
        slow.responseP99Ms = 1_138;
        slow.lagP99Ms = 130;
        slow.loopLateP99Ms = 0.5;
        slow.connectionsPeak = 480;
        slow.sustainedRatePerSec = 440.0;

        RunSummary judged = slow.judge();

        assertThat(judged.verdict()).as("%s", judged.evidence()).isEqualTo(Verdict.GENERATOR_LIMITED);
        assertThat(judged.evidence()).anyMatch(e -> e.contains("answered within its declared wait of 1000 ms (service p99 1012 ms) "
                + "and accepted new connections promptly") && e.contains("its 480 connections at most were fewer than the rate keeps in service"));

        slow.connectionsPeak = 1_000;
        assertThat(slow.judge().verdict()).as("enough connections: the waits were the target's odd slow answers")
                .isEqualTo(Verdict.TARGET_OVERLOADED);
    }

    @Test
    void aMedianServiceTimeFarBeyondTheWaitIsTheTargetsWhateverThePoolDid() {
        Run collapse = collapse();

        RunSummary judged = collapse.judge();

        assertThat(judged.verdict()).as("%s", judged.evidence()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(judged.evidence()).anyMatch(e -> e.startsWith("its median service time was 1035 ms for a declared wait of 0 ms"))
                .noneMatch(e -> e.contains("fewer than the rate keeps in service"));
    }

    @Test
    void aConnectionCapBelowWhatTheRateNeedsIsTheGenerators() {
        Run run = new Run();
        run.spec = LoadSpec.of(URI.create("http://127.0.0.1:1/hello?wait=100"), OPEN.model());
        run.serviceP50Ms = 100;   // 1,000/s × 100 ms: 100 connections needed
        run.serviceP99Ms = 104;
        run.connectionsLimit = 5;
        run.connectionsPeak = 5;
        run.lagP99Ms = 2_000;
        run.loopLateP99Ms = 0.4;

        RunSummary judged = run.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.GENERATOR_LIMITED);
        assertThat(judged.evidence()).anyMatch(e -> e.contains("one of its 5 connections, fewer than the rate keeps in service"));
    }

    @Test
    void aCapThatHoldsTheSteadyStateIsNotTheBottleneckWhenTheTargetStalled() {
        Run run = new Run();
        run.connectionsLimit = 1;
        run.connectionsPeak = 1;
        run.serviceP50Ms = 0.2;    // 1,000/s × 0.2 ms: 0.2 in service, one connection holds it
        run.serviceP99Ms = 850;
        run.hiccupMaxMs = 9;
        run.lagP99Ms = 900;
        run.loopLateP99Ms = 0.3;

        assertThat(run.judge().verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
    }

    @Test
    void connectionsPilingUpPastWhatTheRateNeedsAreTheTargets() {
        Run run = new Run();
        run.connectionsPeak = 1_000;   // the rate needs 1,000/s × (1 + 2) ms = 3
        run.connectionsOpenedMeasured = 990;

        RunSummary judged = run.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(Verdicts.connectionsPiledUp(judged)).isTrue();
        assertThat(Verdicts.suggestedConnections(judged)).isEqualTo(8);
        assertThat(judged.evidence()).anyMatch(e -> e.startsWith("connections piled up: 990 opened in the measured phase"));
    }

    @Test
    void connectionsTheWarmUpOpenedForAColdTargetDoNotPileUpOnceItKeepsUp() {
        // netty-event-loop at 50,000/s: 3,808 connections opened while its JIT warmed up, none after.
        Run run = new Run();
        run.connectionsPeak = 3_808;
        run.connectionsOpenedMeasured = 0;

        RunSummary judged = run.judge();

        assertThat(Verdicts.connectionsPiledUp(judged)).isFalse();
        assertThat(judged.verdict()).isEqualTo(Verdict.OK);
    }

    @Test
    void completingFewerThanOfferedOnceWarmIsTheTargetFallingBehind() {
        Run run = new Run();
        run.sustainedRatePerSec = 850.0;

        RunSummary judged = run.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(judged.evidence()).contains("it completed 850/s over the second half of the measured phase, "
                + "against 1k/s offered: the target fell behind");
    }

    @Test
    void aClosedLoopThatCompletedNothingIsTheTargetsEvenWithoutErrors() {
        Run stuck = new Run();
        stuck.spec = CLOSED;
        stuck.scheduled = 0;
        stuck.sent = 0;
        stuck.sustainedRatePerSec = null;

        RunSummary judged = stuck.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(judged.evidence()).contains("no request completed in the measured phase, and none failed: the target answered nothing");
    }

    @Test
    void timeoutsAndResetsAreTheTargetsFromOneInAThousand() {
        Run few = new Run();
        few.errors.put(ErrorClass.RESPONSE_TIMEOUT, 9L);
        assertThat(few.judge().verdict()).isEqualTo(Verdict.OK);

        Run many = new Run();
        many.errors.put(ErrorClass.RESPONSE_TIMEOUT, 10L);
        many.errors.put(ErrorClass.RESET, 5L);
        RunSummary judged = many.judge();
        assertThat(judged.verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(judged.evidence()).contains("15 requests failed (reset 5, response timeout 10)");
    }

    @Test
    void aShortfallIsTheGeneratorsWhenItsLoopWasLateAndTheTargetsOtherwise() {
        Run late = new Run();
        late.sent = 8_000;
        late.lagP99Ms = 50;
        late.loopLateP99Ms = 50;
        assertThat(late.judge().evidence()).contains("sent 8000 of 10000 scheduled requests");
        assertThat(late.judge().verdict()).isEqualTo(Verdict.GENERATOR_LIMITED);

        Run waiting = new Run();
        waiting.sent = 8_000;
        waiting.lagP99Ms = 3_000;
        waiting.loopLateP99Ms = 0.3;
        waiting.serviceP99Ms = 2_500;
        assertThat(waiting.judge().verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(waiting.judge().evidence()).contains("sent 8000 of 10000 scheduled requests, the rest waiting for a connection");

        waiting.spec = LoadSpec.of(URI.create("http://127.0.0.1:1/hello?wait=50"), OPEN.model());
        waiting.serviceP50Ms = 50;   // 1,000/s × 50 ms: 50 in service, over 10 connections
        waiting.serviceP99Ms = 55;
        assertThat(waiting.judge().verdict()).as("the target kept pace: the pool was short").isEqualTo(Verdict.GENERATOR_LIMITED);
    }

    @Test
    void theGeneratorsOwnLimitWinsOverTheTargetsAndTheTargetsOverThePlatforms() {
        Run both = new Run();
        both.engineCpuPercent = 99;
        both.errors.put(ErrorClass.RESET, 100L);
        assertThat(both.judge().verdict()).isEqualTo(Verdict.GENERATOR_LIMITED);

        Run targetAndNoise = new Run();
        targetAndNoise.hiccupP99Ms = 5;
        targetAndNoise.lagP99Ms = 4;
        targetAndNoise.loopLateP99Ms = 4;
        targetAndNoise.errors.put(ErrorClass.RESET, 100L);
        assertThat(targetAndNoise.judge().verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
    }

    /** The server study's collapse: no wait declared, a median service of 1 s, the generator's cap reached. */
    private static Run collapse() {
        Run collapse = new Run();
        collapse.serviceP50Ms = 1_035;
        collapse.responseP99Ms = 9_504;
        collapse.lagP99Ms = 9_000;
        collapse.loopLateP99Ms = 3;
        collapse.connectionsLimit = 19_919;
        collapse.connectionsPeak = 19_919;
        collapse.sustainedRatePerSec = 150.0;
        return collapse;
    }
}
