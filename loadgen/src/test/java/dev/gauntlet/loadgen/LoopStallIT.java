package dev.gauntlet.loadgen;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadModel.InterArrival;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunSummary;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static dev.gauntlet.loadgen.ConnectionPolicyIT.RATE_PER_SEC;
import static dev.gauntlet.loadgen.ConnectionPolicyIT.REQUESTS_DUE_IN_STALL;
import static dev.gauntlet.loadgen.ConnectionPolicyIT.STALL_MS;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The generator's own loop stalled, as a platform hiccup stalls it: its process is stopped
 * (SIGSTOP) for a while at a request the server counts, then continued. Every request due
 * meanwhile is sent when it continues, timed from its intended start.
 */
@Tag("alone") // asserts the schedule lag against a stall
@Timeout(60)
class LoopStallIT {

    @Test
    void theAdaptivePoolQueuesTheRequestsDueDuringTheStallInsteadOfOpeningAConnectionForEach(@TempDir Path dir)
            throws Exception {
        try (TestServer server = TestServer.hello()) {
            server.answerAfter(1);
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.OpenLoop(RATE_PER_SEC, InterArrival.CONSTANT))
                    .toBuilder().warmupMs(1_000).durationMs(1_000).build();
            // Half a second into the measured phase: the loop then finds 100 requests due at once.
            RunSummary summary = runStoppingAt(server, spec, (long) (RATE_PER_SEC * 1.5), STALL_MS, dir);

            assertThat(summary.errorCount()).isZero();
            assertThat(summary.sent()).isEqualTo(2_000);
            assertThat(summary.scheduleLag().maxMs()).isGreaterThanOrEqualTo(0.9 * STALL_MS);
            assertThat(summary.connectionsOpened()).as("%s", summary).isLessThan(REQUESTS_DUE_IN_STALL / 2);
        }
    }

    @Test
    void aLoopStalledAcrossTheEndOfTheMeasuredPhaseStillSendsEveryRequestDueBeforeIt(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            // 200/s for 1 s, answered in 20 ms: stopped at the 190th request for 100 ms, past the end of the
            // measured phase. The responses the loop reads as it continues come after that end; the requests
            // still due before it must be sent all the same.
            server.answerAfter(20);
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.OpenLoop(200, InterArrival.CONSTANT))
                    .toBuilder().warmupMs(0).durationMs(1_000).build();
            RunSummary summary = runStoppingAt(server, spec, 190, 100, dir);

            assertThat(summary.errorCount()).isZero();
            assertThat(summary.sent()).isEqualTo(200);
            assertThat(summary.completed()).isEqualTo(200);
        }
    }

    /** Runs {@code spec} in a GeneratorMain process, stopped for {@code stopMs} at the server's {@code atRequest}-th request. */
    private static RunSummary runStoppingAt(TestServer server, LoadSpec spec, long atRequest, long stopMs, Path dir)
            throws Exception {
        Path specFile = dir.resolve("spec.json");
        Json.json().writeValue(specFile.toFile(), spec);
        CountDownLatch reached = server.signalAtRequest(atRequest);
        Process generator = new ProcessBuilder(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "-cp", System.getProperty("java.class.path"), GeneratorMain.class.getName(),
                "--spec", specFile.toString(), "--output", dir.toString()))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            assertThat(reached.await(30, TimeUnit.SECONDS)).isTrue();
            signal("STOP", generator.pid());
            // The stall is the behaviour under test.
            Thread.sleep(stopMs);
            signal("CONT", generator.pid());
            assertThat(generator.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            generator.destroyForcibly();
        }
        assertThat(generator.exitValue()).isZero();
        return Json.json().readValue(new RunDirectory(dir).summary().toFile(), RunSummary.class);
    }

    private static void signal(String signal, long pid) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid)).redirectErrorStream(true).start();
        String output = new String(kill.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(kill.waitFor()).as(output).isZero();
    }
}
