package dev.gauntlet.runner.results;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Json;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ComparisonTest {
    private static JsonNode rows(String json) throws Exception {
        return Json.json().readTree(json.replace('\'', '"'));
    }

    @Test
    void meansOverForksAreComparedAndWithOneForkASideTheChangeAloneIsJudged() throws Exception {
        JsonNode base = rows("""
                [{'target':'a','scenario':'s','repetition':1,'verdict':'ok','p99Ms':10,'errors':0,'achievedRatePerSec':100},
                 {'target':'a','scenario':'s','repetition':2,'verdict':'platform-noisy','p99Ms':14,'errors':0,'achievedRatePerSec':100},
                 {'target':'a','scenario':'s','repetition':3,'verdict':'target-overloaded','p99Ms':50,'errors':0,'achievedRatePerSec':100}]""");
        JsonNode now = rows("""
                [{'target':'a','scenario':'s','repetition':1,'verdict':'ok','p99Ms':14,'errors':0,'achievedRatePerSec':99}]""");
        Comparison c = Comparison.of(base, now, FailOn.parse("p99=+10%,rate=-5%"));
        Comparison.Delta p99 = delta(c, "a", "p99");
        assertThat(p99.base()).as("the mean of 10 and 14; the overloaded run is not compared").isEqualTo(12.0);
        assertThat(p99.percent()).isCloseTo(16.67, org.assertj.core.data.Offset.offset(0.01));
        assertThat(p99.worse()).isTrue();
        assertThat(p99.notable()).isTrue();
        assertThat(p99.noise()).as("one fork a side").isEqualTo("unknown");
        assertThat(c.failures()).containsExactly("a · s: p99 12 → 14 ms (+16.7 %, no interval: one fork a side), limit p99=+10%");
    }

    /**
     * BASE's forks gave p99 10, 20 and 30 ms: NEW's 24–26 ms is +25 %, beyond the threshold, yet its interval spans 0:
     * within the noise, listed and not failed. NEW's rate of about 50 against BASE's 98–102 is beyond the noise and
     * beyond the threshold: failed. One fork a side has no interval.
     */
    @Test
    void aThresholdFailsOnlyWhenItsChangeIsBeyondTheNoiseOfTheForks() throws Exception {
        JsonNode base = rows("""
                [{'target':'a','scenario':'s','fork':1,'repetition':1,'verdict':'ok','p99Ms':10,'errors':0,'achievedRatePerSec':98},
                 {'target':'a','scenario':'s','fork':2,'repetition':1,'verdict':'ok','p99Ms':20,'errors':0,'achievedRatePerSec':100},
                 {'target':'a','scenario':'s','fork':3,'repetition':1,'verdict':'ok','p99Ms':30,'errors':0,'achievedRatePerSec':102},
                 {'target':'b','scenario':'s','repetition':1,'verdict':'ok','p99Ms':20,'errors':0,'achievedRatePerSec':100}]""");
        JsonNode now = rows("""
                [{'target':'a','scenario':'s','fork':1,'repetition':1,'verdict':'ok','p99Ms':25,'errors':0,'achievedRatePerSec':50},
                 {'target':'a','scenario':'s','fork':2,'repetition':1,'verdict':'ok','p99Ms':24,'errors':0,'achievedRatePerSec':51},
                 {'target':'a','scenario':'s','fork':3,'repetition':1,'verdict':'ok','p99Ms':26,'errors':0,'achievedRatePerSec':49},
                 {'target':'b','scenario':'s','repetition':1,'verdict':'ok','p99Ms':20.5,'errors':0,'achievedRatePerSec':100}]""");

        Comparison c = Comparison.of(base, now, FailOn.parse("p99=+10%,rate=-5%"), 0.95);

        Comparison.Delta p99 = delta(c, "a", "p99");
        assertThat(p99.notable()).isTrue();
        assertThat(p99.baseRange()).isEqualTo(new Comparison.Range(10, 30, 3));
        assertThat(p99.noise()).as("25 against 10, 20, 30").isEqualTo("within");
        assertThat(delta(c, "a", "rate").noise()).as("50 against 98-102").isEqualTo("beyond");
        assertThat(delta(c, "b", "p99").noise()).as("one run a side: no interval").isEqualTo("unknown");
        assertThat(c.withinNoise()).singleElement().asString().startsWith("a · s: p99 20 → 25 ms (+25.0 %, 95 % CI -");
        assertThat(c.failures()).singleElement().asString().startsWith("a · s: rate 100 → 50/s (-50.0 %, 95 % CI -54.2–-45.8 %)");
    }

    /**
     * A max-concurrency scenario answers nothing while measured: it is compared by what the target held (a fall of
     * 10,000 to 6,000 breaks held=-10%), not by times and a rate of zero; an open loop is not judged by what it held.
     */
    @Test
    void maxConcurrencyIsComparedByWhatTheTargetHeldAndNothingElseIs() throws Exception {
        JsonNode base = rows("""
                [{'target':'a','scenario':'c','repetition':1,'load':'max-concurrency 19000','verdict':'ok','requests':0,
                  'p99Ms':0,'errors':0,'achievedRatePerSec':0,'serverMaxInFlight':10000},
                 {'target':'a','scenario':'o','repetition':1,'load':'open 500/s exp','verdict':'ok','requests':3000,
                  'p99Ms':100,'errors':0,'achievedRatePerSec':500,'serverMaxInFlight':50}]""");
        JsonNode now = rows("""
                [{'target':'a','scenario':'c','repetition':1,'load':'max-concurrency 19000','verdict':'ok','requests':0,
                  'p99Ms':0,'errors':0,'achievedRatePerSec':0,'serverMaxInFlight':6000},
                 {'target':'a','scenario':'o','repetition':1,'load':'open 500/s exp','verdict':'ok','requests':3000,
                  'p99Ms':100,'errors':0,'achievedRatePerSec':500,'serverMaxInFlight':5}]""");

        Comparison c = Comparison.of(base, now, FailOn.parse("held=-10%,p99=+10%"));

        assertThat(c.deltas().stream().filter(d -> d.scenario().equals("c")).map(Comparison.Delta::metric))
                .containsExactlyInAnyOrder("held", "errors");
        assertThat(c.deltas().stream().filter(d -> d.scenario().equals("o")).map(Comparison.Delta::metric))
                .doesNotContain("held").contains("p99", "rate");
        assertThat(c.failures()).containsExactly("a · c: held 10000 → 6000 held (-40.0 %, no interval: one fork a side), limit held=-10%");
    }

    private static Comparison.Delta delta(Comparison c, String target, String metric) {
        return c.deltas().stream().filter(d -> d.target().equals(target) && d.metric().equals(metric)).findFirst().orElseThrow();
    }

    @Test
    void rowsWhoseVerdictIsNotTheTargetsAreListedNotCompared() throws Exception {
        JsonNode base = rows("""
                [{'target':'a','scenario':'s','repetition':1,'verdict':'generator-limited','note':'loop late','p99Ms':10},
                 {'target':'b','scenario':'s','repetition':1,'verdict':'ok','p99Ms':10}]""");
        JsonNode now = rows("""
                [{'target':'a','scenario':'s','repetition':1,'verdict':'ok','p99Ms':100},
                 {'target':'b','scenario':'s','repetition':1,'verdict':'-','note':'target died','p99Ms':'NaN'}]""");
        Comparison c = Comparison.of(base, now, FailOn.parse("p99=+10%"));
        assertThat(c.deltas()).isEmpty();
        assertThat(c.failures()).isEmpty();
        assertThat(c.notCompared()).extracting(Comparison.NotCompared::toString).containsExactly("a · s #1 in BASE: generator-limited (loop late)",
                "b · s #1 in NEW: no figures (target died)");
        assertThat(c.targetScenarios()).as("each still listed, with why").extracting(Comparison.TargetScenario::toString).containsExactly(
                "a · s: no run of BASE whose figures compare (BASE 1 generator-limited; NEW 1 ok)",
                "b · s: no run of NEW whose figures compare (BASE 1 ok; NEW 1 failed (target died))");
    }

    @Test
    void clientLimitedRowsAreComparedAsTheClientStudysOwnFigures() throws Exception {
        JsonNode base = rows("""
                [{'target':'t','scenario':'held.okhttp-virtual','repetition':1,'verdict':'client-limited','client':'okhttp-virtual',
                  'note':'the generator process used 97 % of its CPUs','p99Ms':40,'errors':0,'achievedRatePerSec':1000}]""");
        JsonNode now = rows("""
                [{'target':'t','scenario':'held.okhttp-virtual','repetition':1,'verdict':'client-limited','client':'okhttp-virtual',
                  'p99Ms':50,'errors':0,'achievedRatePerSec':900},
                 {'target':'t','scenario':'held.okhttp-virtual','repetition':2,'verdict':'ok','client':'okhttp-virtual',
                  'p99Ms':60,'errors':0,'achievedRatePerSec':900}]""");

        Comparison c = Comparison.of(base, now, FailOn.parse("p99=+10%"));

        assertThat(c.notCompared()).isEmpty();
        Comparison.Delta p99 = c.deltas().stream().filter(d -> d.metric().equals("p99")).findFirst().orElseThrow();
        assertThat(p99.base()).isEqualTo(40.0);
        assertThat(p99.now()).as("median of 50 and 60").isEqualTo(55.0);
        assertThat(c.failures()).containsExactly("t · held.okhttp-virtual: p99 40 → 55 ms (+37.5 %, no interval: one fork a side), limit p99=+10%");
    }

    @Test
    void withAGateEveryRowOfBaseIsMatchedInNewAndAFailedMissingOrNoLongerOkRowFailsIt() throws Exception {
        JsonNode base = rows("""
                [{'target':'a','scenario':'s','repetition':1,'verdict':'ok','p99Ms':10,'errors':0,'achievedRatePerSec':100},
                 {'target':'a','scenario':'s','repetition':2,'verdict':'ok','p99Ms':10,'errors':0,'achievedRatePerSec':100},
                 {'target':'b','scenario':'s','repetition':1,'verdict':'ok','p99Ms':10,'errors':0,'achievedRatePerSec':100},
                 {'target':'c','scenario':'s','repetition':1,'verdict':'ok','p99Ms':10,'errors':0,'achievedRatePerSec':100},
                 {'target':'e','scenario':'s','repetition':1,'verdict':'platform-noisy','p99Ms':10,'errors':0,'achievedRatePerSec':100}]""");
        JsonNode now = rows("""
                [{'target':'a','scenario':'s','repetition':1,'verdict':'ok','p99Ms':10,'errors':0,'achievedRatePerSec':100},
                 {'target':'b','scenario':'s','repetition':1,'verdict':'-','note':'target died (exit 137)','p99Ms':900,'errors':5000},
                 {'target':'c','scenario':'s','repetition':1,'verdict':'platform-noisy','note':'hiccups','p99Ms':10,'errors':0,'achievedRatePerSec':100},
                 {'target':'e','scenario':'s','repetition':1,'verdict':'target-overloaded','p99Ms':10,'errors':0,'achievedRatePerSec':100},
                 {'target':'d','scenario':'s','repetition':1,'verdict':'generator-limited','p99Ms':10,'errors':0,'achievedRatePerSec':100},
                 {'target':'f','scenario':'s','repetition':1,'verdict':'-','note':'did not start'}]""");

        Comparison strict = Comparison.of(base, now, FailOn.parse("errors=+0"));
        Comparison relaxed = Comparison.of(base, now, FailOn.parse("errors=+0").allowing(true, List.of("platform-noisy")));
        Comparison ungated = Comparison.of(base, now, FailOn.none());

        assertThat(strict.failures()).as("the figures compared hold").isEmpty();
        assertThat(strict.rowChanges()).extracting(RowChange::toString).containsExactly(
                "a · s #2: missing from NEW", "c · s #1: verdict ok → platform-noisy (hiccups)", "b · s #1: failed in NEW: target died (exit 137)",
                "f · s #1: failed in NEW: did not start");
        assertThat(strict.passes()).isFalse();
        assertThat(relaxed.rowChanges()).filteredOn(RowChange::failsGate).extracting(RowChange::row)
                .as("a run that failed, one new in NEW too").containsExactly("b · s #1", "f · s #1");
        assertThat(relaxed.rowChanges()).extracting(RowChange::allowedBy)
                .containsExactly("--allow-missing", "--allow-verdict platform-noisy", "", "");
        assertThat(ungated.rowChanges()).as("compare without --fail-on has no gate").isEmpty();
        assertThat(ungated.passes()).isTrue();
    }

    @Test
    void aGateWithoutRowChangesPassesOnItsThresholds() throws Exception {
        JsonNode side = rows("""
                [{'target':'a','scenario':'s','repetition':1,'verdict':'ok','p99Ms':10,'errors':0,'achievedRatePerSec':100}]""");
        Comparison c = Comparison.of(side, side, FailOn.parse("p99=+0%"));
        assertThat(c.rowChanges()).isEmpty();
        assertThat(c.passes()).isTrue();
    }
}
