package dev.gauntlet.loadgen.verdict;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.Verdict;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Each rule of {@link Verdicts} on a constructed run: 1,000 requests/s for 10 s, 1 ms median service. */
class VerdictsTest {
    @Test
    void aCleanRunIsOk() {
        RunSummary judged = new ConstructedRun().judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.OK);
        assertThat(judged.evidence()).isEmpty();
    }

    @Test
    void lagThatTheHiccupsExplainIsThePlatforms() {
        ConstructedRun run = new ConstructedRun();
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
    void latenessWithinTheLoopsWakeGranularityIsTheLoopsByDesign() {
        // Sent by the millisecond, as wrk2 sends: the lag of a run the platform would otherwise be blamed for.
        ConstructedRun batched = new ConstructedRun();
        batched.hiccupP99Ms = 0.15;
        batched.lagP99Ms = 1.3;
        batched.loopLateP99Ms = 1.3;
        batched.responseP99Ms = 1.5;
        assertThat(batched.judge().verdict()).as("without a granularity").isEqualTo(Verdict.PLATFORM_NOISY);

        batched.wakeGranularityMs = 1;
        RunSummary judged = batched.judge();

        assertThat(judged.verdict()).as("%s", judged.evidence()).isEqualTo(Verdict.OK);
        assertThat(judged.evidence()).isEmpty();
    }

    @Test
    void aLoopLateBeyondItsWakeGranularityIsStillTheGenerators() {
        // The mixed case: batched by 1 ms, and late by far more than that on top.
        ConstructedRun run = new ConstructedRun();
        run.wakeGranularityMs = 1;
        run.hiccupP99Ms = 0.3;
        run.lagP99Ms = 40;
        run.loopLateP99Ms = 40;

        RunSummary judged = run.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.GENERATOR_LIMITED);
        assertThat(judged.evidence()).anyMatch(e -> e.contains("late by p99 40.0 ms")
                && e.contains("its loop's wake granularity 1.00 ms"));
    }

    @Test
    void requestsDroppedAtAFullQueueAreTheGeneratorsWhileTheTargetKeepsToItsWait() {
        ConstructedRun run = new ConstructedRun();
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
        ConstructedRun collapse = collapse();
        collapse.droppedQueueFull = 1_234;
        collapse.hardCapReached = true;

        RunSummary judged = collapse.judge();

        assertThat(judged.verdict()).as("%s", judged.evidence()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(judged.evidence()).anyMatch(e -> e.startsWith("1234 requests of the measured phase were dropped")
                && e.endsWith("its connections held by the target's slow answers"));
    }

    @Test
    void aLoopLateBeyondTheHiccupsIsTheGenerators() {
        ConstructedRun run = new ConstructedRun();
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
        ConstructedRun stalled = new ConstructedRun();
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
        ConstructedRun starved = new ConstructedRun();
        starved.engineCpuPercent = 30;
        starved.engineWaitingPercent = 69;
        assertThat(starved.judge().verdict()).isEqualTo(Verdict.GENERATOR_LIMITED);

        ConstructedRun balanced = new ConstructedRun();
        balanced.spec = ConstructedRun.CLOSED;
        balanced.engineCpuPercent = 97;
        balanced.engineWaitingPercent = 2;
        balanced.targetCpuPercent = 96.0;
        RunSummary judged = balanced.judge();
        assertThat(judged.verdict()).isEqualTo(Verdict.OK);
        assertThat(judged.evidence()).singleElement().asString().contains("target used 96 %");

        balanced.targetCpuPercent = null;
        assertThat(balanced.judge().verdict()).isEqualTo(Verdict.GENERATOR_LIMITED);
    }

    /**
     * The 2016 concurrency case asks how many requests the server takes on. A burst keeps the engine busy connecting:
     * with every request held that cut nothing, and the connects it tried again are a note; with requests missing, a
     * busy engine is the limit; with the engine idle, the requests that never got in are the target's.
     */
    @Test
    void aHeldBurstIsTheGeneratorsOnlyWhenItsBusyEngineLeftRequestsOut() {
        ConstructedRun everyHeld = held(19_000, 312);
        RunSummary judged = everyHeld.judge();
        assertThat(judged.verdict()).isEqualTo(Verdict.OK);
        assertThat(judged.evidence()).singleElement().asString()
                .isEqualTo("312 connects outlasted the 2000 ms connect timeout and were tried again within the hold, "
                        + "not counted as the target's limit");

        ConstructedRun short1 = held(18_049, 0);
        assertThat(short1.judge().verdict()).isEqualTo(Verdict.GENERATOR_LIMITED);

        ConstructedRun refused = held(15_000, 0);
        refused.engineCpuPercent = 20;
        refused.engineWaitingPercent = 1;
        refused.errors.put(ErrorClass.REFUSED, 4_000L);
        assertThat(refused.judge().verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
    }

    /** A held run of 19,000 whose engine ran or waited for a CPU all along while the target used 45 % of its CPU. */
    private static ConstructedRun held(long heldRequests, long connectRetries) {
        ConstructedRun run = new ConstructedRun();
        run.spec = ConstructedRun.HELD;
        run.scheduled = 19_000;
        run.sent = heldRequests;
        run.sustainedRatePerSec = null;
        run.engineCpuPercent = 44;
        run.engineWaitingPercent = 56;
        run.targetCpuPercent = 45.0;
        run.concurrency = new RunSummary.Concurrency(heldRequests, heldRequests, connectRetries, null, null);
        return run;
    }

    /**
     * The JDK client over TLS from a cold JVM at 200/s (2026-11-28, jdk-async against jetty-handler-virtual, whose
     * /stats saw 2 requests in flight at most): 703 of 1,026 failed at connect, the median 2 s, while the client's JIT
     * compiled 3.7 s, then 0.8 to 1.3 s, in its four measured seconds. With a 15 s warm-up the same load had no error.
     */
    @Test
    void aClientLibraryStillCompilingInTheMeasuredPhaseIsTheLimitNotTheTarget() {
        ConstructedRun cold = new ConstructedRun();
        cold.spec = ConstructedRun.OPEN.toBuilder().client("jdk-async").build();
        cold.errors.put(ErrorClass.CONNECT_TIMEOUT, 7_030L);
        cold.serviceP50Ms = 2_042;
        cold.sustainedRatePerSec = 550.0;
        cold.targetCpuPercent = null;
        cold.steadiness = measuredWithGeneratorCompileMs(3_661, 810, 1_316, 1_297);
        RunSummary judged = cold.judge();
        assertThat(judged.verdict()).isEqualTo(Verdict.CLIENT_LIMITED);
        assertThat(judged.evidence()).anyMatch(e -> e.contains("still compiling: its JIT compiled for 7084 ms in the measured phase's 4 s"));

        cold.steadiness = measuredWithGeneratorCompileMs(200, 150, 200, 180);
        assertThat(cold.judge().verdict()).as("a library compiling under a fifth of the time").isEqualTo(Verdict.TARGET_OVERLOADED);

        cold.steadiness = measuredWithGeneratorCompileMs(3_661, 810, 1_316, 1_297);
        cold.targetCpuPercent = 95.0;
        assertThat(cold.judge().verdict()).as("a target with no CPU to spare").isEqualTo(Verdict.TARGET_OVERLOADED);

        cold.targetCpuPercent = null;
        cold.spec = ConstructedRun.OPEN;
        assertThat(cold.judge().verdict()).as("the built-in engine, which warms its JIT up before the run")
                .isEqualTo(Verdict.TARGET_OVERLOADED);
    }

    private static RunSummary.Steadiness measuredWithGeneratorCompileMs(long... compileMs) {
        List<RunSummary.Steadiness.Window> windows = new ArrayList<>();
        for (long ms : compileMs) {
            windows.add(new RunSummary.Steadiness.Window(100, 2_000, 2_500, Double.NaN, 0.2, 1, -1, -1, ms, 10));
        }
        return new RunSummary.Steadiness(null, "fixed", 2_000, null, false, List.of(), windows);
    }

    /** Over HTTP/3 the engine thread hands each request to Netty's QUIC event loop: the process's CPU is the generator's. */
    @Test
    void theHttp3EnginesProcessWithNoCpuToSpareIsTheGeneratorsLimitWhileItsDriverThreadIdles() {
        ConstructedRun h3 = new ConstructedRun();
        h3.spec = LoadSpec.of(URI.create("https://127.0.0.1:8443/hello"), ConstructedRun.OPEN.model()).toBuilder()
                .http3(true).build();
        h3.processCpuPercent = 97;
        h3.lagP99Ms = 500;
        h3.serviceP50Ms = 300;
        RunSummary judged = h3.judge();
        assertThat(judged.verdict()).isEqualTo(Verdict.GENERATOR_LIMITED);
        assertThat(judged.evidence()).anyMatch(e -> e.contains("its HTTP/3 engine: Netty's QUIC event loop) used 97 %"));

        h3.targetCpuPercent = 95.0;
        assertThat(h3.judge().verdict()).as("the target busy too: its figures").isEqualTo(Verdict.TARGET_OVERLOADED);
    }

    @Test
    void aClientLibrarysProcessWithNoCpuToSpareIsTheLimitWhileItsDriverThreadIdles() {
        ConstructedRun library = new ConstructedRun();
        library.spec = ConstructedRun.OPEN.toBuilder().client("okhttp-virtual").build();
        library.processCpuPercent = 95;
        library.lagP99Ms = 500;
        library.serviceP50Ms = 300;
        RunSummary judged = library.judge();
        assertThat(judged.verdict()).isEqualTo(Verdict.CLIENT_LIMITED);
        assertThat(judged.evidence()).anyMatch(e -> e.contains("client library's process used 95 %"));

        library.targetCpuPercent = 95.0;
        assertThat(library.judge().verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);

        ConstructedRun threadsLate = new ConstructedRun();
        threadsLate.spec = library.spec;
        threadsLate.lagP99Ms = 50;
        RunSummary late = threadsLate.judge();
        assertThat(late.verdict()).as("lag below the in-flight limit is the library's").isEqualTo(Verdict.CLIENT_LIMITED);
        assertThat(late.evidence()).anyMatch(e -> e.contains("waited in the client library"));

        ConstructedRun lean = new ConstructedRun();
        lean.processCpuPercent = 95;
        assertThat(lean.judge().verdict()).as("the built-in engine is judged by its own thread").isEqualTo(Verdict.OK);
    }

    @Test
    void requestsWaitingForAConnectionWhileTheTargetAnswersBeyondItsWaitAreTheTargets() {
        ConstructedRun run = new ConstructedRun();
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
        ConstructedRun run = new ConstructedRun();
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
        ConstructedRun slow = new ConstructedRun();
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
        ConstructedRun collapse = collapse();

        RunSummary judged = collapse.judge();

        assertThat(judged.verdict()).as("%s", judged.evidence()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(judged.evidence()).anyMatch(e -> e.startsWith("its median service time was 1035 ms for a declared wait of 0 ms"))
                .noneMatch(e -> e.contains("fewer than the rate keeps in service"));
    }

    @Test
    void aConnectionCapBelowWhatTheRateNeedsIsTheGenerators() {
        ConstructedRun run = new ConstructedRun();
        run.spec = LoadSpec.of(URI.create("http://127.0.0.1:1/hello?wait=100"), ConstructedRun.OPEN.model());
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
        ConstructedRun run = new ConstructedRun();
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
        ConstructedRun run = new ConstructedRun();
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
        ConstructedRun run = new ConstructedRun();
        run.connectionsPeak = 3_808;
        run.connectionsOpenedMeasured = 0;

        RunSummary judged = run.judge();

        assertThat(Verdicts.connectionsPiledUp(judged)).isFalse();
        assertThat(judged.verdict()).isEqualTo(Verdict.OK);
    }

    @Test
    void completingFewerThanOfferedOnceWarmIsTheTargetFallingBehind() {
        ConstructedRun run = new ConstructedRun();
        run.sustainedRatePerSec = 850.0;

        RunSummary judged = run.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(judged.evidence()).contains("it completed 850/s over the second half of the measured phase, "
                + "against 1k/s offered: the target fell behind");
    }

    @Test
    void aClosedLoopThatCompletedNothingIsTheTargetsEvenWithoutErrors() {
        ConstructedRun stuck = new ConstructedRun();
        stuck.spec = ConstructedRun.CLOSED;
        stuck.scheduled = 0;
        stuck.sent = 0;
        stuck.sustainedRatePerSec = null;

        RunSummary judged = stuck.judge();

        assertThat(judged.verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(judged.evidence()).contains("no request completed in the measured phase, and none failed: the target answered nothing");
    }

    @Test
    void timeoutsAndResetsAreTheTargetsFromOneInAThousand() {
        ConstructedRun few = new ConstructedRun();
        few.errors.put(ErrorClass.RESPONSE_TIMEOUT, 9L);
        assertThat(few.judge().verdict()).isEqualTo(Verdict.OK);

        ConstructedRun many = new ConstructedRun();
        many.errors.put(ErrorClass.RESPONSE_TIMEOUT, 10L);
        many.errors.put(ErrorClass.RESET, 5L);
        RunSummary judged = many.judge();
        assertThat(judged.verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(judged.evidence()).contains("15 requests failed (reset 5, response timeout 10)");
    }

    @Test
    void aShortfallIsTheGeneratorsWhenItsLoopWasLateAndTheTargetsOtherwise() {
        ConstructedRun late = new ConstructedRun();
        late.sent = 8_000;
        late.lagP99Ms = 50;
        late.loopLateP99Ms = 50;
        assertThat(late.judge().evidence()).contains("sent 8000 of 10000 scheduled requests");
        assertThat(late.judge().verdict()).isEqualTo(Verdict.GENERATOR_LIMITED);

        ConstructedRun waiting = new ConstructedRun();
        waiting.sent = 8_000;
        waiting.lagP99Ms = 3_000;
        waiting.loopLateP99Ms = 0.3;
        waiting.serviceP99Ms = 2_500;
        assertThat(waiting.judge().verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
        assertThat(waiting.judge().evidence()).contains("sent 8000 of 10000 scheduled requests, the rest waiting for a connection");

        waiting.spec = LoadSpec.of(URI.create("http://127.0.0.1:1/hello?wait=50"), ConstructedRun.OPEN.model());
        waiting.serviceP50Ms = 50;   // 1,000/s × 50 ms: 50 in service, over 10 connections
        waiting.serviceP99Ms = 55;
        assertThat(waiting.judge().verdict()).as("the target kept pace: the pool was short").isEqualTo(Verdict.GENERATOR_LIMITED);
    }

    @Test
    void theGeneratorsOwnLimitWinsOverTheTargetsAndTheTargetsOverThePlatforms() {
        ConstructedRun both = new ConstructedRun();
        both.engineCpuPercent = 99;
        both.errors.put(ErrorClass.RESET, 100L);
        assertThat(both.judge().verdict()).isEqualTo(Verdict.GENERATOR_LIMITED);

        ConstructedRun targetAndNoise = new ConstructedRun();
        targetAndNoise.hiccupP99Ms = 5;
        targetAndNoise.lagP99Ms = 4;
        targetAndNoise.loopLateP99Ms = 4;
        targetAndNoise.errors.put(ErrorClass.RESET, 100L);
        assertThat(targetAndNoise.judge().verdict()).isEqualTo(Verdict.TARGET_OVERLOADED);
    }

    /** The server study's collapse: no wait declared, a median service of 1 s, the generator's cap reached. */
    private static ConstructedRun collapse() {
        ConstructedRun collapse = new ConstructedRun();
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
