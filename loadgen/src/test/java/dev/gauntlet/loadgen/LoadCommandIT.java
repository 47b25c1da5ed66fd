package dev.gauntlet.loadgen;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.RunSummary;
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
                    .contains(", 0 errors");
            assertThat(dir.resolve("summary.json")).exists();
            assertThat(dir.resolve("response.hlog")).exists();
        }
    }

    @Test
    void jsonIsTheSummaryAndASaturatedRunIsWarnedAbout() throws Exception {
        try (TestServer server = TestServer.hello()) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            // A lag bound no generator keeps: the run must be flagged and the warning printed.
            int exitCode = command(out, err).execute(server.uri("/hello").toString(), "--rate", "200", "--inter-arrival", "constant",
                    "--warmup", "0ms", "--duration", "500ms", "--max-lag-p99", "0.000001", "--json");

            assertThat(exitCode).isZero();
            RunSummary summary = Json.json().readValue(out.toString(), RunSummary.class);
            assertThat(summary.completed()).isEqualTo(100);
            assertThat(summary.generatorSaturated()).isTrue();
            assertThat(err.toString()).contains("WARNING: the generator could not keep its schedule")
                    .contains("these figures describe the generator, not the server");
        }
    }

    private static CommandLine command(StringWriter out, StringWriter err) {
        CommandLine commandLine = new CommandLine(new LoadCommand());
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        return commandLine;
    }
}
