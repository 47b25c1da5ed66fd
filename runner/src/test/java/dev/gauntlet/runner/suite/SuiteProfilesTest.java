package dev.gauntlet.runner.suite;

import dev.gauntlet.runner.base.UserError;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Profiles laid over a suite, and a target's own JVM options. */
class SuiteProfilesTest {
    private static final String SUITE = """
            name: mine
            description: Two cases.
            targets: [dummy, netty-event-loop]
            jvm: { target: [-Xmx1g, -XX:+UseG1GC] }
            scenarios:
              - { name: slow, load: { type: open, ratePerSec: 100 }, waitMs: 1000, durationMs: 6000 }
              - { name: fast, load: { type: closed, connections: 2 }, durationMs: 3000 }
            profiles:
              long:
                description: slow measured a minute
                scenarios: [ { name: slow, durationMs: 60000 } ]
              parallel:
                jvm: { perTarget: { dummy: [-Xmx1g, -XX:+UseParallelGC] } }
              typo:
                scenarios: [ { name: slwo, durationMs: 1 } ]
            """;

    private static Suite load(String... profiles) {
        return SuiteLoader.parse(SUITE.getBytes(StandardCharsets.UTF_8), "mine.yaml", List.of(profiles));
    }

    @Test
    void aSuiteReadAloneIgnoresItsProfiles() {
        Suite suite = load();

        assertThat(suite.scenarios().getFirst().template().durationMs()).isEqualTo(6000);
        assertThat(suite.description()).isEqualTo("Two cases.");
        assertThat(suite.jvm().perTarget()).isEmpty();
    }

    @Test
    void profilesChangeOnlyWhatTheyNameAndTheDescriptionSaysWhichRan() {
        Suite suite = load("long", "parallel");

        assertThat(suite.scenarios().get(0).template().durationMs()).isEqualTo(60_000);
        assertThat(suite.scenarios().get(0).waitMs()).as("left as the suite says").isEqualTo(1000);
        assertThat(suite.scenarios().get(1).template().durationMs()).isEqualTo(3000);
        assertThat(suite.jvm().target()).containsExactly("-Xmx1g", "-XX:+UseG1GC");
        assertThat(suite.jvm().forTarget("dummy")).containsExactly("-Xmx1g", "-XX:+UseParallelGC");
        assertThat(suite.jvm().forTarget("dummy@h2c")).as("each protocol's JVM of it").contains("-XX:+UseParallelGC");
        assertThat(suite.jvm().forTarget("netty-event-loop")).containsExactly("-Xmx1g", "-XX:+UseG1GC");
        assertThat(suite.description()).isEqualTo("Two cases. Profile long: slow measured a minute. Profile parallel.");
    }

    @Test
    void anUnknownProfileOrAScenarioTheSuiteLacksIsAOneLineError() {
        assertThatThrownBy(() -> load("ful"))
                .isInstanceOf(UserError.class)
                .hasMessage("mine.yaml has no profile 'ful'; it offers: long, parallel, typo");
        assertThatThrownBy(() -> load("typo"))
                .isInstanceOf(UserError.class)
                .hasMessageContaining("mine.yaml profile typo: scenario 'slwo' is not one of the suite's");
    }

    @Test
    void aTargetsOwnOptionsMustNameOneOfItsTargetsAndFollowItsTargetsCut() {
        assertThatThrownBy(() -> SuiteLoader.parse("""
                name: mine
                targets: [dummy]
                jvm: { perTarget: { dumy: [-Xmx1g] } }
                scenarios: [ { name: s, load: { type: closed, connections: 1 }, durationMs: 1000 } ]
                """.getBytes(StandardCharsets.UTF_8), "mine.yaml"))
                .isInstanceOf(UserError.class)
                .hasMessageContaining("jvm.perTarget names dumy, which is not among the suite's targets [dummy]");

        Suite cut = load("parallel").withTargets(List.of("netty-event-loop"));
        assertThat(cut.jvm().perTarget()).isEmpty();
    }

    @Test
    void theServerSuiteOffersTheOriginalsWindowsAndJvm() {
        assertThat(SuiteLoader.profilesOf("server")).containsKeys("full", "parallel-gc");

        Suite full = SuiteLoader.load("server", List.of("full", "parallel-gc"));

        Suite.Scenario slow = full.scenarios().stream().filter(s -> s.name().equals("slow")).findFirst().orElseThrow();
        assertThat(slow.template().durationMs()).isEqualTo(100_000);
        assertThat(full.jvm().target()).contains("-XX:+UseParallelGC").doesNotContain("-XX:+UseG1GC");
        assertThat(SuiteLoader.load("server").jvm().target()).contains("-XX:+UseG1GC");
    }
}
