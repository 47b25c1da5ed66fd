package dev.gauntlet.loadgen.model;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.loadgen.measure.LatencyRecorder;
import dev.gauntlet.loadgen.measure.PhaseClock;
import dev.gauntlet.loadgen.measure.RequestCounters;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The one judging rule both transports use: status first, then the body, a missing body an empty one. */
class RequestJudgeTest {
    private static final long RUN_START_NS = 0;
    private static final long WARMUP_NS = TimeUnit.MILLISECONDS.toNanos(LoadSpec.DEFAULT_WARMUP_MS);
    private static final long MEASURED_NS = WARMUP_NS + 1_000;
    private static final long MEASURE_END_NS = WARMUP_NS + TimeUnit.MILLISECONDS.toNanos(LoadSpec.DEFAULT_DURATION_MS);

    private final LatencyRecorder recorder = new LatencyRecorder(1);

    @Test
    void aMissingBodyIsAnEmptyOneAsTheLeanParserReadsIt() {
        RequestJudge judge = judge("");
        assertThat(judge.bodyMatches(null)).isTrue();
        assertThat(judge.bodyMatches(new byte[0])).isTrue();
        assertThat(judge.bodyMatches("x".getBytes(StandardCharsets.UTF_8))).isFalse();
        assertThat(judge("hello").bodyMatches(null)).isFalse();
    }

    @Test
    void noExpectedBodyAcceptsAnyBodyOrNone() {
        RequestJudge judge = judge(null);
        assertThat(judge.expectedBody()).isNull();
        assertThat(judge.bodyMatches(null)).isTrue();
        assertThat(judge.bodyMatches("anything".getBytes(StandardCharsets.UTF_8))).isTrue();
    }

    @Test
    void aMeasuredAnswerIsJudgedByStatusBeforeBody() {
        RequestCounters counters = counters();
        RequestJudge judge = judge("hello", counters);
        judge.answered(MEASURED_NS, MEASURED_NS, MEASURED_NS + 10, 500, false);
        judge.answered(MEASURED_NS, MEASURED_NS, MEASURED_NS + 10, 200, false);
        judge.answered(MEASURED_NS, MEASURED_NS, MEASURED_NS + 10, 200, judge.bodyMatches("hello".getBytes(StandardCharsets.UTF_8)));
        assertThat(counters.errors()).containsEntry(ErrorClass.BAD_STATUS, 1L).containsEntry(ErrorClass.BAD_BODY, 1L);
        assertThat(counters.completedCount()).isEqualTo(1);
        recorder.sampleInterval(null);
        assertThat(recorder.responseTotal().getTotalCount()).isEqualTo(1);
    }

    @Test
    void aWarmupAnswerIsCountedNowhereAndRecordedForTheSteadyJudgeOnlyWhenCorrect() {
        RequestCounters counters = counters();
        RequestJudge judge = judge("hello", counters);
        judge.answered(RUN_START_NS, RUN_START_NS, 10, 200, true);
        judge.answered(RUN_START_NS, RUN_START_NS, 10, 200, false);
        judge.failed(RUN_START_NS, ErrorClass.RESET, 10);
        assertThat(counters.completedCount()).isZero();
        assertThat(counters.errorCount()).isZero();
        assertThat(recorder.sampleWarmup().response().getTotalCount()).isEqualTo(1);
    }

    @Test
    void goodputCountsEveryCorrectAnswerWithinTheMeasuredPhaseWhateverItsIntendedStart() {
        RequestCounters counters = counters();
        RequestJudge judge = judge("hello", counters);
        // The warm-up's backlog answered in the measured phase: the target's work, though no measured request's.
        judge.answered(RUN_START_NS, RUN_START_NS, MEASURED_NS, 200, true);
        judge.answered(RUN_START_NS, RUN_START_NS, MEASURE_END_NS, 200, true);
        judge.answered(MEASURED_NS, MEASURED_NS, MEASURED_NS + 10, 200, true);
        // Not answered within the phase, or not correctly: no goodput.
        judge.answered(RUN_START_NS, RUN_START_NS, WARMUP_NS - 1, 200, true);
        judge.answered(MEASURED_NS, MEASURED_NS, MEASURE_END_NS + 1, 200, true);
        judge.answered(RUN_START_NS, RUN_START_NS, MEASURED_NS, 503, true);
        judge.answered(MEASURED_NS, MEASURED_NS, MEASURED_NS + 10, 200, false);
        judge.failed(MEASURED_NS, ErrorClass.RESET, MEASURED_NS + 10);

        assertThat(counters.answeredInPhaseCount()).isEqualTo(3);
        assertThat(counters.completedInPhaseCount()).as("the measured requests' own count").isEqualTo(1);
    }

    private RequestJudge judge(String expectedBody) {
        return judge(expectedBody, counters());
    }

    private RequestJudge judge(String expectedBody, RequestCounters counters) {
        LoadSpec spec = spec().toBuilder().expectedBody(expectedBody).build();
        PhaseClock clock = new PhaseClock(spec, RUN_START_NS);
        return new RequestJudge(spec, new Phases(spec, RUN_START_NS, clock, null), recorder.writer(0), counters);
    }

    private static RequestCounters counters() {
        return new RequestCounters(new PhaseClock(spec(), RUN_START_NS));
    }

    private static LoadSpec spec() {
        return LoadSpec.of(URI.create("http://127.0.0.1:1/hello"), new LoadModel.ClosedLoop(1));
    }
}
