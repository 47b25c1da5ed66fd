package dev.gauntlet.api;

/**
 * When one shard of a load spread over many machines was ready and when it began, by its own
 * clock; written as {@link RunDirectory#shardStart()} beside the shard's summary.
 *
 * @param index            the shard's index, 0 to {@code shards - 1} (the Job's completion index)
 * @param shards           how many shards the load was split into
 * @param readyAtEpochMs   when its checks passed and it reported ready
 * @param startAtEpochMs   the common start instant every shard was given
 * @param startedAtEpochMs when it began: later than the common start by the shard's own wake-up
 * @param node             the node it ran on ({@value #NODE_VARIABLE}, which its pod sets); null where unknown
 * @param cpuModel         that node's CPU model ({@link CpuModel})
 */
public record ShardStart(int index, int shards, long readyAtEpochMs, long startAtEpochMs, long startedAtEpochMs, String node,
                         String cpuModel) {
    /** The environment variable a shard's pod sets to its node's name (the downward API's {@code spec.nodeName}). */
    public static final String NODE_VARIABLE = "GAUNTLET_NODE";

    /** How late this shard began after the common start, by its own clock. */
    public long startLateMs() {
        return startedAtEpochMs - startAtEpochMs;
    }
}
