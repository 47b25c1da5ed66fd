package dev.gauntlet.runner.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Json;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.Pod;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ./gauntlet run --kubernetes}: a whole suite with no cluster ({@link MockCluster}): each target a pod whose
 * real command runs as a local process, each run's load an Indexed Job of real shards, the results collected from
 * them, and the same verdicts, files and report as a suite on one machine.
 */
@Tag("alone") // its shards must start within the common start's lead, its targets within 4 s (KubernetesSuiteCleanupIT
// holds the cases that time nothing)
@Timeout(600)
class KubernetesSuiteIT {
    private static final String SCENARIOS = """
            scenarios:
              - name: open-wait10
                load: { type: open, ratePerSec: 100, interArrival: CONSTANT }
                waitMs: 10
                warmupMs: 500
                durationMs: 2000
              - name: closed-2
                load: { type: closed, connections: 2 }
                warmupMs: 500
                durationMs: 1000
            """;

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
    void aSuiteInTheClusterRecordsWhatALocalSuiteRecordsAndLeavesNothingBehind() throws Exception {
        Path suite = suiteFile(dir, "in-cluster", List.of("dummy"), 2, 30_000);
        MockCluster.Result result = cluster.gauntlet(400, "run", "--suite", suite.toString(), "--results",
                dir.resolve("results").toString(), "--calibration-seconds", "2");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        List<Pod> targetPods = cluster.standIn.barePodsScheduled().stream().filter(pod ->
                TargetPodManifest.TARGET_ROLE.equals(pod.getMetadata().getLabels().get(TargetPodManifest.ROLE_LABEL))).toList();
        assertThatTheTargetPodIsGuaranteedKeptOffTheLoadNodesAndGetsItsTokenFromASecret(targetPods.getLast());
        cluster.standIn.rethrow();
        assertThat(result.stdout()).contains("dummy", "open-wait10", "closed-2", "Report:");
        Path results = onlyChild(dir.resolve("results"));
        JsonNode suiteJson = Json.json().readTree(results.resolve("suite.json").toFile());
        assertThat(suiteJson.at("/suite/placement").asText()).isEqualTo("kubernetes");
        assertThat(suiteJson.at("/environment/isolation/mechanism").asText()).isEqualTo("kubernetes");
        assertThat(suiteJson.at("/environment/isolation/target/cpu").asText()).isEqualTo("1");
        // The calibration between a target node and a load node: its round trip, and the nodes the suite ran on.
        assertThat(suiteJson.at("/platform/path").asText()).matches("node-\\S+ → node-\\S+");
        assertThat(suiteJson.at("/platform/roundTrip/count").asLong()).isPositive();
        assertThat(suiteJson.at("/platform/targetNode/qosClass").asText()).isEqualTo("Guaranteed");
        assertThat(suiteJson.at("/platform/targetNode/cpuModel").asText()).isNotBlank().isNotEqualTo("unknown");
        assertThat(suiteJson.at("/platform/loadNodes/0/cpuModel").asText()).isNotBlank();
        assertThat(suiteJson.at("/platform/loadNodes/0/node").asText()).startsWith("node-");

        JsonNode isolation = Json.json().readTree(results.resolve("runs/dummy/isolation.json").toFile());
        assertThat(isolation.path("qosClass").asText()).isEqualTo("Guaranteed");
        assertThat(isolation.path("node").asText()).startsWith("node-");
        assertThat(Files.readString(results.resolve("runs/dummy/settings.json"))).contains("\"bind\"");
        JsonNode rows = Json.json().readTree(results.resolve("results.json").toFile());
        assertThat(rows).hasSize(2);
        for (JsonNode row : rows) {
            // Whichever verdict: three JVMs and the runner share this machine's two CPUs, and the verdict may say so.
            assertThat(row.path("verdict").asText()).as("%s", row).isIn("ok", "platform-noisy", "not-steady",
                    "generator-limited", "target-overloaded");
            assertThat(row.path("requests").asLong()).as("%s", row).isPositive();
        }
        Path run = results.resolve("runs/dummy/open-wait10/1");
        JsonNode jvm = Json.json().readTree(run.resolve("jvm.json").toFile());
        assertThat(jvm.path("target").path("gcPauses").isObject()).as("the target's recording, copied from its pod: %s", jvm).isTrue();
        assertThat(jvm.path("generator").path("gcPauses").isObject()).as("a shard's recording: %s", jvm).isTrue();
        assertThat(results.resolve("report.html")).exists();

        // Every object the suite created is gone, and so is every process the stand-in ran for it.
        assertThat(cluster.client.pods().inNamespace(MockCluster.NAMESPACE).list().getItems()).isEmpty();
        assertThat(cluster.client.secrets().inNamespace(MockCluster.NAMESPACE).list().getItems()).isEmpty();
        assertThat(cluster.client.batch().v1().jobs().inNamespace(MockCluster.NAMESPACE).list().getItems()).isEmpty();
        assertThat(cluster.client.configMaps().inNamespace(MockCluster.NAMESPACE).list().getItems()).isEmpty();
        assertThat(cluster.standIn.alive()).isZero();

        // The same suite on this machine writes the same files per run (a cluster's adds each shard's directory).
        Path local = Files.writeString(dir.resolve("local.yaml"), "name: local\ntargets: [dummy]\n"
                + "jvm: { generator: [-Dgauntlet.jitWarmup=false] }\n" + SCENARIOS);
        MockCluster.Result here = cluster.gauntlet(300, "run", "--suite", local.toString(), "--results",
                dir.resolve("local").toString(), "--no-calibration");
        assertThat(here.exitCode()).as(here.stderr()).isZero();
        Path localResults = onlyChild(dir.resolve("local"));
        for (String scenario : List.of("open-wait10", "closed-2")) {
            // But capacity.csv: a load split over shards has no one machine whose capacity its windows could be set
            // beside (each shard's directory keeps its own).
            Set<String> localFiles = filesOf(localResults.resolve("runs/dummy/" + scenario + "/1"));
            assertThat(localFiles.remove("capacity.csv")).isTrue();
            assertThat(filesOf(results.resolve("runs/dummy/" + scenario + "/1"))).isEqualTo(localFiles);
        }
        assertThat(filesOf(results.resolve("runs/dummy"), 1)).isEqualTo(filesOf(localResults.resolve("runs/dummy"), 1));

        // And compare takes the two as it takes two local runs: a page, and an exit by its thresholds alone.
        MockCluster.Result compared = cluster.gauntlet(60, "compare", localResults.toString(), results.toString());
        assertThat(compared.exitCode()).as(compared.stderr()).isZero();
        assertThat(results.resolve("compare.html")).exists();
    }

