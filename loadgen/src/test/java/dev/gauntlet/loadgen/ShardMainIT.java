package dev.gauntlet.loadgen;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.ShardStart;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** One shard as its pod runs it: a real process against a real server, the start instant given through a file. */
@Timeout(60)
class ShardMainIT {

    @Test
    void aShardWaitsForTheStartInstantRunsItsShareAndPrintsItsFiles(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            Path startFile = dir.resolve("control/start-at");
            Path readyFile = dir.resolve("out/.ready");
            Process shard = shard(dir, server, Map.of("JOB_COMPLETION_INDEX", "1"), startFile, readyFile);
            CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> read(shard.getInputStream()));
            CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> read(shard.getErrorStream()));

            long deadline = System.currentTimeMillis() + 20_000;
            while (!Files.exists(readyFile) && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            assertThat(readyFile).as(stderr::join).exists();
            assertThat(server.requests()).as("ready, the shard has sent nothing: its check only connects").isZero();
            long startAt = System.currentTimeMillis() + 500;
            Files.createDirectories(startFile.getParent());
            Files.writeString(startFile, Long.toString(startAt));

            assertThat(shard.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(shard.exitValue()).as(stderr::join).isZero();
            Path copy = dir.resolve("copy");
            assertThat(ShardArchive.extract(stdout.join().lines().toList(), copy)).isTrue();
            RunSummary summary = Json.json().readValue(copy.resolve("summary.json").toFile(), RunSummary.class);
            // Shard 1 of 2 of 200 requests/s for 1 s.
            assertThat(summary.completed()).as("%s", summary).isBetween(95L, 100L);
            assertThat(summary.spec().startOffsetNs()).isEqualTo(5_000_000);
            ShardStart start = Json.json().readValue(copy.resolve(ShardStart.FILE).toFile(), ShardStart.class);
            assertThat(start.index()).isEqualTo(1);
            assertThat(start.startAtEpochMs()).isEqualTo(startAt);
            assertThat(start.readyAtEpochMs()).isLessThan(startAt);
            assertThat(start.startLateMs()).isBetween(0L, 1_000L);
            assertThat(copy.resolve(".ready")).doesNotExist();
        }
    }

    @Test
    void aShardToldTheStartTooLateExitsThreeAndSaysSo(@TempDir Path dir) throws Exception {
        try (TestServer server = TestServer.hello()) {
            Path startFile = Files.createDirectories(dir.resolve("control")).resolve("start-at");
            Files.writeString(startFile, Long.toString(System.currentTimeMillis() - 1_000));
            Process shard = shard(dir, server, Map.of("JOB_COMPLETION_INDEX", "0"), startFile, dir.resolve("out/.ready"));
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
            Process shard = shard(dir, server, Map.of(), dir.resolve("start-at"), dir.resolve("out/.ready"));
            String stderr = read(shard.getErrorStream());

            assertThat(shard.waitFor(30, TimeUnit.SECONDS)).isTrue();
            assertThat(shard.exitValue()).isEqualTo(2);
            assertThat(stderr).isEqualTo("gauntlet generator: JOB_COMPLETION_INDEX is not set: a shard runs as a pod of "
                    + "an Indexed Job" + System.lineSeparator());
        }
    }

    private static Process shard(Path dir, TestServer server, Map<String, String> env, Path startFile, Path readyFile)
            throws IOException {
        LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.OpenLoop(200, LoadModel.InterArrival.CONSTANT))
                .withPhases(0, 1_000);
        Path specFile = dir.resolve("spec.json");
        Json.json().writeValue(specFile.toFile(), spec);
        List<String> command = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElseThrow(),
                "-cp", System.getProperty("java.class.path"), ShardMain.class.getName(),
                "--spec", specFile.toString(), "--shards", "2", "--ready-file", readyFile.toString(),
                "--start-file", startFile.toString(), "--output", readyFile.getParent().toString(), "--start-timeout", "20"));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().remove("JOB_COMPLETION_INDEX");
        builder.environment().putAll(env);
        return builder.start();
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
