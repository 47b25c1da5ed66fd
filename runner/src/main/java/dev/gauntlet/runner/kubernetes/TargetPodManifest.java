package dev.gauntlet.runner.kubernetes;

import dev.gauntlet.api.AdminToken;
import dev.gauntlet.runner.metrics.JfrRecording;
import dev.gauntlet.runner.suite.ClusterSettings;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;

import java.util.List;
import java.util.Map;

/**
 * The objects a suite's targets are in the cluster: one Secret per suite with the targets' admin token, one
 * ConfigMap per suite with the JFR settings, both named as the suite, and one Pod per target JVM.
 *
 * <ul>
 *   <li>requests equal to limits (Guaranteed QoS: exclusive CPUs under the kubelet's static CPU manager), the
 *       suite's {@code kubernetes.targetNodes} as node selector, and a required anti-affinity to the shards'
 *       label {@value #ROLE_LABEL}={@value #LOAD_ROLE}: the scheduler honours it both ways, so no shard lands on
 *       a target's node, whichever was scheduled first;</li>
 *   <li>host networking, as the shards have: no overlay or NAT between generator and target, and ports chosen by
 *       the target itself (port 0), which it prints with its READY line in its log;</li>
 *   <li>its JFR recording kept in the JVM, with the runner's settings from the suite's ConfigMap, from which the
 *       runner copies each run's window over the admin port;</li>
 *   <li>an end of its own: {@code activeDeadlineSeconds} as long as the suite may run, should the runner be killed
 *       before it deletes the pod; a pod never restarts ({@code restartPolicy: Never}): a target that died is
 *       recorded as such, and the suite starts it afresh, once, as on one machine;</li>
 *   <li>the least privilege a JVM needs ({@link LeastPrivilege}), as the shards'.</li>
 * </ul>
 */
final class TargetPodManifest {
    static final String SUITE_LABEL = "gauntlet.dev/suite";
    static final String ROLE_LABEL = "gauntlet.dev/role";
    static final String TARGET_ROLE = "target";
    static final String LOAD_ROLE = "load";
    static final String TARGET_LABEL = "gauntlet.dev/target";
    static final String CONTAINER = "target";
    static final String TOKEN_KEY = "admin-token";
    /** Where the image keeps the checkout's built modules, as {@code <module>/target/*.jar} (docs/distributed.md). */
    static final String IMAGE_ROOT = "/opt/gauntlet";
    static final String JFR_SETTINGS = "gauntlet.jfc";
    /** Where a target pod finds the runner's JFR settings: the suite's ConfigMap, so the image need not carry them. */
    static final String JFR_DIR = "/etc/gauntlet/jfr";
    private static final long STOP_GRACE_SEC = 5;

    private TargetPodManifest() {
    }

    /** The suite's JFR settings, which every target pod mounts. */
    static ConfigMap jfrSettings(String name, String suiteId) {
        return new ConfigMapBuilder().withNewMetadata().withName(name).addToLabels(SUITE_LABEL, suiteId).endMetadata()
                .addToData(JFR_SETTINGS, JfrRecording.settingsText()).build();
    }

    static Secret tokenSecret(String name, String suiteId, String token) {
        return new SecretBuilder().withNewMetadata().withName(name).addToLabels(SUITE_LABEL, suiteId).endMetadata()
                .addToStringData(TOKEN_KEY, token).build();
    }

    /**
     * @param command         the target JVM's command, with the image's paths
     * @param suiteObjects    the suite's Secret holding the admin token, given to the JVM in its environment, and its
     *                        ConfigMap holding the JFR settings, mounted
     * @param activeDeadlineSec the pod's whole life at most
     */
    static Pod pod(String name, String suiteId, String target, ClusterSettings settings, ClusterSettings.PodSize size,
                   List<String> command, String suiteObjects, long activeDeadlineSec) {
        Map<String, Quantity> resources = Map.of("cpu", new Quantity(size.cpu()), "memory", new Quantity(size.memory()));
        return new PodBuilder()
                .withNewMetadata().withName(name)
                    .addToLabels(SUITE_LABEL, suiteId).addToLabels(ROLE_LABEL, TARGET_ROLE).addToLabels(TARGET_LABEL, target)
                .endMetadata()
                .withNewSpec()
                    .withRestartPolicy("Never").withActiveDeadlineSeconds(activeDeadlineSec)
                    .withTerminationGracePeriodSeconds(STOP_GRACE_SEC)
                    .withAutomountServiceAccountToken(false)
                    .withSecurityContext(LeastPrivilege.pod())
                    .withHostNetwork(true).withDnsPolicy("ClusterFirstWithHostNet")
                    .withNodeSelector(NodeChoice.selector(settings.targetNodes()))
                    .withAffinity(NodeChoice.awayFrom(ROLE_LABEL, LOAD_ROLE))
                    .addNewContainer().withName(CONTAINER).withImage(settings.image()).withCommand(command)
                        .addNewEnv().withName(AdminToken.VARIABLE).withNewValueFrom().withNewSecretKeyRef()
                            .withName(suiteObjects).withKey(TOKEN_KEY).endSecretKeyRef().endValueFrom().endEnv()
                        .addNewVolumeMount().withName("jfr").withMountPath(JFR_DIR).withReadOnly(true).endVolumeMount()
                        .withSecurityContext(LeastPrivilege.container())
                        .withNewResources().withRequests(resources).withLimits(resources).endResources()
                    .endContainer()
                    .addNewVolume().withName("jfr").withNewConfigMap().withName(suiteObjects).endConfigMap().endVolume()
                .endSpec()
                .build();
    }
}
