package dev.gauntlet.runner.metrics;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.JvmMetrics;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunJvmCosts;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.runner.Main;
import dev.gauntlet.runner.results.ResultRow;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Both sides' JFR recordings, from real runs of real targets: GC shows where a target allocates
 * into a tiny young generation and not where it idles; platform threads show a thread per request
 * where the style has one and not where virtual threads carry the requests.
 */
@Tag("alone") // asserts GC pauses and allocation rates
class JvmMetricsIT {

    @TempDir
    Path work;

    @Test
    void aTargetAllocatingIntoATinyHeapShowsItsPausesAndAQuietOneFew() throws Exception {
        RunJvmCosts busy = runOne("busy", "jetty-handler-sync", "[-Xmx48m, -Xmn1m, -XX:+UseSerialGC]",
                "{ type: closed, connections: 4 }", 0, 3000).jvm();
        RunJvmCosts quiet = runOne("quiet", "jetty-handler-sync", "[-Xms512m, -Xmx512m, -Xmn256m, -XX:+UseSerialGC]",
                "{ type: open, ratePerSec: 20, interArrival: CONSTANT }", 0, 3000).jvm();

        JvmMetrics busyTarget = busy.target();
        assertThat(busyTarget.gc()).isEqualTo("DefNew/SerialOld");
        assertThat(busyTarget.jvmArguments()).contains("-Xmn1m");
        assertThat(busyTarget.gcPauses().count()).isGreaterThanOrEqualTo(5);
        assertThat(busyTarget.gcPauses().maxMs()).isPositive();
        assertThat(busyTarget.gcPauses().timeline()).hasSizeGreaterThanOrEqualTo(busyTarget.gcPauses().count());
        assertThat(busyTarget.heap().usedMaxBytes()).isPositive().isLessThan(48L << 20);
        assertThat(busyTarget.cpu().meanPercent()).isPositive();
        assertThat(busyTarget.cpu().allocationMBPerSec()).isPositive();
        assertThat(busyTarget.memory().residentMaxBytes()).isPositive();
        assertThat(busy.generator()).isNotNull();
        assertThat(busy.alignment().intervals()).isNotEmpty();
        assertThat(busy.notes()).isEmpty();

        assertThat(quiet.target().gcPauses().count()).isLessThanOrEqualTo(1);
        assertThat(quiet.target().cpu().allocationMBPerSec()).isLessThan(busyTarget.cpu().allocationMBPerSec());
    }

    @Test
    void twoThousandHeldRequestsTakeAPlatformThreadEachOnlyWhereTheStyleGivesThemOne() throws Exception {
        String held = "{ type: max-concurrency, requests: 2000 }";
        // A platform thread per request starts slowly on one CPU: the held phase leaves them time to.
        Run sync = runOne("sync", "jetty-servlet-sync", "[-Xmx512m]", held, 30_000, 8000);
        Run virtual = runOne("virtual", "jetty-servlet-virtual", "[-Xmx512m]", held, 30_000, 3000);

        assertThat(sync.summary().concurrency().held()).isEqualTo(2000);
        assertThat(sync.jvm().target().threads().platformPeak()).isGreaterThanOrEqualTo(2000);
        assertThat(virtual.summary().concurrency().held()).isEqualTo(2000);
        assertThat(virtual.jvm().target().threads().platformPeak()).isLessThan(200);
        assertThat(virtual.jvm().target().threads().carrierThreadsMax()).isPositive();
    }

    /** A run as read back: the generator's summary.json and the runner's jvm.json. */
    private record Run(RunSummary summary, RunJvmCosts jvm) {
    }

    /**
     * One suite of one run: its summary.json as the generator wrote it, with both recordings and jvm.json beside it. The
     * generator's JIT warm-up is left out: it runs against a sink in the generator's own JVM, never the target, whose
     * figures are what is checked here.
     */
    private Run runOne(String name, String target, String targetJvm, String load, long waitMs, long durationMs)
            throws IOException {
        Path results = work.resolve(name);
        Path suite = Files.writeString(work.resolve(name + ".yaml"), """
                name: it-%s
                targets: [%s]
                jvm: { target: %s, generator: [-Xmx256m, -Dgauntlet.jitWarmup=false] }
                scenarios:
                  - name: run
                    load: %s
                    waitMs: %d
                    warmupMs: 1000
                    durationMs: %d
                """.formatted(name, target, targetJvm, load, waitMs, durationMs));
        int exit = Main.execute("run", "--suite", suite.toString(), "--results", results.toString(), "--no-calibration");
        assertThat(exit).isZero();
        Path runDir;
        try (Stream<Path> dirs = Files.list(results)) {
            runDir = dirs.toList().getFirst().resolve("runs").resolve(target).resolve("run").resolve("1");
        }
        assertThat(new RunDirectory(runDir).targetJfr()).isNotEmptyFile();
        assertThat(new RunDirectory(runDir).generatorJfr()).isNotEmptyFile();
        RunDirectory run = new RunDirectory(runDir);
        assertThat(Json.json().readTree(run.summary().toFile()).has("jvm")).as("summary.json left as the generator wrote it").isFalse();
        RunSummary summary = Json.json().readValue(run.summary().toFile(), RunSummary.class);
        RunJvmCosts jvm = Json.json().readValue(run.jvm().toFile(), RunJvmCosts.class);
        assertThat(jvm.target()).as("the target's figures; notes: %s", jvm.notes()).isNotNull();
        List<ResultRow> rows = List.of(Json.json().readValue(Files.list(results).toList().getFirst()
                .resolve("results.json").toFile(), ResultRow[].class));
        assertThat(rows.getFirst().targetJvm().gcPauses().timeline()).isEmpty();
        assertThat(rows.getFirst().targetJvm()).isEqualTo(jvm.target().withoutTimeline());
        return new Run(summary, jvm);
    }
}
