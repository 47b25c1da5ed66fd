package dev.gauntlet.loadgen;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(60)
class LoadCommandIT {

    @Test
    void printsTheRateThePercentileTableAndTheErrors(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            StringWriter out = new StringWriter();
            int exitCode = command(out, new StringWriter()).execute(server.uri("/hello").toString(),
                    "--connections", "2", "--warmup", "200ms", "--duration", "500ms", "--output", dir.toString());

            assertThat(exitCode).isZero();
            assertThat(out.toString())
                    .contains("closed 2c -> " + server.uri("/hello"))
                    .containsPattern("requests/s; 2 connections opened")
                    .containsPattern("latency \\(ms\\) +p50 +p90 +p99 +p99.9 +p99.99 +max +mean")
                    .containsPattern("response +\\d")
                    .containsPattern("service +\\d")
                    .containsPattern("hiccups +\\d")
                    .containsPattern("(?m)^  verdict +(ok|platform-noisy)")
                    .contains(", 0 errors");
            assertThat(dir.resolve("summary.json")).exists();
            assertThat(dir.resolve("response.hlog")).exists();
        }
    }

    @Test
    void jsonIsTheSummaryWithItsVerdictAndTheNoiseFloor() throws Exception {
        try (TestServer server = TestServer.hello()) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            // A warm-up, or the loop's first requests come late while its classes load: a cold generator's lateness.
            int exitCode = command(out, err).execute(server.uri("/hello").toString(), "--rate", "200", "--inter-arrival", "constant",
                    "--warmup", "1s", "--duration", "500ms", "--json");

            assertThat(exitCode).isZero();
            RunSummary summary = Json.json().readValue(out.toString(), RunSummary.class);
            assertThat(summary.completed()).isEqualTo(100);
            assertThat(summary.scheduled()).isEqualTo(100);
            assertThat(summary.verdict()).isIn(Verdict.OK, Verdict.PLATFORM_NOISY);
            assertThat(summary.generatorHiccups().count()).isPositive();
            assertThat(summary.loopLateness().count()).isEqualTo(100);
            assertThat(out.toString()).containsPattern("\"verdict\" ?: ?\"" + summary.verdict().label() + "\"");
        }
    }

    private static CommandLine command(StringWriter out, StringWriter err) {
        CommandLine commandLine = new CommandLine(new LoadCommand());
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        return commandLine;
    }
}
