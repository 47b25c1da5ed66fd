package dev.gauntlet.runner.kubernetes;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.Numbers;
import dev.gauntlet.api.Percentiles;
import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.ShardStart;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.execution.SuiteGenerator;
import dev.gauntlet.runner.results.ResultsTable;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The cluster's noise floor, measured before a suite: the {@code dummy} target as a pod on a target node, one
 * closed-loop connection from one shard on a load node, no wait. Its round trip is what the network between the
 * nodes and the two JVMs add to every request; the hiccups are each side's stalls in the same seconds. It places
 * its pods as the suite's are placed, so it also records which nodes, CPUs and QoS class the suite runs on.
 *
 * <pre>{@code
 * ClusterFloor floor = new ClusterCalibration(targets, generator).measure(Duration.ofSeconds(10));
 * System.err.println(floor.describe());   // platform: round trip node-a → node-b p50 0.21 ms, p99 0.9 ms, ...
 * }</pre>
 */
final class ClusterCalibration {
    static final String TARGET = "dummy";
    private static final long WARMUP_MS = 2_000;

    private final TargetPods targets;
    private final SuiteGenerator generator;

    ClusterCalibration(TargetPods targets, SuiteGenerator generator) {
        this.targets = targets;
        this.generator = generator;
    }

    /**
     * The floor as {@code suite.json} records it under {@code platform}, with the field names the local calibration
     * uses where they mean the same.
     *
     * @param path            {@code node-a → node-b}: where the round trip went
     * @param targetNode      the target pod's node, CPU model and QoS class
     * @param loadNodes       each shard's node and CPU model, by shard index
     */
    record ClusterFloor(long seconds, String path, Percentiles roundTrip, Percentiles targetHiccups,
                        Percentiles generatorHiccups, Map<String, Object> targetNode, List<ShardStart> loadNodes) {

        String describe() {
            return String.format(Locale.ROOT, "platform: %s round trip p50 %s ms, p99 %s ms, max %s ms; wake-up p99 %s ms "
                            + "(target) / %s ms (generator); target node %s (%s, QoS %s)", path,
                    Numbers.millis(roundTrip.p50Ms()), Numbers.millis(roundTrip.p99Ms()),
                    Numbers.millis(roundTrip.maxMs()), Numbers.millis(targetHiccups.p99Ms()),
                    Numbers.millis(generatorHiccups.p99Ms()), targetNode.get("node"), targetNode.get("cpuModel"),
                    targetNode.get("qosClass"));
        }
    }

    ClusterFloor measure(Duration duration) {
        Path work = temporaryDirectory();
        try (TargetPod target = targets.start(TARGET, work.resolve("target.log"))) {
            LoadSpec spec = LoadSpec.of(target.endpoint().uri("/hello"), new LoadModel.ClosedLoop(1))
                    .withPhases(WARMUP_MS, duration.toMillis())
                    .toBuilder().adminUrl(target.endpoint().adminUri("/")).build();
            target.endpoint().resetStats();
            RunSummary summary = generator.run(spec, target.endpoint().adminToken(), work.resolve("run"));
            if (summary.completed() == 0) {
                throw new UserError("no request of the calibration completed (" + String.join("; ", summary.evidence()) + ")");
            }
            List<ShardStart> shards = shardStarts(work.resolve("run"));
            String loadNodes = String.join(", ", shards.stream().map(ShardStart::node).distinct().toList());
            return new ClusterFloor(duration.toSeconds(), target.isolation().get("node") + " → " + loadNodes,
                    summary.serviceTime(), summary.targetHiccups(), summary.generatorHiccups(), target.isolation(), shards);
        } finally {
            deleteQuietly(work);
        }
    }

    private static List<ShardStart> shardStarts(Path runDir) {
        List<ShardStart> starts = new ArrayList<>();
        try (Stream<Path> dirs = Files.list(runDir)) {
            for (Path dir : dirs.filter(d -> d.getFileName().toString().matches("p\\d+")).sorted().toList()) {
                starts.add(Json.json().readValue(new RunDirectory(dir).shardStart().toFile(), ShardStart.class));
            }
        } catch (IOException e) {
            throw new UserError("the calibration's shards left no shard.json in " + runDir + ": " + e.getMessage());
        }
        return starts;
    }

    private static Path temporaryDirectory() {
        try {
            return Files.createTempDirectory("gauntlet-calibration-");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            // A temporary directory: the system's clean-up takes what is left.
        }
    }
}
