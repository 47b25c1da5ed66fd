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

import static org.assertj.core.api.Assertions.assertThat;

/** The runner's side of a shard's results port, against a real {@link ResultsServer} and a port nobody listens on. */
@Timeout(30)
class ShardCollectorIT {
    private static final long GRACE_MS = 300;

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
            // The collector asks a shard once every FETCH_EVERY_MS at most, the runner's pace: a sleep past it is that
            // behaviour, not a wait for a signal.
            Thread.sleep(ShardCollector.FETCH_EVERY_MS + 100);
            ShardCollector.Outcome outcome = shard.fetch(copy);

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
        try (ShardCollector collector = new ShardCollector(GRACE_MS)) {
            // No node address in its status: the pod's own.
            ShardCollector.Shard shard = collector.shard(pod(null, "127.0.0.1"), "gauntlet shard 1: results at port " + port);

            assertThat(shard.fetch(dir.resolve("p2"))).as("refused, within the grace").isInstanceOf(ShardCollector.Outcome.Running.class);
            // The grace running out (and the collector's pace, one ask a FETCH_EVERY_MS) is the behaviour under test:
            // a sleep past both, not a wait for a signal.
            Thread.sleep(Math.max(GRACE_MS, ShardCollector.FETCH_EVERY_MS) + 100);
            ShardCollector.Outcome outcome = shard.fetch(dir.resolve("p2"));

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

    private static Pod pod(String hostIp, String podIp) {
        return new PodBuilder().withNewMetadata().withName("shard").endMetadata()
                .withNewStatus().withHostIP(hostIp).withPodIP(podIp).endStatus().build();
    }
}