    /** The study's own mix: one target's pod dies mid-run, the next one's image cannot be pulled, the third is measured. */
    @Test
    void aTargetPodKilledMidRunAndAnImageThatCannotBePulledAreNamedInTheirRowsAndTheSuiteGoesOn() throws Exception {
        Predicate<Pod> dummyPod = pod -> "dummy".equals(pod.getMetadata().getLabels().get(TargetPodManifest.TARGET_LABEL));
        cluster.standIn.failImagePull(pod -> "jdk-httpserver-sync".equals(pod.getMetadata().getLabels().get(TargetPodManifest.TARGET_LABEL)));
        Path suite = suiteFile(dir, "failing", List.of("dummy", "jdk-httpserver-sync", "netty-event-loop"), 1, 30_000);
        Thread killer = Thread.ofPlatform().daemon().start(() -> {
            // Mid-run: 1.5 s after the first run's common start (0.5 s of warm-up, 2 s measured), as its ConfigMap records it.
            AtomicReference<Long> startAt = new AtomicReference<>();
            try {
                if (!cluster.standIn.await(() -> {
                    startAt.set(cluster.client.configMaps().inNamespace(MockCluster.NAMESPACE).list().getItems().stream()
                            .map(map -> map.getData() == null ? null : map.getData().get(ShardJob.START_KEY))
                            .filter(Objects::nonNull).map(Long::valueOf).findFirst().orElse(null));
                    return startAt.get() != null;
                }, Duration.ofSeconds(300))) {
                    return;
                }
            } catch (InterruptedException e) {
                return;
            }
            // The kill's moment is the behaviour under test: a sleep until then, not a wait for a signal.
            if (pause(startAt.get() + 1_500 - System.currentTimeMillis())) {
                cluster.standIn.killPod(dummyPod);
            }
        });
        MockCluster.Result result = cluster.gauntlet(400, "run", "--suite", suite.toString(), "--results",
                dir.resolve("results").toString(), "--no-calibration");
        killer.interrupt();

        assertThat(result.exitCode()).as(result.stderr()).isEqualTo(2);
        assertThat(result.stderr()).doesNotContain("Exception").doesNotContain("\tat ")
                .contains("target jdk-httpserver-sync (pod ").contains("did not start: ErrImagePull");
        assertThat(result.stderr().lines().toList().getLast()).startsWith("gauntlet: 2 run(s) failed")
                .contains("dummy · open-wait10: target dummy (pod ").contains("exited with code 137");
        JsonNode rows = Json.json().readTree(onlyChild(dir.resolve("results")).resolve("results.json").toFile());
        assertThat(rows.get(0).path("note").asText()).startsWith("target died");
        assertThat(rows.get(1).path("note").asText()).as("dummy, restarted once for its next scenario")
                .contains("target restarted after it died in open-wait10");
        assertThat(rows.get(1).path("requests").asLong()).isPositive();
        assertThat(rows.get(2).path("target").asText()).isEqualTo("jdk-httpserver-sync");
        assertThat(rows.get(2).path("note").asText()).isEqualTo("target did not start");
        assertThat(rows.get(4).path("target").asText()).isEqualTo("netty-event-loop");
        assertThat(rows.get(4).path("requests").asLong()).isPositive();
        assertThat(cluster.client.pods().inNamespace(MockCluster.NAMESPACE).list().getItems()).isEmpty();
    }

