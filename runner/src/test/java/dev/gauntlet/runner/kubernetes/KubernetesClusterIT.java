package dev.gauntlet.runner.kubernetes;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.runner.base.GauntletHome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./gauntlet load --kubernetes} against a real cluster, opt-in: it runs only when a kubeconfig
 * is present and {@code GAUNTLET_KUBERNETES_TARGET} (a target URL the cluster's nodes reach) and
 * {@code GAUNTLET_KUBERNETES_IMAGE} (docs/distributed.md builds it) are set.
 */
@EnabledIf("clusterGiven")
@Timeout(600)
class KubernetesClusterIT {

    static boolean clusterGiven() {
        boolean kubeconfig = System.getenv("KUBECONFIG") != null
                || Files.exists(Path.of(System.getProperty("user.home"), ".kube", "config"));
        return kubeconfig && System.getenv("GAUNTLET_KUBERNETES_TARGET") != null
                && System.getenv("GAUNTLET_KUBERNETES_IMAGE") != null;
    }

    @Test
    void twoShardsOnTheClusterMergeIntoOneResult(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("run");
        Process process = new ProcessBuilder(List.of(GauntletHome.fromSystemProperty().root().resolve("gauntlet").toString(),
                "load", System.getenv("GAUNTLET_KUBERNETES_TARGET"), "--rate", "200", "--warmup", "2s", "--duration", "10s",
                "--kubernetes", "--shards", "2", "--image", System.getenv("GAUNTLET_KUBERNETES_IMAGE"),
                "--output", out.toString())).inheritIO().start();

        assertThat(process.waitFor(540, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).isZero();
        RunSummary merged = Json.json().readValue(out.resolve("summary.json").toFile(), RunSummary.class);
        RunSummary first = Json.json().readValue(out.resolve("p1/summary.json").toFile(), RunSummary.class);
        RunSummary second = Json.json().readValue(out.resolve("p2/summary.json").toFile(), RunSummary.class);
        assertThat(merged.completed()).isEqualTo(first.completed() + second.completed()).isPositive();
    }
}
