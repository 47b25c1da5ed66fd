package dev.gauntlet.loadgen;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.ShardStart;
import dev.gauntlet.loadgen.split.ShardArchive;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardWatchEventKinds;
import java.nio.file.WatchKey;
import java.nio.file.WatchService;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One shard as its pod runs it: a real process against a real server, the start instant and the
 * "collected" signal given through files, its results fetched from it over HTTP.
 */
@Tag("alone") // asserts completed counts and start lateness
@Timeout(60)
class ShardMainIT {
    private Process shard;

    @AfterEach
    void stopShard() {
        if (shard != null) {
            shard.destroyForcibly();
        }
    }

    /** In one process, and over two of its own (a shard of a load split over processes too). */
    @ParameterizedTest(name = "{0} processes a shard")
    @ValueSource(ints = {1, 2})
    void aShardWaitsForTheStartInstantRunsItsShareAndServesItsFilesUntilCollected(int processes, @TempDir Path dir)
            throws Exception {
        try (TestServer server = TestServer.hello(); HttpClient http = HttpClient.newHttpClient()) {
            Path startFile = dir.resolve("control/start-at");
            Path collectedFile = dir.resolve("control/collected");
            Path readyFile = Files.createDirectories(dir.resolve("out")).resolve(".ready");
            Path stderr = dir.resolve("stderr");
            try (WatchService watcher = FileSystems.getDefault().newWatchService()) {
                readyFile.getParent().register(watcher, StandardWatchEventKinds.ENTRY_CREATE);
                shard = shard(dir, server, processes, Map.of("JOB_COMPLETION_INDEX", "1"), startFile, readyFile)
                        .redirectErrorStream(true).redirectOutput(stderr.toFile()).start();
                // The shard's ready file is the signal: created once its checks passed.
                while (!Files.exists(readyFile)) {
                    assertThat(watcher.poll(20, TimeUnit.SECONDS)).as("the ready file, or: %s", Files.readString(stderr)).isNotNull()
                            .satisfies(WatchKey::reset);
                }
            }
            assertThat(server.requests()).as("ready, the shard has sent nothing: its check only connects").isZero();
            // Said before it reported ready: where its results will be.
            Matcher port = Pattern.compile("gauntlet shard 1: results at port (\\d+)").matcher(Files.readString(stderr));
            assertThat(port.find()).as(Files.readString(stderr)).isTrue();
            URI results = URI.create("http://127.0.0.1:" + port.group(1) + "/results");
            assertThat(get(http, results).statusCode()).as("running: not yet").isEqualTo(503);
            long startAt = System.currentTimeMillis() + 500;
            Files.createDirectories(startFile.getParent());
            Files.writeString(startFile, Long.toString(startAt));

            // The shard says when its files are served: its "done" line, watched for rather than polled.
            awaitLine(stderr, "gauntlet shard 1: done;");
            HttpResponse<byte[]> answer = get(http, results);
            assertThat(answer.statusCode()).as(Files.readString(stderr)).isEqualTo(200);
            assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/zip");
            assertThat(shard.isAlive()).as("served, the shard waits to be collected").isTrue();
            Files.writeString(collectedFile, "1");
            assertThat(shard.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(shard.exitValue()).as(Files.readString(stderr)).isZero();

            Path copy = dir.resolve("copy");
            ShardArchive.extract(answer.body(), copy);
            RunSummary summary = Json.json().readValue(copy.resolve("summary.json").toFile(), RunSummary.class);
            // Shard 1 of 2 of 200 requests/s for 1 s.
            assertThat(summary.completed()).as("%s", summary).isBetween(95L, 100L);
            assertThat(summary.processes()).isEqualTo(processes);
            assertThat(summary.spec().startOffsetNs()).isEqualTo(5_000_000);
            ShardStart start = Json.json().readValue(new RunDirectory(copy).shardStart().toFile(), ShardStart.class);
            assertThat(start.index()).isEqualTo(1);
            assertThat(start.startAtEpochMs()).isEqualTo(startAt);
            assertThat(start.readyAtEpochMs()).isLessThan(startAt);
            assertThat(start.startLateMs()).isBetween(0L, 1_000L);
            assertThat(copy.resolve(".ready")).doesNotExist();
            try (RecordingFile recording = new RecordingFile(new RunDirectory(copy).generatorJfr())) {
                assertThat(recording.hasMoreEvents()).as("the JVM's recording, dumped").isTrue();
            }
        }
    }

    @Test
    void aShardNotCollectedInTimeSaysSoAndEndsAllTheSame(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            Path startFile = Files.createDirectories(dir.resolve("control")).resolve("start-at");
            Files.writeString(startFile, Long.toString(System.currentTimeMillis() + 3_000));
            ProcessBuilder builder = shard(dir, server, 1, Map.of("JOB_COMPLETION_INDEX", "0"), startFile, dir.resolve("out/.ready"));
            builder.command().addAll(List.of("--collect-timeout", "1"));
            shard = builder.start();
            String stderr = read(shard.getErrorStream());

            assertThat(shard.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(shard.exitValue()).as(stderr).isZero();
            assertThat(stderr.lines().toList().getLast())
                    .isEqualTo("gauntlet shard 0: its results were not collected within 1 s; they are lost with the pod");
        }
    }

    @Test
    void aShardToldTheStartTooLateExitsThreeAndSaysSo(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            Path startFile = Files.createDirectories(dir.resolve("control")).resolve("start-at");
            Files.writeString(startFile, Long.toString(System.currentTimeMillis() - 1_000));
            shard = shard(dir, server, 1, Map.of("JOB_COMPLETION_INDEX", "0"), startFile, dir.resolve("out/.ready")).start();
            String stderr = read(shard.getErrorStream());

            assertThat(shard.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(shard.exitValue()).as(stderr).isEqualTo(ShardMain.MISSED_START);
            assertThat(stderr.lines().toList().getLast()).startsWith("gauntlet generator: missed the common start by ");
            assertThat(server.requests()).isZero();
        }
    }

    @Test
    void withoutItsIndexAShardExitsTwoWithOneLine(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            shard = shard(dir, server, 1, Map.of(), dir.resolve("start-at"), dir.resolve("out/.ready")).start();
            String stderr = read(shard.getErrorStream());

            assertThat(shard.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(shard.exitValue()).isEqualTo(2);
            assertThat(stderr).isEqualTo("gauntlet generator: JOB_COMPLETION_INDEX is not set: a shard runs as a pod of "
                    + "an Indexed Job" + System.lineSeparator());
        }
    }

    @Test
    void aShardCountOutOfRangeExitsTwoWithOneLine(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            ProcessBuilder builder = shard(dir, server, 1, Map.of("JOB_COMPLETION_INDEX", "0"), dir.resolve("start-at"),
                    dir.resolve("out/.ready"));
            // 2^32 + 1: cut to an int it would be one shard, the whole load.
            builder.command().set(builder.command().indexOf("--shards") + 1, "4294967297");
            shard = builder.start();
            String stderr = read(shard.getErrorStream());

            assertThat(shard.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(shard.exitValue()).isEqualTo(2);
            assertThat(stderr).isEqualTo("gauntlet generator: --shards must be 1 to 2147483647, got 4294967297"
                    + System.lineSeparator());
            assertThat(server.requests()).isZero();
        }
    }

    /** A shard of 2 of 200 requests/s for 1 s, run over {@code processes} processes of its own. */
    private static ProcessBuilder shard(Path dir, TestServer server, int processes, Map<String, String> env, Path startFile,
                                        Path readyFile) throws IOException {
        LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.OpenLoop(200, LoadModel.InterArrival.CONSTANT))
                .withPhases(0, 1_000).toBuilder().processes(processes).build();
        Path specFile = dir.resolve("spec.json");
        Json.json().writeValue(specFile.toFile(), spec);
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "-Xlog:jfr+startup=off", "-XX:StartFlightRecording=name=" + ShardMain.RECORDING,
                "-cp", System.getProperty("java.class.path"), ShardMain.class.getName(),
                "--spec", specFile.toString(), "--shards", "2", "--ready-file", readyFile.toString(),
                "--start-file", startFile.toString(), "--collected-file", startFile.resolveSibling("collected").toString(),
                "--output", readyFile.getParent().toString(), "--start-timeout", "20"));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().remove("JOB_COMPLETION_INDEX");
        builder.environment().putAll(env);
        return builder;
    }

    /** Waits, 30 s at most, for {@code file} (a process's output) to hold {@code line}: on each change of it, not a sleep. */
    private static void awaitLine(Path file, String line) throws IOException, InterruptedException {
        try (WatchService watcher = FileSystems.getDefault().newWatchService()) {
            file.getParent().register(watcher, StandardWatchEventKinds.ENTRY_MODIFY);
            long deadlineNs = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!Files.readString(file).contains(line)) {
                WatchKey change = watcher.poll(deadlineNs - System.nanoTime(), TimeUnit.NANOSECONDS);
                assertThat(change).as("%s within 30 s, or: %s", line, Files.readString(file)).isNotNull();
                change.pollEvents();
                change.reset();
            }
        }
    }

    private static HttpResponse<byte[]> get(HttpClient http, URI uri) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    private static String read(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