    @Test
    void aShardThatNeverGetsReadyFailsItsRunByNameAndTheSuiteGoesOn() throws Exception {
        cluster.standIn.neverReady(pod -> pod.getMetadata().getLabels().containsKey("job-name"));
        Path suite = suiteFile(dir, "never-ready", List.of("dummy"), 1, 4_000);

        MockCluster.Result result = cluster.gauntlet(300, "run", "--suite", suite.toString(), "--results",
                dir.resolve("results").toString(), "--no-calibration");

        assertThat(result.exitCode()).as(result.stderr()).isEqualTo(2);
        assertThat(result.stderr().lines().toList().getLast()).contains("dummy · open-wait10: ")
                .contains("only 0 of 1 shards were ready after 4 s");
        JsonNode rows = Json.json().readTree(onlyChild(dir.resolve("results")).resolve("results.json").toFile());
        assertThat(rows).hasSize(2);
        assertThat(rows.get(1).path("note").asText()).isEqualTo("run failed");
        assertThat(cluster.client.batch().v1().jobs().inNamespace(MockCluster.NAMESPACE).list().getItems()).isEmpty();
        assertThat(cluster.client.pods().inNamespace(MockCluster.NAMESPACE).list().getItems()).isEmpty();
    }

    /**
     * The built-in server suite, whole, in the stand-in: the issue's own check, too long for every build (about 2 minutes
     * for one target, which a build already near its 20 minutes cannot spare). {@code -Dgauntlet.it.serverSuite=true} runs it.
     */
    @Test
    @EnabledIfSystemProperty(named = "gauntlet.it.serverSuite", matches = "true")
    @Timeout(1_800)
    void theServerSuiteRunsInTheCluster() throws Exception {
        MockCluster.Result result = cluster.gauntlet(1_700, "run", "--suite", "server", "--kubernetes", "--targets", "dummy",
                "--repetitions", "1", "--shards", "2", "--results", dir.resolve("results").toString(), "--calibration-seconds", "2");

        assertThat(result.exitCode()).as(result.stderr()).isZero();
        Path results = onlyChild(dir.resolve("results"));
        assertThat(results.resolve("report.html")).exists();
        assertThat(Json.json().readTree(results.resolve("results.json").toFile())).hasSize(4);
        assertThat(cluster.client.pods().inNamespace(MockCluster.NAMESPACE).list().getItems()).isEmpty();
    }

