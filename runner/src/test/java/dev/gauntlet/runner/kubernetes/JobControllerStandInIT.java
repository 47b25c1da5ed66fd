package dev.gauntlet.runner.kubernetes;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.ContainerState;
import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.PodSpecBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The stand-in's kubelet for pods created directly, as the suite's targets are: scheduling, volumes,
 * environment, probes, logs, exits and the hooks that break them. Small shell commands, no JVMs.
 */
@Timeout(60)
class JobControllerStandInIT {
    private static final String NAMESPACE = MockCluster.NAMESPACE;

    @TempDir
    Path dir;
    private MockCluster mock;
    private KubernetesClient client;
    private JobControllerStandIn cluster;

    @BeforeEach
    void start() throws IOException {
        mock = new MockCluster(dir);
        client = mock.client;
        cluster = mock.standIn;
    }

    @AfterEach
    void stop() {
        mock.close();
    }

    @Test
    void aBarePodIsScheduledRunsWithItsVolumesAndEnvironmentAndEnds() throws Exception {
        client.secrets().inNamespace(NAMESPACE).resource(new SecretBuilder().withNewMetadata()
                .withName("token").endMetadata().addToStringData("admin-token", "s3cret").build()).create();
        client.configMaps().inNamespace(NAMESPACE).resource(new ConfigMapBuilder()
                .withNewMetadata().withName("settings").endMetadata().addToData("greeting", "hello").build()).create();
        Map<String, Quantity> resources = Map.of("cpu", new Quantity("1"), "memory", new Quantity("64Mi"));
        create(new PodBuilder().withNewMetadata().withName("bare").endMetadata().withNewSpec()
                .addNewContainer().withName("target").withImage("target:test").withCommand("sh", "-c")
                .withArgs("echo \"$TOKEN $NODE\"; cat /etc/settings/greeting; echo; test -d /scratch")
                .addNewEnv().withName("TOKEN").withNewValueFrom().withNewSecretKeyRef().withName("token").withKey("admin-token")
                    .endSecretKeyRef().endValueFrom().endEnv()
                .addNewEnv().withName("NODE").withNewValueFrom().withNewFieldRef().withFieldPath("spec.nodeName")
                    .endFieldRef().endValueFrom().endEnv()
                .addNewEnv().withName("ABSENT").withNewValueFrom().withNewSecretKeyRef().withName("none").withKey("k")
                    .withOptional(true).endSecretKeyRef().endValueFrom().endEnv()
                .addNewVolumeMount().withName("settings").withMountPath("/etc/settings").endVolumeMount()
                .addNewVolumeMount().withName("scratch").withMountPath("/scratch").endVolumeMount()
                .withNewResources().withRequests(resources).withLimits(resources).endResources()
                .endContainer()
                .addNewVolume().withName("settings").withNewConfigMap().withName("settings").endConfigMap().endVolume()
                .addNewVolume().withName("scratch").withNewEmptyDir().endEmptyDir().endVolume()
                .endSpec().build());

        Pod pod = awaitPod("bare", p -> "Succeeded".equals(p.getStatus().getPhase()));

        assertThat(pod.getSpec().getNodeName()).startsWith("node-");
        assertThat(pod.getStatus().getHostIP()).isEqualTo("127.0.0.1");
        assertThat(pod.getStatus().getPodIP()).isEqualTo("127.0.0.1");
        assertThat(pod.getStatus().getQosClass()).isEqualTo("Guaranteed");
        assertThat(state(pod).getTerminated().getExitCode()).isZero();
        String log = client.pods().inNamespace(NAMESPACE).withName("bare").inContainer("target").getLog();
        assertThat(log).isEqualTo("s3cret " + pod.getSpec().getNodeName() + "\nhello\n");
        assertThat(client.pods().inNamespace(NAMESPACE).withName("bare").getLog()).isEqualTo(log);
        assertThat(cluster.endedPhases()).containsExactly("Succeeded");
    }

