package dev.gauntlet.api;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class TargetCatalogueTest {

    @Test
    void everyTargetNamesAKnownTechnologyWithAModuleAndAVersion() {
        TargetCatalogue catalogue = TargetCatalogue.builtIn();

        assertThat(catalogue.targets()).isNotEmpty();
        catalogue.targets().forEach(t -> {
            TargetCatalogue.Technology tech = catalogue.technology(t.technology());
            assertThat(tech.module()).as(t.name()).startsWith("targets/");
            assertThat(tech.version()).as(t.name()).doesNotContain("${").isNotBlank();
            assertThat(tech.jvmOptions()).as("%s: one option per element", t.name()).allMatch(o -> o.startsWith("-"));
            assertThat(t.serverClass()).as(t.name()).startsWith("dev.gauntlet.targets." + catalogue.sourcesOf(t.technology()) + ".");
            assertThat(t.style()).as(t.name()).isNotNull();
            assertThat(t.description()).as(t.name()).isNotBlank();
        });
    }

    /**
     * A target's JVM says which target it is by its {@code --server} and its module's classpath, so no two entries of one
     * technology may name the same server (the runner finds a leftover target JVM's entry by them); an entry at another
     * version names the server of the entry it is at that version.
     */
    @Test
    void everyTargetNamesAServerOfItsOwnWithinItsTechnology() {
        TargetCatalogue catalogue = TargetCatalogue.builtIn();
        assertThat(catalogue.targets()).extracting(t -> t.technology() + " " + t.serverClass()).doesNotHaveDuplicates();
        catalogue.targets().forEach(t -> assertThat(catalogue.sameTargetAs(t).isPresent()).as(t.name())
                .isEqualTo(catalogue.technology(t.technology()).versionOf() != null));
        TargetCatalogue.TargetEntry earlier = catalogue.target("jetty-earlier-handler-sync").orElseThrow();
        assertThat(catalogue.sameTargetAs(earlier).map(TargetCatalogue.TargetEntry::name)).contains("jetty-handler-sync");
        assertThat(catalogue.technology(earlier.technology()).version())
                .as("another version than its base's").isNotEqualTo(catalogue.technology("jetty").version());
    }

    /**
     * The concurrency case measures the style: a thread-per-request style is bounded by its platform
     * pool, set from --workers, and says so; the virtual, async-fjp, async-queue, async-timer,
     * event-loop and actor styles hold no platform thread per waiting request, so no pool setting may
     * bound them.
     */
    @Test
    void onlyTheStylesThatHoldAPlatformThreadAreCappedByAPool() {
        TargetCatalogue.builtIn().targets().forEach(t -> {
            switch (t.style()) {
                case SYNC, ASYNC_DISPATCH -> assertThat(t.concurrencyCap()).as(t.name()).contains("--workers");
                case VIRTUAL, ASYNC_FJP, ASYNC_QUEUE, ASYNC_TIMER, EVENT_LOOP, ACTOR -> {
                    if (t.concurrencyCap() != null) {
                        assertThat(t.concurrencyCap()).as(t.name()).isNotBlank()
                                .doesNotContain("--workers").doesNotContain("--async-threads");
                    }
                }
            }
        });
    }

    @Test
    void theFoundationTargetsAreListed() {
        TargetCatalogue catalogue = TargetCatalogue.builtIn();

        assertThat(catalogue.target("dummy")).isPresent();
        assertThat(catalogue.target("jetty-handler-sync").orElseThrow().style()).isEqualTo(HandlerStyle.SYNC);
        assertThat(catalogue.target("jetty-handler-virtual").orElseThrow().style()).isEqualTo(HandlerStyle.VIRTUAL);
        assertThat(catalogue.target("netty-event-loop").orElseThrow().style()).isEqualTo(HandlerStyle.EVENT_LOOP);
        assertThat(catalogue.target("no-such-target")).isEmpty();
    }
}