    /** A target pod as it ran (the API server's first view of a pod has no status yet). */
    private static void assertThatTheTargetPodIsGuaranteedKeptOffTheLoadNodesAndGetsItsTokenFromASecret(Pod pod) {
        Container container = pod.getSpec().getContainers().getFirst();
        assertThat(container.getResources().getRequests()).isEqualTo(container.getResources().getLimits());
        assertThat(container.getResources().getLimits().get("cpu").toString()).isEqualTo("1");
        assertThat(container.getResources().getLimits().get("memory").toString()).isEqualTo("512Mi");
        assertThat(pod.getSpec().getNodeSelector()).containsEntry("gauntlet", "target");
        assertThat(pod.getSpec().getHostNetwork()).isTrue();
        assertThat(pod.getSpec().getActiveDeadlineSeconds()).isPositive();
        assertThat(pod.getSpec().getAffinity().getPodAntiAffinity().getRequiredDuringSchedulingIgnoredDuringExecution()
                .getFirst().getLabelSelector().getMatchLabels()).containsEntry(TargetPodManifest.ROLE_LABEL, TargetPodManifest.LOAD_ROLE);
        assertThat(container.getEnv()).singleElement().satisfies(env -> {
            assertThat(env.getValue()).as("the token is not in the pod's spec").isNull();
            assertThat(env.getValueFrom().getSecretKeyRef().getKey()).isEqualTo(TargetPodManifest.TOKEN_KEY);
        });
        assertThat(container.getCommand()).contains("dev.gauntlet.targets.TargetMain", "-Xmx256m")
                .anySatisfy(arg -> assertThat(arg).startsWith("/opt/gauntlet/targets/dummy/target/"));
        assertThat(pod.getStatus().getQosClass()).isEqualTo("Guaranteed");
    }

    /** A suite of two short scenarios in the cluster: one CPU and 512 MiB per pod, on labelled nodes. */
    static Path suiteFile(Path dir, String name, List<String> targets, int shards, long readyTimeoutMs) throws IOException {
        return Files.writeString(dir.resolve(name + ".yaml"), """
                name: %s
                targets: [%s]
                placement: kubernetes
                kubernetes:
                  image: gauntlet:test
                  shards: %d
                  targetNodes: { gauntlet: target }
                  loadNodes: { gauntlet: load }
                  readyTimeoutMs: %d
                  startLeadMs: 1000
                resources: { target: { cpus: "0", memory: 512m }, generator: { cpus: "0", memory: 512m } }
                jvm: { target: [-Xmx256m] }
                """.formatted(name, String.join(", ", targets), shards, readyTimeoutMs) + SCENARIOS);
    }

    static Path onlyChild(Path dir) throws IOException {
        try (Stream<Path> children = Files.list(dir)) {
            return children.filter(Files::isDirectory).findFirst().orElseThrow();
        }
    }

    /** The files under {@code dir}, by relative path, leaving out the shards' own directories. */
    private static Set<String> filesOf(Path dir) throws IOException {
        return filesOf(dir, Integer.MAX_VALUE);
    }

    private static Set<String> filesOf(Path dir, int depth) throws IOException {
        try (Stream<Path> files = Files.walk(dir, depth)) {
            return files.filter(Files::isRegularFile).map(file -> dir.relativize(file).toString())
                    .filter(path -> !path.matches("p\\d+/.*")).collect(java.util.stream.Collectors.toCollection(TreeSet::new));
        }
    }

    private static boolean pause(long ms) {
        try {
            Thread.sleep(Math.max(0, ms));
            return true;
        } catch (InterruptedException e) {
            return false;
        }
    }
}
