package dev.gauntlet.runner.suite;

import java.util.Locale;
import java.util.Map;

/**
 * How a suite with {@code placement: kubernetes} uses the cluster; every field is optional. What each pod
 * gets comes from the suite's {@link Resources}, as requests equal to limits (Guaranteed QoS): a role's
 * {@code cpus} count its CPUs ({@code "0-1"} is 2), a {@code cpuQuota} is the CPUs it gets instead.
 *
 * <pre>{@code
 * placement: kubernetes
 * kubernetes:
 *   namespace: load                         # default: the kubeconfig's, else default
 *   image: registry.example/gauntlet:0.1.0  # JDK 25, the generator's and the targets' jars (docs/distributed.md)
 *   shards: 2                               # generator pods per load, one per load node
 *   targetNodes: { gauntlet: target }       # node labels a target pod needs
 *   loadNodes: { gauntlet: load }           # node labels a shard needs
 *   readyTimeoutMs: 300000                  # how long a pod may take to be scheduled, pull the image and start
 *   startLeadMs: 5000                       # the shards' common start, this far after the last is ready
 * }</pre>
 */
public record ClusterSettings(String namespace, String image, Integer shards, Map<String, String> targetNodes,
                              Map<String, String> loadNodes, Long readyTimeoutMs, Long startLeadMs) {
    public static final String DEFAULT_IMAGE = "gauntlet:0.1.0";
    public static final int DEFAULT_SHARDS = 2;
    /** The 2016 study's target: 2 vCPUs and 4 GB. */
    static final Resources.RoleResources DEFAULT_TARGET = new Resources.RoleResources("0-1", null, "4g");
    /** A shard of the generator: the study's generator was twice the target, here spread over the shards. */
    static final Resources.RoleResources DEFAULT_SHARD = new Resources.RoleResources("0-1", null, "2g");
    static final int MAX_SHARDS = 64;
    /** Scheduling, pulling the image and the JVM's start: generous on a cluster that pulls a fresh image. */
    static final long DEFAULT_READY_TIMEOUT_MS = 300_000;
    /** Long enough for a pod's annotation to reach its files on a busy node (load --kubernetes' --start-lead). */
    static final long DEFAULT_START_LEAD_MS = 5_000;

    public ClusterSettings {
        image = image == null ? DEFAULT_IMAGE : image;
        shards = shards == null ? DEFAULT_SHARDS : shards;
        Suite.checkRange("kubernetes.shards", shards, 1, MAX_SHARDS);
        readyTimeoutMs = readyTimeoutMs == null ? DEFAULT_READY_TIMEOUT_MS : readyTimeoutMs;
        Suite.checkRange("kubernetes.readyTimeoutMs", readyTimeoutMs, 1_000, 3_600_000);
        startLeadMs = startLeadMs == null ? DEFAULT_START_LEAD_MS : startLeadMs;
        Suite.checkRange("kubernetes.startLeadMs", startLeadMs, 100, 600_000);
        targetNodes = targetNodes == null ? Map.of() : Map.copyOf(targetNodes);
        loadNodes = loadNodes == null ? Map.of() : Map.copyOf(loadNodes);
        if (namespace != null && !namespace.matches("[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?")) {
            throw new IllegalArgumentException("kubernetes.namespace must be a Kubernetes name (lower-case letters, digits"
                    + " and '-'), got '" + namespace + "'");
        }
    }

    public static final ClusterSettings DEFAULTS = new ClusterSettings(null, null, null, null, null, null, null);

    public ClusterSettings withNamespace(String namespace) {
        return new ClusterSettings(namespace, image, shards, targetNodes, loadNodes, readyTimeoutMs, startLeadMs);
    }

    public ClusterSettings withImage(String image) {
        return new ClusterSettings(namespace, image, shards, targetNodes, loadNodes, readyTimeoutMs, startLeadMs);
    }

    public ClusterSettings withShards(int shards) {
        return new ClusterSettings(namespace, image, shards, targetNodes, loadNodes, readyTimeoutMs, startLeadMs);
    }

    /** What one pod requests and is limited to, in Kubernetes' notation. */
    public record PodSize(String cpu, String memory, double cpus) {
        /** {@code 2 CPUs, 4Gi}. */
        public String describe() {
            return cpu + (cpus == 1 ? " CPU" : " CPUs") + ", " + memory;
        }
    }

    /** A target pod's size, from {@code resources.target}, else the 2016 target's. */
    public static PodSize targetPod(Resources resources) {
        return podSize(resources.target(), DEFAULT_TARGET);
    }

    /** A shard's size, from {@code resources.generator}, else two CPUs and 2 GiB. */
    public static PodSize shardPod(Resources resources) {
        return podSize(resources.generator(), DEFAULT_SHARD);
    }

    private static PodSize podSize(Resources.RoleResources given, Resources.RoleResources fallback) {
        String cpus = given.cpus() != null ? given.cpus() : given.cpuQuota() != null ? null : fallback.cpus();
        double count = given.cpuQuota() != null ? given.cpuQuota() : countCpus(cpus);
        String cpu = count == Math.rint(count) ? Long.toString((long) count)
                : Math.round(count * 1000) + "m";
        long bytes = given.memory() != null ? given.memoryBytes() : fallback.memoryBytes();
        return new PodSize(cpu, quantity(bytes), count);
    }

    /** {@code "0,2-3"} → 3. */
    private static int countCpus(String cpuList) {
        int count = 0;
        for (String part : cpuList.split(",")) {
            String[] ends = part.split("-");
            count += ends.length == 2 ? Integer.parseInt(ends[1]) - Integer.parseInt(ends[0]) + 1 : 1;
        }
        return count;
    }

    /** Bytes in the largest binary unit that divides them: {@code 4Gi}, {@code 1536Mi}. */
    private static String quantity(long bytes) {
        for (String unit : new String[]{"Gi", "Mi", "Ki"}) {
            long size = switch (unit) {
                case "Gi" -> 1L << 30;
                case "Mi" -> 1L << 20;
                default -> 1L << 10;
            };
            if (bytes % size == 0) {
                return String.format(Locale.ROOT, "%d%s", bytes / size, unit);
            }
        }
        return Long.toString(bytes);
    }
}