    @Test
    void aReadinessProbeSetsReadyUnlessItNeverPassesAndKilledOrDeletedPodsEnd() throws Exception {
        cluster.neverReady(named("never"));
        create(sleeper("ready"));
        create(sleeper("never"));

        awaitPod("ready", JobControllerStandInIT::isReady);
        Pod never = awaitPod("never", p -> "Running".equals(p.getStatus().getPhase()));
        assertThat(isReady(never)).isFalse();
        assertThat(never.getStatus().getConditions().getFirst().getMessage()).isEqualTo("containers with unready status: [sleeper]");
        assertThat(never.getStatus().getQosClass()).isEqualTo("BestEffort");

        cluster.killPod(named("ready"));
        Pod killed = awaitPod("ready", p -> "Failed".equals(p.getStatus().getPhase()));
        assertThat(state(killed).getTerminated().getExitCode()).isEqualTo(137);

        client.pods().inNamespace(NAMESPACE).withName("never").delete();
        // SIGTERM ends sleep at once; the 5 s grace is the SIGKILL's.
        assertThat(cluster.await(() -> cluster.alive() == 0, Duration.ofSeconds(10))).isTrue();
        assertThat(cluster.endedPhases()).containsExactly("Failed");
    }

    @Test
    void aPodWhoseImageCannotBePulledStaysPendingAndNeverRuns() throws Exception {
        cluster.failImagePull(named("unpullable"));
        create(sleeper("unpullable"));

        Pod pod = awaitPod("unpullable", p -> state(p) != null && state(p).getWaiting() != null
                && "ErrImagePull".equals(state(p).getWaiting().getReason()));

        assertThat(pod.getStatus().getPhase()).isEqualTo("Pending");
        assertThat(state(pod).getWaiting().getMessage()).contains("pull access denied");
        assertThat(cluster.alive()).isZero();
    }

    @Test
    void theQosClassFollowsRequestsAndLimits() {
        assertThat(JobControllerStandIn.qosClass(spec(Map.of("cpu", "1", "memory", "1Gi"), Map.of("cpu", "1", "memory", "1Gi"))))
                .isEqualTo("Guaranteed");
        assertThat(JobControllerStandIn.qosClass(spec(Map.of(), Map.of("cpu", "1000m", "memory", "1Gi"))))
                .as("requests left out are the limits").isEqualTo("Guaranteed");
        assertThat(JobControllerStandIn.qosClass(spec(Map.of("cpu", "500m", "memory", "1Gi"), Map.of("cpu", "1", "memory", "1Gi"))))
                .isEqualTo("Burstable");
        assertThat(JobControllerStandIn.qosClass(spec(Map.of("cpu", "1"), Map.of()))).isEqualTo("Burstable");
        assertThat(JobControllerStandIn.qosClass(spec(Map.of(), Map.of()))).isEqualTo("BestEffort");
    }

    private static PodSpec spec(Map<String, String> requests, Map<String, String> limits) {
        return new PodSpecBuilder().addNewContainer().withName("c").withNewResources()
                .withRequests(quantities(requests)).withLimits(quantities(limits)).endResources().endContainer().build();
    }

    private static Map<String, Quantity> quantities(Map<String, String> amounts) {
        Map<String, Quantity> quantities = new HashMap<>();
        amounts.forEach((resource, amount) -> quantities.put(resource, new Quantity(amount)));
        return quantities;
    }

    private static Pod sleeper(String name) {
        return new PodBuilder().withNewMetadata().withName(name).endMetadata().withNewSpec()
                .addNewContainer().withName("sleeper").withImage("sleeper:test").withCommand("sleep", "30")
                .withNewReadinessProbe().withNewExec().withCommand("true").endExec().withPeriodSeconds(1).endReadinessProbe()
                .endContainer().endSpec().build();
    }

    private void create(Pod pod) {
        client.pods().inNamespace(NAMESPACE).resource(pod).create();
    }

    /** The stand-in's steps are the signal: the API is read after each until the pod is so, 20 s at most. */
    private Pod awaitPod(String name, Predicate<Pod> condition) throws InterruptedException {
        AtomicReference<Pod> last = new AtomicReference<>();
        boolean so = cluster.await(() -> {
            Pod pod = client.pods().inNamespace(NAMESPACE).withName(name).get();
            last.set(pod);
            return pod != null && pod.getStatus() != null && condition.test(pod);
        }, Duration.ofSeconds(20));
        if (!so) {
            throw new AssertionError("pod " + name + " not so within 20 s: " + last.get());
        }
        return last.get();
    }

    private static Predicate<Pod> named(String name) {
        return pod -> pod.getMetadata().getName().equals(name);
    }

    private static boolean isReady(Pod pod) {
        return pod.getStatus().getConditions() != null && pod.getStatus().getConditions().stream()
                .anyMatch(c -> "Ready".equals(c.getType()) && "True".equals(c.getStatus()));
    }

    private static ContainerState state(Pod pod) {
        List<ContainerStatus> statuses = pod.getStatus().getContainerStatuses();
        return statuses == null || statuses.isEmpty() ? null : statuses.getFirst().getState();
    }
}
