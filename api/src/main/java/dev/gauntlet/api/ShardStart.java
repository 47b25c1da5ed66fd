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
 */
public record ShardStart(int index, int shards, long readyAtEpochMs, long startAtEpochMs, long startedAtEpochMs) {
    /** How late this shard began after the common start, by its own clock. */
    public long startLateMs() {
        return startedAtEpochMs - startAtEpochMs;
    }
}
