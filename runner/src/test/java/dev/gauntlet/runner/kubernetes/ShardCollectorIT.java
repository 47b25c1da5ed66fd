package dev.gauntlet.runner.kubernetes;

import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.loadgen.split.ResultsServer;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The runner's side of a shard's results port, against a real {@link ResultsServer} and a port nobody listens on. */
@Timeout(30)
class ShardCollectorIT {
    @TempDir
    Path dir;

    @Test
    void aShardIsRunningUntilItsFilesAreServedThenCollectedWhole() throws Exception {
        Path shardDir = Files.createDirectories(dir.resolve("shard"));
        Files.writeString(new RunDirectory(shardDir).summary(), "{\"completed\": 42}");
        Files.writeString(shardDir.resolve(".ready"), "1");
        Path copy = dir.resolve("p1");
        try (ResultsServer results = ResultsServer.start(shardDir, ".ready");
             ShardCollector collector = new ShardCollector(ShardCollector.UNREACHABLE_GRACE_MS)) {
            ShardCollector.Shard shard = collector.shard(pod("127.0.0.1", null), "gauntlet shard 0 of 2: open 50/s\n"
                    + "gauntlet shard 0: results at port " + results.port() + "\n");

            assertThat(shard.fetch(copy)).as("503: still running").isInstanceOf(ShardCollector.Outcome.Running.class);
            results.done();
            ShardCollector.Outcome outcome = fetchUntilDecided(shard, copy);

            assertThat(outcome).isInstanceOf(ShardCollector.Outcome.Collected.class);
            assertThat(new RunDirectory(copy).summary()).hasSameBinaryContentAs(new RunDirectory(shardDir).summary());
            assertThat(copy.resolve(".ready")).doesNotExist();
        }
    }

    @Test
    void aShardThatCannotBeReachedPastTheGraceFailsSayingTheRunnerMustReachTheNodes() throws Exception {
        int port;
        try (ServerSocket unused = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = unused.getLocalPort();
        }
        try (ShardCollector collector = new ShardCollector(300)) {
            // No node address in its status: the pod's own.
            ShardCollector.Shard shard = collector.shard(pod(null, "127.0.0.1"), "gauntlet shard 1: results at port " + port);

            assertThat(shard.fetch(dir.resolve("p2"))).as("refused, within the grace").isInstanceOf(ShardCollector.Outcome.Running.class);
            ShardCollector.Outcome outcome = fetchUntilDecided(shard, dir.resolve("p2"));

            assertThat(outcome).isInstanceOfSatisfying(ShardCollector.Outcome.Failed.class, failed -> assertThat(failed.reason())
                    .startsWith("cannot be reached at http://127.0.0.1:" + port + "/results for ")
                    .endsWith("the runner must reach the load nodes' addresses at the shards' results ports (docs/distributed.md)"));
            assertThat(dir.resolve("p2")).doesNotExist();
        }
    }

    @Test
    void aLogThatNamesNoPortFailsAtOnce() {
        try (ShardCollector collector = new ShardCollector(ShardCollector.UNREACHABLE_GRACE_MS)) {
            ShardCollector.Outcome outcome = collector.shard(pod("127.0.0.1", null), "gauntlet shard 0 of 2: ready\n")
                    .fetch(dir.resolve("p1"));

            assertThat(outcome).isEqualTo(new ShardCollector.Outcome.Failed(
                    "names no results port in its log (an image older than the runner?)"));
        }
    }

    /** Asked as the runner asks, once a second at most, until the answer is not "running"; 20 s at most. */
    private static ShardCollector.Outcome fetchUntilDecided(ShardCollector.Shard shard, Path copy)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        ShardCollector.Outcome outcome = shard.fetch(copy);
        while (outcome instanceof ShardCollector.Outcome.Running && System.nanoTime() < deadline) {
            Thread.sleep(50);
            outcome = shard.fetch(copy);
        }
        return outcome;
    }

    private static Pod pod(String hostIp, String podIp) {
        return new PodBuilder().withNewMetadata().withName("shard").endMetadata()
                .withNewStatus().withHostIP(hostIp).withPodIP(podIp).endStatus().build();
    }
}
