package dev.gauntlet.runner.kubernetes;

import dev.gauntlet.api.AdminToken;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.loadgen.failure.GeneratorException;
import dev.gauntlet.loadgen.split.ShardedLoad;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.execution.SuiteGenerator;
import dev.gauntlet.runner.execution.SuiteTargets;
import dev.gauntlet.runner.suite.ClusterSettings;
import dev.gauntlet.runner.suite.Suite;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;

import java.io.PrintStream;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;

/**
 * A suite with {@code placement: kubernetes}: its targets as pods ({@link TargetPods}), its loads as Indexed Jobs
 * ({@link ShardedGenerator}), its calibration between a target node and a load node ({@link ClusterCalibration}).
 * Every object it creates carries the label {@value TargetPodManifest#SUITE_LABEL}; closing it, or the runner's
 * exit by a signal, deletes them all (each run's Job deletes itself the same way).
 *
 * <pre>{@code
 * try (KubernetesSuite cluster = KubernetesSuite.open(home, catalogue, suite, deadline, System.err)) {
 *     new SuiteRunner(cluster.targets(), cluster.generator(), store, System.err, stopping).run(plan);
 * }
 * }</pre>
 */
public final class KubernetesSuite implements AutoCloseable {
    private static final DateTimeFormatter NAME_TIME = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT);

    private final KubernetesClient client;
    private final String namespace;
    private final String id;
    private final ClusterSettings settings;
    private final TargetPods targets;
    private final ShardedGenerator generator;
    private final ShardedLoad.Placement shards;
    private final ClusterSettings.PodSize targetSize;
    private final Thread cleanUp;
    private volatile boolean deleted;

    private KubernetesSuite(KubernetesClient client, String namespace, String id, ClusterSettings settings,
                            TargetPods targets, ShardedLoad.Placement shards, ClusterSettings.PodSize targetSize) {
        this.client = client;
        this.namespace = namespace;
        this.id = id;
        this.settings = settings;
        this.targets = targets;
        this.shards = shards;
        this.generator = new ShardedGenerator(new KubernetesLoad(), shards);
        this.targetSize = targetSize;
        this.cleanUp = new Thread(this::deleteAll, "gauntlet-kubernetes-suite-cleanup");
        Runtime.getRuntime().addShutdownHook(cleanUp);
    }

    /**
     * Connects to the kubeconfig's cluster, checks the runner may create pods in the namespace, and creates the
     * suite's Secret and ConfigMap. An unreachable cluster or a refusal is a one-line {@link UserError}.
     *
     * @param lifetime how long the suite may run at most: no pod of it outlives this, should the runner be killed
     */
    public static KubernetesSuite open(GauntletHome home, TargetCatalogue catalogue, Suite suite, Duration lifetime,
                                       PrintStream progress) {
        ClusterSettings settings = suite.kubernetes();
        KubernetesClient client;
        try {
            client = KubernetesLoad.connect();
        } catch (GeneratorException e) {
            throw new UserError(e.getMessage());
        }
        try {
            String namespace = settings.namespace() != null ? settings.namespace()
                    : Objects.requireNonNullElse(client.getNamespace(), "default");
            try {
                client.pods().inNamespace(namespace).list();
            } catch (KubernetesClientException e) {
                throw new UserError("cannot list pods in namespace " + namespace + " at " + client.getMasterUrl() + ": "
                        + KubernetesLoad.oneLine(e) + "; check the kubeconfig's cluster and the runner's RBAC (docs/distributed.md)");
            }
            String id = String.format(Locale.ROOT, "gauntlet-%s-%04x", LocalDateTime.now().format(NAME_TIME),
                    ThreadLocalRandom.current().nextInt(0x10000));
            String token = AdminToken.fresh();
            client.secrets().inNamespace(namespace).resource(TargetPodManifest.tokenSecret(id, id, token)).create();
            client.configMaps().inNamespace(namespace).resource(TargetPodManifest.jfrSettings(id, id)).create();
            ClusterSettings.PodSize targetSize = ClusterSettings.targetPod(suite.resources());
            ClusterSettings.PodSize shardSize = ClusterSettings.shardPod(suite.resources());
            TargetPods targets = new TargetPods(client, namespace, id, home, catalogue, suite.jvm()::forTarget, settings,
                    targetSize, id, token, settings.readyTimeoutMs(), lifetime.toSeconds(), progress);
            ShardedLoad.Placement shards = new ShardedLoad.Placement(settings.shards(), namespace, settings.image(),
                    settings.loadNodes(), (int) Math.ceil(shardSize.cpus()), shardSize.memory(), settings.startLeadMs(),
                    settings.readyTimeoutMs());
            progress.printf(Locale.ROOT, "gauntlet: in namespace %s of %s as %s: targets as pods (%s), loads over %d shards "
                    + "(%s each), image %s%n", namespace, client.getMasterUrl(), id, targetSize.describe(), settings.shards(),
                    shardSize.describe(), settings.image());
            return new KubernetesSuite(client, namespace, id, settings, targets, shards, targetSize);
        } catch (KubernetesClientException e) {
            client.close();
            throw new UserError("the Kubernetes API failed: " + KubernetesLoad.oneLine(e));
        } catch (RuntimeException e) {
            client.close();
            throw e;
        }
    }

    public SuiteTargets targets() {
        return targets;
    }

    public SuiteGenerator generator() {
        return generator;
    }

    /** CPUs a target pod gets: what the suite's scaling rule divides by. */
    public double targetCpus() {
        return targetSize.cpus();
    }

    /** The CPUs of the pods, for the suite's header: {@code 2 per target pod, 2 per shard × 2}. */
    public String summary() {
        return String.format(Locale.ROOT, "%s per target pod, %s per shard × %d (pods' requests = limits)", targetSize.cpu(),
                shards.cpus(), shards.shards());
    }

    /** The placement as {@code suite.json}'s environment records it (the nodes are in the calibration's record). */
    public Map<String, Object> describe() {
        Map<String, Object> target = new LinkedHashMap<>();
        target.put("cpu", targetSize.cpu());
        target.put("memory", targetSize.memory());
        target.put("nodeSelector", settings.targetNodes());
        Map<String, Object> load = new LinkedHashMap<>();
        load.put("shards", shards.shards());
        load.put("cpu", shards.cpus());
        load.put("memory", shards.memory());
        load.put("nodeSelector", settings.loadNodes());
        Map<String, Object> placement = new LinkedHashMap<>();
        placement.put("mechanism", "kubernetes");
        placement.put("cluster", client.getMasterUrl().toString());
        placement.put("namespace", namespace);
        placement.put("image", settings.image());
        placement.put("network", Map.of("mode", "host network of the nodes"));
        placement.put("target", target);
        placement.put("generator", load);
        return placement;
    }

    /** The round trip between a target node and a load node, and each side's stalls; or why it could not be had. */
    public Object calibrate(Duration duration, PrintStream progress) {
        progress.printf("gauntlet: measuring the cluster's noise floor for %d s between a target node and a load node"
                + " (skip it with --no-calibration) ...%n", duration.toSeconds());
        try {
            // One connection is one shard's: the round trip from one load node, the first the scheduler picks.
            ShardedLoad.Placement one = new ShardedLoad.Placement(1, shards.namespace(), shards.image(), shards.nodeSelector(),
                    shards.cpus(), shards.memory(), shards.startLeadMs(), shards.readyTimeoutMs());
            ClusterCalibration.ClusterFloor floor = new ClusterCalibration(targets, new ShardedGenerator(new KubernetesLoad(), one))
                    .measure(duration);
            progress.println(floor.describe());
            return floor;
        } catch (UserError e) {
            progress.println("platform: not calibrated: " + e.getMessage());
            return Map.of("failed", e.getMessage());
        }
    }

    /** Deletes every pod of the suite that is left, its Secret and its ConfigMap. */
    @Override
    public void close() {
        deleteAll();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanUp);
        } catch (IllegalStateException shuttingDown) {
            // The hook is deleting them as the runner exits.
        }
        client.close();
    }

    private synchronized void deleteAll() {
        if (deleted) {
            return;
        }
        deleted = true;
        try {
            client.pods().inNamespace(namespace).withLabel(TargetPodManifest.SUITE_LABEL, id).delete();
            client.secrets().inNamespace(namespace).withName(id).delete();
            client.configMaps().inNamespace(namespace).withName(id).delete();
        } catch (KubernetesClientException e) {
            System.err.println("gauntlet: could not delete the suite's pods, Secret and ConfigMap in namespace " + namespace + ": "
                    + KubernetesLoad.oneLine(e) + "; delete them with kubectl delete pod,secret,configmap -l "
                    + TargetPodManifest.SUITE_LABEL + "=" + id);
        }
    }
}
