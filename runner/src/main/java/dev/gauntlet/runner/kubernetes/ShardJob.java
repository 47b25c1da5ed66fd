package dev.gauntlet.runner.kubernetes;

import com.fasterxml.jackson.core.JsonProcessingException;
import dev.gauntlet.api.AdminToken;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.ShardStart;
import dev.gauntlet.loadgen.ShardMain;
import dev.gauntlet.loadgen.split.ShardedLoad;
import dev.gauntlet.runner.metrics.JfrRecording;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.OwnerReference;
import io.fabric8.kubernetes.api.model.OwnerReferenceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The objects a sharded load is in the cluster: a ConfigMap with the whole load's spec, a Secret with
 * the target's admin token (when there is one), and an Indexed Job of one pod per shard that runs
 * {@link ShardMain} on them.
 *
 * <ul>
 *   <li>{@code completionMode: Indexed}, as many completions as shards, all at once: the pod's index
 *       ({@code JOB_COMPLETION_INDEX}) is its shard;</li>
 *   <li>{@code backoffLimitPerIndex: 0} and a pod-failure policy that fails the index on
 *       {@link ShardMain#MISSED_START}: a failed shard is never run again (late, it would distort
 *       the offered load), while the others run on, so their results are kept;</li>
 *   <li>the readiness probe looks for the shard's ready file, written once its checks passed; the
 *       runner then writes the common start into the ConfigMap and into each pod's annotation
 *       {@value #START_AT}, which the pod reads from a downward-API file (a pod's annotations reach
 *       its files at once; a ConfigMap's only at the kubelet's next sync, up to a minute later); its
 *       annotation {@value #COLLECTED}, set once the runner has copied the shard's results out, ends it
 *       the same way;</li>
 *   <li>the JVM records JFR ({@value ShardMain#RECORDING}, with the runner's {@value #JFR_SETTINGS} from the
 *       ConfigMap), which the shard dumps among its results as its {@code generator.jfr};</li>
 *   <li>the admin token in the environment from the Secret's key {@value #ADMIN_TOKEN_KEY}, optional: the
 *       secret stays out of the spec, the ConfigMap and the pod's own manifest;</li>
 *   <li>one shard per node (a required anti-affinity on the run's label), the label {@code gauntlet.dev/role=load}, which
 *       keeps a suite's target pods off the shards' nodes ({@link TargetPodManifest}), its node's name in its
 *       environment (recorded in {@code shard.json}), host networking (so the shard's results port is
 *       on its node's address, where the runner fetches them), and
 *       requests equal to limits, for Guaranteed QoS (pinned CPUs under the static CPU manager);</li>
 *   <li>the least a generator needs ({@link LeastPrivilege}): a non-root user, no privilege escalation, no capabilities, the
 *       runtime's default seccomp profile and no service-account token, which meets the
 *       {@code restricted} Pod Security Standard in all but host networking (only {@code privileged}
 *       allows that); and an end: the Job's {@code activeDeadlineSeconds}, and its deletion
 *       {@value #TTL_AFTER_FINISHED_SEC} s after it finished, should the runner not delete it, the ConfigMap and
 *       the Secret with it ({@link #ownedBy}).</li>
 * </ul>
 */
final class ShardJob {
    static final String START_AT = "gauntlet.dev/start-at";
    static final String COLLECTED = "gauntlet.dev/collected";
    static final String RUN_LABEL = "gauntlet.dev/run";
    static final String SPEC_KEY = "spec.json";
    static final String START_KEY = "start-at";
    static final String COLLECTED_KEY = "collected";
    static final String ADMIN_TOKEN_KEY = "admin-token";
    /** The JFR settings of every JVM the runner starts, carried to the shards in the ConfigMap. */
    static final String JFR_SETTINGS = "gauntlet.jfc";
    static final String CONTAINER = "generator";
    /** Where the image keeps the generator's jars (docs/distributed.md builds it so). */
    static final String IMAGE_LIB = "/opt/gauntlet/lib";
    static final String SPEC_DIR = "/etc/gauntlet/spec";
    static final String CONTROL_DIR = "/etc/gauntlet/control";
    static final String RESULTS_DIR = "/results";
    private static final String READY_FILE = RESULTS_DIR + "/.ready";
    private static final String INDEX_ANNOTATION = "batch.kubernetes.io/job-completion-index";
    /** A finished Job's life, when the runner was killed before deleting it: long enough to read its pods' logs. */
    private static final int TTL_AFTER_FINISHED_SEC = 600;

    private ShardJob() {
    }

    static ConfigMap configMap(String name, LoadSpec spec) {
        try {
            return new ConfigMapBuilder().withNewMetadata().withName(name).addToLabels(RUN_LABEL, name).endMetadata()
                    .addToData(SPEC_KEY, Json.json().writeValueAsString(spec))
                    .addToData(JFR_SETTINGS, JfrRecording.settingsText()).build();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a spec that cannot be written as JSON: " + e.getMessage(), e);
        }
    }

    /** The target's admin token, for the shards' environment. */
    static Secret adminToken(String name, String token) {
        return new SecretBuilder().withNewMetadata().withName(name).addToLabels(RUN_LABEL, name).endMetadata()
                .addToStringData(ADMIN_TOKEN_KEY, token).build();
    }

    /**
     * {@code job} as the owner of the ConfigMap and the Secret, which are created before it (its pods need them):
     * the cluster's garbage collector deletes them with the Job, also when its TTL does, after a runner killed
     * outright.
     */
    static OwnerReference ownedBy(Job job) {
        return new OwnerReferenceBuilder().withApiVersion("batch/v1").withKind("Job").withName(job.getMetadata().getName())
                .withUid(job.getMetadata().getUid()).build();
    }

    /**
     * @param activeDeadlineSec the Job's whole life at most, from its start: as long as the runner waits for
     *                          it, so that the shards of a runner killed before its clean-up end all the same
     */
    static Job job(String name, ShardedLoad.Placement placement, long activeDeadlineSec) {
        Map<String, Quantity> resources = Map.of("cpu", new Quantity(Integer.toString(placement.cpus())),
                "memory", new Quantity(placement.memory()));
        List<String> command = new ArrayList<>(List.of("java", "-XX:+ExitOnOutOfMemoryError", "-XX:MaxRAMPercentage=75"));
        command.addAll(JfrRecording.recordingIn(ShardMain.RECORDING, SPEC_DIR + "/" + JFR_SETTINGS));
        command.addAll(List.of("-cp", IMAGE_LIB + "/*", ShardMain.class.getName(),
                "--spec", SPEC_DIR + "/" + SPEC_KEY, "--shards", Integer.toString(placement.shards()),
                "--ready-file", READY_FILE, "--start-file", CONTROL_DIR + "/" + START_KEY,
                "--collected-file", CONTROL_DIR + "/" + COLLECTED_KEY, "--output", RESULTS_DIR));
        return new JobBuilder()
                .withNewMetadata().withName(name).addToLabels(RUN_LABEL, name).endMetadata()
                .withNewSpec()
                    .withCompletionMode("Indexed").withCompletions(placement.shards()).withParallelism(placement.shards())
                    .withBackoffLimitPerIndex(0)
                    .withActiveDeadlineSeconds(activeDeadlineSec).withTtlSecondsAfterFinished(TTL_AFTER_FINISHED_SEC)
                    .withNewPodFailurePolicy()
                        .addNewRule().withAction("FailIndex")
                            .withNewOnExitCodes().withContainerName(CONTAINER).withOperator("In")
                                .withValues(ShardMain.MISSED_START).endOnExitCodes()
                        .endRule()
                    .endPodFailurePolicy()
                    .withNewTemplate()
                        .withNewMetadata().addToLabels(RUN_LABEL, name)
                            .addToLabels(TargetPodManifest.ROLE_LABEL, TargetPodManifest.LOAD_ROLE).endMetadata()
                        .withNewSpec()
                            .withRestartPolicy("Never")
                            .withAutomountServiceAccountToken(false)
                            .withSecurityContext(LeastPrivilege.pod())
                            .withHostNetwork(true).withDnsPolicy("ClusterFirstWithHostNet")
                            .withNodeSelector(NodeChoice.selector(placement.nodeSelector()))
                            .withAffinity(NodeChoice.awayFrom(RUN_LABEL, name))
                            .addNewContainer().withName(CONTAINER).withImage(placement.image()).withCommand(command)
                                .addNewEnv().withName(ShardMain.INDEX_VARIABLE).withNewValueFrom().withNewFieldRef()
                                    .withFieldPath("metadata.annotations['" + INDEX_ANNOTATION + "']")
                                .endFieldRef().endValueFrom().endEnv()
                                .addNewEnv().withName(ShardStart.NODE_VARIABLE).withNewValueFrom().withNewFieldRef()
                                    .withFieldPath("spec.nodeName").endFieldRef().endValueFrom().endEnv()
                                .addNewEnv().withName(AdminToken.VARIABLE).withNewValueFrom().withNewSecretKeyRef()
                                    .withName(name).withKey(ADMIN_TOKEN_KEY).withOptional(true)
                                .endSecretKeyRef().endValueFrom().endEnv()
                                .withSecurityContext(LeastPrivilege.container())
                                .withNewResources().withRequests(resources).withLimits(resources).endResources()
                                .withNewReadinessProbe().withNewExec().withCommand("test", "-e", READY_FILE).endExec()
                                    .withPeriodSeconds(1).endReadinessProbe()
                                .addNewVolumeMount().withName("spec").withMountPath(SPEC_DIR).withReadOnly(true).endVolumeMount()
                                .addNewVolumeMount().withName("control").withMountPath(CONTROL_DIR).withReadOnly(true).endVolumeMount()
                                .addNewVolumeMount().withName("results").withMountPath(RESULTS_DIR).endVolumeMount()
                            .endContainer()
                            .addNewVolume().withName("spec").withNewConfigMap().withName(name).endConfigMap().endVolume()
                            .addNewVolume().withName("control").withNewDownwardAPI().addNewItem().withPath(START_KEY)
                                .withNewFieldRef().withFieldPath("metadata.annotations['" + START_AT + "']").endFieldRef()
                            .endItem().addNewItem().withPath(COLLECTED_KEY)
                                .withNewFieldRef().withFieldPath("metadata.annotations['" + COLLECTED + "']").endFieldRef()
                            .endItem().endDownwardAPI().endVolume()
                            .addNewVolume().withName("results").withNewEmptyDir().endEmptyDir().endVolume()
                        .endSpec()
                    .endTemplate()
                .endSpec()
                .build();
    }

    /** The shard a pod of the Job runs: its completion index. */
    static int indexOf(Pod pod) {
        return Integer.parseInt(pod.getMetadata().getAnnotations().get(INDEX_ANNOTATION));
    }
}
