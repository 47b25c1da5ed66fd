package dev.gauntlet.loadgen;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.Verdict;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An open loop far beyond what the machine can send, over a pool of two connections, in a generator
 * process with a 64 MB heap: unbounded, its waiting requests (16 bytes each, 5 million a second) would
 * fill that heap within a second. Bounded, the run ends at its 3 s hard cap with its files written, the
 * requests it could not queue counted, and the verdict generator-limited.
 */
@Tag("alone") // how much of the rate it schedules, and so drops, depends on the CPU it gets
@Timeout(60)
class PendingQueueIT {

    @Test
    void aRateBeyondWhatTheProcessCanSendDropsWhatItCannotQueueAndSaysSo(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            LoadSpec spec = LoadSpec.of(server.uri("/hello"),
                            LoadModel.OpenLoop.fixedPool(5_000_000, LoadModel.InterArrival.CONSTANT, 2)).toBuilder()
                    .warmupMs(0).durationMs(2_000).hardCapMs(3_000).build();
            // --start-at: straight into the run, without the generator's own JIT warm-up.
            MainProcess.Exited run = generate(spec, dir, "-Xmx64m", "--start-at", Long.toString(System.currentTimeMillis() + 500));
            String stderr = run.stderr();

            assertThat(run.exitCode()).as(stderr).isZero();
            assertThat(stderr).doesNotContain("OutOfMemoryError");
            RunSummary summary = Json.json().readValue(new RunDirectory(dir).summary().toFile(), RunSummary.class);
            assertThat(summary.droppedQueueFull()).as("%s", summary).isPositive();
            assertThat(summary.sent() + summary.droppedQueueFull()).isLessThanOrEqualTo(summary.scheduled());
            assertThat(summary.verdict()).as("%s", summary.evidence()).isEqualTo(Verdict.GENERATOR_LIMITED);
            assertThat(summary.evidence().getFirst()).startsWith(summary.droppedQueueFull()
                    + " requests of the measured phase were dropped, never sent");
            assertThat(summary.generatorCost().heapUsedMaxBytes()).isLessThan(64L << 20);
        }
    }

    @Test
    void aRateNoProcessCanScheduleIsRefusedBeforeAnythingStarts(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.OpenLoop(1e9, LoadModel.InterArrival.EXPONENTIAL));
            long startNs = System.nanoTime();
            MainProcess.Exited run = generate(spec, dir, "-Xmx256m");
            String stderr = run.stderr();

            assertThat(run.exitCode()).isEqualTo(2);
            assertThat(stderr).hasLineCount(1).startsWith("gauntlet generator: a rate of 1000M requests/s over 1 process "
                    + "is more than one generator process can schedule, 10M/s at most").contains("--processes 100");
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNs)).isLessThan(15);
            assertThat(server.requests()).as("nothing was sent").isZero();
        }
    }

    /** A generator process on {@code spec}, with {@code heap} and {@code extraArguments}, to its end. */
    private static MainProcess.Exited generate(LoadSpec spec, Path dir, String heap, String... extraArguments)
            throws Exception {
        Path specFile = dir.resolve("spec.json");
        Json.json().writeValue(specFile.toFile(), spec);
        List<String> args = new ArrayList<>(List.of("--spec", specFile.toString(), "--output", dir.toString()));
        args.addAll(List.of(extraArguments));
        return MainProcess.run(List.of(heap), GeneratorMain.class, args.toArray(String[]::new));
    }
}
