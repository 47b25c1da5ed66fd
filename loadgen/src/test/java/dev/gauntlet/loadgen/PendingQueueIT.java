package dev.gauntlet.loadgen;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An open loop far beyond what the machine can send, over a pool of two connections, in a generator
 * process with a 64 MB heap: unbounded, its waiting requests (16 bytes each, 5 million a second) would
 * fill that heap within a second. Bounded, the run ends at its 3 s hard cap with its files written, the
 * requests it could not queue counted, and the verdict generator-limited.
 */
@Timeout(60)
class PendingQueueIT {

    @Test
    void aRateBeyondWhatTheProcessCanSendDropsWhatItCannotQueueAndSaysSo(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            LoadSpec spec = LoadSpec.of(server.uri("/hello"),
                            LoadModel.OpenLoop.fixedPool(5_000_000, LoadModel.InterArrival.CONSTANT, 2)).toBuilder()
                    .warmupMs(0).durationMs(2_000).hardCapMs(3_000).build();
            Path specFile = dir.resolve("spec.json");
            Json.json().writeValue(specFile.toFile(), spec);
            // --start-at: straight into the run, without the generator's own JIT warm-up.
            Process process = new ProcessBuilder(ProcessHandle.current().info().command().orElseThrow(), "-Xmx64m",
                    "-cp", System.getProperty("java.class.path"), GeneratorMain.class.getName(),
                    "--spec", specFile.toString(), "--output", dir.toString(),
                    "--start-at", Long.toString(System.currentTimeMillis() + 500))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            String stderr;
            try {
                stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            } finally {
                process.destroyForcibly();
            }

            assertThat(process.exitValue()).as(stderr).isZero();
            assertThat(stderr).doesNotContain("OutOfMemoryError");
            RunSummary summary = Json.json().readValue(dir.resolve(Generator.SUMMARY).toFile(), RunSummary.class);
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
            Path specFile = dir.resolve("spec.json");
            Json.json().writeValue(specFile.toFile(), spec);
            long startNs = System.nanoTime();
            Process process = new ProcessBuilder(List.of(ProcessHandle.current().info().command().orElseThrow(),
                    "-cp", System.getProperty("java.class.path"), GeneratorMain.class.getName(),
                    "--spec", specFile.toString(), "--output", dir.toString()))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            String stderr;
            try {
                stderr = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            } finally {
                process.destroyForcibly();
            }

            assertThat(process.exitValue()).isEqualTo(2);
            assertThat(stderr).hasLineCount(1).startsWith("gauntlet generator: a rate of 1000M requests/s over 1 process "
                    + "is more than one generator process can schedule, 10M/s at most").contains("--processes 100");
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - startNs)).isLessThan(15);
            assertThat(server.requests()).as("nothing was sent").isZero();
        }
    }
}
