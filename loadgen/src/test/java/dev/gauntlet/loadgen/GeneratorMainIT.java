package dev.gauntlet.loadgen;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunDirectory.HistogramLog;
import dev.gauntlet.api.RunSummary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

@Timeout(60)
class GeneratorMainIT {

    @Test
    void runsASpecAndWritesTheFiles(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            Path specFile = specFile(dir, LoadSpec.of(server.uri("/hello"),
                    new LoadModel.OpenLoop(200, LoadModel.InterArrival.CONSTANT)).withPhases(0, 1_000));

            MainProcess.Exited result = generatorMain("--spec", specFile.toString(), "--output", dir.toString());

            assertThat(result.exitCode()).as(result.stderr()).isZero();
            RunSummary summary = Json.json().readValue(dir.resolve("summary.json").toFile(), RunSummary.class);
            assertThat(summary.completed()).as("%s", summary).isEqualTo(200);
            assertThat(summary.generatorWarmup()).as("its JIT warmed first").isNotNull();
            assertThat(new RunDirectory(dir).log(HistogramLog.RESPONSE)).isNotEmptyFile();
            assertThat(new RunDirectory(dir).log(HistogramLog.SERVICE)).isNotEmptyFile();
        }
    }

    /** What a suite's {@code jvm.generator} asks for a cold generator with, as {@code load --no-jit-warmup} does. */
    @Test
    void aColdGeneratorIsAskedForByAJvmOption(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            Path specFile = specFile(dir, LoadSpec.of(server.uri("/hello"),
                    new LoadModel.OpenLoop(200, LoadModel.InterArrival.CONSTANT)).withPhases(0, 500));

            MainProcess.Exited result = generatorMain("-Dgauntlet.jitWarmup=false", "--spec", specFile.toString(), "--output", dir.toString());

            assertThat(result.exitCode()).as(result.stderr()).isZero();
            RunSummary summary = Json.json().readValue(dir.resolve("summary.json").toFile(), RunSummary.class);
            assertThat(summary.completed()).as("%s", summary).isEqualTo(100);
            assertThat(summary.generatorWarmup()).as("no JIT warm-up").isNull();
        }
    }

    @Test
    void sigtermEndsTheRunAndStillWritesTheFiles(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            Path specFile = specFile(dir, LoadSpec.of(server.uri("/hello"),
                    new LoadModel.OpenLoop(100, LoadModel.InterArrival.CONSTANT)).withPhases(0, 60_000));
            Process process = new ProcessBuilder(MainProcess.command(List.of(), GeneratorMain.class,
                    List.of("--spec", specFile.toString(), "--output", dir.toString())))
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            try (BufferedReader stderr = process.errorReader(StandardCharsets.UTF_8)) {
                // The first progress line of the measured phase: the run is under way.
                for (String line = stderr.readLine(); line != null && !line.contains(" sent "); line = stderr.readLine()) {
                    assertThat(line).doesNotContain("Exception");
                }
                process.destroy();
                assertThat(process.waitFor(30, TimeUnit.SECONDS)).isTrue();
            }
            RunSummary summary = Json.json().readValue(dir.resolve("summary.json").toFile(), RunSummary.class);
            assertThat(summary.hardCapReached()).isTrue();
            assertThat(summary.completed()).isPositive();
            assertThat(summary.measuredSec()).isLessThan(60);
            assertThat(new RunDirectory(dir).log(HistogramLog.RESPONSE)).isNotEmptyFile();
        }
    }

    @Test
    void anUnreachableTargetExitsTwoWithOneLine(@TempDir Path dir) throws Exception {
        int port = TestServer.unusedAddress().getPort();
        Path specFile = specFile(dir, LoadSpec.of(URI.create("http://127.0.0.1:" + port + "/hello"), new LoadModel.ClosedLoop(1)));

        MainProcess.Exited result = generatorMain("--spec", specFile.toString(), "--output", dir.toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.stderr()).isEqualTo("gauntlet generator: nothing listens on 127.0.0.1:" + port + System.lineSeparator());
    }

    @Test
    void anImpossibleRunIsRefusedWithExitTwoAndTheNumbers(@TempDir Path dir) throws Exception {
        Path specFile = specFile(dir, LoadSpec.of(URI.create("http://127.0.0.1:9/hello?wait=60000"),
                new LoadModel.MaxConcurrency(54_000)));

        // As here: 20,000 open files, which cannot be raised.
        MainProcess.Exited result = generatorMain("-XX:-MaxFDLimit", "--spec", specFile.toString(), "--output", dir.toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.stderr()).hasLineCount(1)
                .containsPattern("gauntlet generator: 54000 connections need 54000 open files, but a process may open \\d+ here")
                .contains("--processes");
    }

    @Test
    void aBadSpecExitsTwoWithOneLine(@TempDir Path dir) throws Exception {
        Path specFile = dir.resolve("spec.json");
        Files.writeString(specFile, "{\"url\": \"http://127.0.0.1:1/\", \"model\": {\"type\": \"open\", \"ratePerSec\": -1}}");

        MainProcess.Exited result = generatorMain("--spec", specFile.toString(), "--output", dir.toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.stderr()).startsWith("gauntlet generator: invalid spec").hasLineCount(1);
    }

    /** {@code spec} written as the runner hands it to the generator: {@code spec.json} in {@code dir}. */
    private static Path specFile(Path dir, LoadSpec spec) throws IOException {
        Path file = dir.resolve("spec.json");
        Json.json().writeValue(file.toFile(), spec);
        return file;
    }

    /** {@code GeneratorMain} as the runner starts it; the leading {@code -XX} and {@code -D} arguments are JVM options. */
    private static MainProcess.Exited generatorMain(String... args) throws IOException, InterruptedException {
        List<String> rest = new ArrayList<>(List.of(args));
        List<String> jvmOptions = new ArrayList<>();
        while (!rest.isEmpty() && (rest.getFirst().startsWith("-XX") || rest.getFirst().startsWith("-D"))) {
            jvmOptions.add(rest.removeFirst());
        }
        return MainProcess.run(jvmOptions, GeneratorMain.class, rest.toArray(String[]::new));
    }
}
