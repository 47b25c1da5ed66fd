package dev.gauntlet.loadgen.split;

import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Map;

/**
 * A load spread over many machines, one {@link dev.gauntlet.loadgen.ShardMain} on each, merged into one result:
 * {@code gauntlet load --kubernetes} hands the spec to the runner's implementation, which carries
 * the cluster's client (the generator's own classpath stays lean).
 */
public interface ShardedLoad {
    /**
     * Runs the shards, writes each one's results into {@code outputDir/p<index + 1>} and the merged
     * result into {@code outputDir} (null: a new directory, which it names, since the shards'
     * figures are kept), and returns the merged summary.
     *
     * @param adminToken the target's admin token, which the shards show to reset its counts; null: none (their
     *                   resets are refused). It reaches the shards as a secret, never in the spec
     *
     * @throws GeneratorException when the load cannot start or a shard failed (its results are
     *                            not merged; the others' stay in their directories)
     */
    RunSummary run(LoadSpec spec, Placement placement, String adminToken, Path outputDir, PrintStream progress);

    /**
     * Where the shards run.
     *
     * @param shards       how many shards, one pod each
     * @param namespace    the namespace; null: the kubeconfig's
     * @param image        the image with a JDK and the generator's jars
     * @param nodeSelector labels a load node must carry (empty: any node)
     * @param cpus         CPUs each shard requests and is limited to (Guaranteed QoS)
     * @param memory       memory each shard requests and is limited to, in Kubernetes' notation (e.g. {@code 2Gi})
     * @param startLeadMs  how far ahead of "every shard is ready" the common start is set
     * @param readyTimeoutMs how long every shard may take to be ready (scheduled, its image pulled, its checks
     *                       passed) before the run gives up, nothing measured
     */
    record Placement(int shards, String namespace, String image, Map<String, String> nodeSelector, int cpus,
                     String memory, long startLeadMs, long readyTimeoutMs) {
    }
}
