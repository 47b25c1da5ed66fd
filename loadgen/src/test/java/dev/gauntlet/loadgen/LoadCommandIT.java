package dev.gauntlet.loadgen;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunDirectory.HistogramLog;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.Verdict;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

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
            assertThat(new RunDirectory(dir).log(HistogramLog.RESPONSE)).exists();
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

    @Test
    void theTableSaysHowFarApartTheOpenLoopWoke() throws Exception {
        try (TestServer server = TestServer.hello()) {
            StringWriter out = new StringWriter();
            int exitCode = command(out, new StringWriter()).execute(server.uri("/hello").toString(), "--rate", "200",
                    "--inter-arrival", "constant", "--warmup", "500ms", "--duration", "500ms", "--wake-granularity", "4ms");

            assertThat(exitCode).isZero();
            assertThat(out.toString()).contains("  wake-ups  4.00 ms apart at most (--wake-granularity 4ms): the requests "
                    + "due meanwhile went together, each timed from its intended start");
        }
    }

    @Test
    void aRateNoProcessCanScheduleExitsTwoWithOneLineBeforeAnythingIsSent() throws Exception {
        try (TestServer server = TestServer.hello()) {
            long startNs = System.nanoTime();
            MainProcess.Exited result = loadCommand(server.uri("/hello").toString(), "--rate", "1e9");

            assertThat(result.exitCode()).as(result.stderr()).isEqualTo(2);
            assertThat(result.stderr()).hasLineCount(1).startsWith("gauntlet load: a rate of 1000M requests/s over 1 process "
                    + "is more than one generator process can schedule, 10M/s at most").contains("--processes 100");
            assertThat(System.nanoTime() - startNs).isLessThan(TimeUnit.SECONDS.toNanos(15));
            assertThat(server.requests()).isZero();
        }
    }

    @Test
    void numbersOutOfRangeExitTwoWithOneLineNamingTheFlag() throws Exception {
        try (TestServer server = TestServer.hello()) {
            String url = server.uri("/hello").toString();
            assertThat(loadCommand(url, "--rate", "10", "--duration", "999999999999m"))
                    .isEqualTo(new MainProcess.Exited(2, "gauntlet load: Invalid value for option '--duration': '999999999999m' is longer "
                            + "than 7 days, the longest a duration may be: give 0ms to 10080m" + System.lineSeparator()));
            assertThat(loadCommand(url, "--rate", "Infinity")).isEqualTo(new MainProcess.Exited(2, "gauntlet load: --rate must be a "
                    + "finite number of requests/s above 0, got Infinity" + System.lineSeparator()));
            assertThat(loadCommand(url, "--connections", "10", "--threads", "100000")).isEqualTo(new MainProcess.Exited(2,
                    "gauntlet load: --threads must be 1 to 256, got 100000" + System.lineSeparator()));
            assertThat(loadCommand(url, "--rate", "10", "--max-connections", "-5")).isEqualTo(new MainProcess.Exited(2,
                    "gauntlet load: --max-connections must be 1 to 2147483647, got -5" + System.lineSeparator()));
            assertThat(server.requests()).isZero();
        }
    }

    /** {@code LoadCommand} as a process of its own, as {@code ./gauntlet load} runs it. */
    private static MainProcess.Exited loadCommand(String... args) throws Exception {
        return MainProcess.run(List.of(), LoadCommand.class, args);
    }

    private static CommandLine command(StringWriter out, StringWriter err) {
        CommandLine commandLine = new CommandLine(new LoadCommand());
        commandLine.setOut(new PrintWriter(out));
        commandLine.setErr(new PrintWriter(err));
        return commandLine;
    }
}
