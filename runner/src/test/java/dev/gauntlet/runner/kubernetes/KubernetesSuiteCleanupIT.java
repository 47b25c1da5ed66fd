package dev.gauntlet.runner.kubernetes;

import dev.gauntlet.runner.Signals;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./gauntlet run --kubernetes} in {@link MockCluster} as it ends before its runs do: a suite interrupted
 * mid-way deletes every object it created, and a cluster that cannot be reached is one line before anything starts.
 *
 * <p>Side by side, not alone (these were cases of {@link KubernetesSuiteIT} until 2026-12): neither asserts a count, a
 * rate or how soon anything happened, only what is left and what is said, whenever the interrupt lands.
 */
@Timeout(600)
class KubernetesSuiteCleanupIT {
    @TempDir
    Path dir;
    private MockCluster cluster;

    @BeforeEach
    void start() throws IOException {
        cluster = new MockCluster(dir);
    }

    @AfterEach
    void stop() {
        cluster.close();
    }

    @Test
    void anInterruptedSuiteDeletesEveryObjectItCreated() throws Exception {
        Path suite = KubernetesSuiteIT.suiteFile(dir, "interrupted", List.of("dummy"), 1, 30_000);
        MockCluster.Result result = cluster.gauntlet(300, process -> Thread.ofPlatform().daemon().start(() -> {
            // Mid-suite: once the first run's Job exists.
            try {
                cluster.standIn.await(() -> !cluster.standIn.jobs().isEmpty() || !process.isAlive(), Duration.ofSeconds(300));
            } catch (InterruptedException e) {
                return;
            }
            // SIGTERM takes the same way out as Ctrl-C's SIGINT, which a test run from a background shell
            // inherits ignored (so the JVM would never see it).
            try {
                Signals.send("TERM", process.pid());
            } catch (IOException | InterruptedException e) {
                throw new AssertionError(e);
            }
        }), "run", "--suite", suite.toString(), "--results", dir.resolve("results").toString(), "--no-calibration");

        assertThat(result.exitCode()).as(result.stderr()).isEqualTo(128 + 15);
        assertThat(result.stderr()).contains("gauntlet: interrupted; the runs measured so far are in");
        assertThat(cluster.client.pods().inNamespace(MockCluster.NAMESPACE).list().getItems()).isEmpty();
        assertThat(cluster.client.secrets().inNamespace(MockCluster.NAMESPACE).list().getItems()).isEmpty();
        assertThat(cluster.client.batch().v1().jobs().inNamespace(MockCluster.NAMESPACE).list().getItems()).isEmpty();
        assertThat(cluster.client.configMaps().inNamespace(MockCluster.NAMESPACE).list().getItems()).isEmpty();
    }

    @Test
    void noClusterToReachIsOneLineBeforeAnythingStarts() throws Exception {
        Path suite = KubernetesSuiteIT.suiteFile(dir, "nowhere", List.of("dummy"), 1, 30_000);
        cluster.environment.put("KUBECONFIG", dir.resolve("no-such-kubeconfig").toString());

        MockCluster.Result result = cluster.gauntlet(60, "run", "--suite", suite.toString(), "--results",
                dir.resolve("results").toString());

        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.stderr().lines().filter(line -> !line.startsWith("SLF4J")).toList()).singleElement().asString()
                .startsWith("gauntlet: KUBECONFIG names no file that exists (" + dir.resolve("no-such-kubeconfig"));
        assertThat(dir.resolve("results")).doesNotExist();
    }
}
