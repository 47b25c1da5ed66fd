package dev.gauntlet.runner.execution;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.loadgen.run.Generator;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.isolation.RolePlacement;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.net.URI;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The concurrency case measures the style, not a setting: targets whose catalogue entry names no
 * {@code concurrencyCap} other than the heap (given enough here) start nearly every one of 12,000
 * held requests (above the old 10,000 worker and 8,192 connection defaults), and their admin
 * endpoint still answers while they hold them. One representative per kind of server: Jetty's and Tomcat's virtual threads, an Undertow
 * async style and Netty's event loop.
 */
class ConcurrencyCapIT {
    private static final int HELD = 12_000;
    /** 95 %: the generator's connects on a shared 2-core machine may still be in the backlog at the end. */
    private static final long STARTED_AT_LEAST = HELD * 95L / 100;
    /**
     * Long enough to open every request on this machine and let the server read them: about 5 s when quiet; on a slow
     * host beside the other ITs, tomcat-servlet-virtual had 10,361 and 11,214 of them after 10 s (2026-12-06).
     */
    private static final long MEASURED_MS = 20_000;
    /**
     * A connect waits for the server to accept, however slowly a busy machine lets it: the check is
     * how many requests it holds, not how fast it accepts (a SYN dropped from a full accept queue is
     * sent again after 1 s, 3 s, 7 s, ...).
     */
    private static final long CONNECT_TIMEOUT_MS = 30_000;
    /**
     * Tomcat keeps about 100 KB per held request (its connection and request buffers), 1.2 GB for
     * 12,000: the heap must not be the cap this test looks for.
     */
    private static final List<String> TARGET_JVM = List.of("-Xmx2g");

    @TempDir
    Path logs;

    @ParameterizedTest
    @ValueSource(strings = {"jetty-servlet-virtual", "tomcat-servlet-virtual", "undertow-handler-async-fjp", "netty-event-loop"})
    void startsNearlyEveryHeldRequestAndStillAnswersItsStats(String name) throws Exception {
        TargetCatalogue catalogue = TargetCatalogue.builtIn();
        String cap = catalogue.target(name).orElseThrow().concurrencyCap();
        assertThat(cap == null || cap.startsWith("heap")).as("%s's concurrencyCap %s: none, or the heap given here", name, cap)
                .isTrue();
        TargetLauncher launcher = new TargetLauncher(GauntletHome.fromSystemProperty(), catalogue,
                RolePlacement.unplaced("target"), TARGET_JVM);
        try (TargetProcess target = launcher.start(name, List.of(), logs.resolve(name + ".log"))) {
            LoadSpec spec = LoadSpec.of(target.endpoint().uri("/hello?wait=120000"), new LoadModel.MaxConcurrency(HELD)).toBuilder()
                    .warmupMs(0).durationMs(MEASURED_MS).connectTimeoutMs(CONNECT_TIMEOUT_MS).responseTimeoutMs(180_000)
                    .adminUrl(target.endpoint().adminUri("")).build();

            RunSummary summary = Generator.run(spec, null);

            RunSummary.ServerStats atEnd = summary.concurrency().serverAtEnd();
            assertThat(atEnd).as("%s's /stats at the end of the measured phase", name).isNotNull();
            assertThat(atEnd.maxInFlight()).as("%s's maxInFlight of %d held requests", name, HELD)
                    .isGreaterThanOrEqualTo(STARTED_AT_LEAST);
            assertThat(target.isAlive()).as("%s alive after holding them", name).isTrue();
            assertThat(target.endpoint().stats()).as("%s's /stats afterwards", name).contains("\"maxInFlight\"");
        }
    }
}
