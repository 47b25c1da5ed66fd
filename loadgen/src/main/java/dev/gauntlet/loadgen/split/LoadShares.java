package dev.gauntlet.loadgen.split;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.loadgen.failure.GeneratorException;

/**
 * How one load is cut into shares: shards (pods) into processes into engine threads, each share a
 * {@link LoadSpec} of its own. Shares differ by one connection or request at most, and add up to
 * the whole.
 *
 * <pre>{@code
 * LoadSpec shard = LoadShares.shard(whole, index, shards);     // ShardMain
 * LoadSpec process = LoadShares.share(shard, i);                // MultiProcess, child i of shard.processes()
 * LoadSpec thread = LoadShares.cut(process, t, threads);        // EngineThreads
 * }</pre>
 */
public final class LoadShares {

    private LoadShares() {
    }

    /** Child {@code index}'s share of the load, run with the spec's threads. */
    public static LoadSpec share(LoadSpec spec, int index) {
        return cut(spec, index, spec.processes()).toBuilder().threads(spec.threads()).steady(null)
                .hardCapMs(spec.hardCapMs()).build();
    }

    /** Shard {@code index} of {@code n}: its share, run with the whole load's processes and threads. */
    public static LoadSpec shard(LoadSpec spec, int index, int n) {
        return cut(spec, index, n).toBuilder().processes(spec.processes()).threads(spec.threads()).steady(null)
                .hardCapMs(spec.hardCapMs()).build();
    }

    /**
     * Share {@code index} of {@code n}, for one thread of one process: shares differ by one
     * connection or request at most; each has a seed of its own, distinct however shares are cut
     * again (shards into processes into threads); a constant-rate share {@code index} begins
     * {@code index / rate} after the whole load's start, so the shares' starts interleave evenly
     * instead of arriving as a burst of {@code n}.
     */
    public static LoadSpec cut(LoadSpec spec, int index, int n) {
        try {
            return spec.toBuilder().model(spec.model().share(index, n))
                    .maxConnections(spec.maxConnections() == 0 ? 0
                            : LoadModel.evenShare(spec.maxConnections(), index, n, "max connections"))
                    .maxRequests(spec.maxRequests() == 0 ? 0
                            : Math.max(1, LoadModel.evenShare(spec.maxRequests(), index, n, "requests")))
                    .seed(seedOf(spec.seed(), index))
                    .startOffsetNs(spec.startOffsetNs() + spec.model().shareStartOffsetNs(index))
                    .hardCapMs(spec.hardCapMs())
                    .processes(1)
                    .threads(1)
                    .build();
        } catch (IllegalArgumentException e) {
            throw new GeneratorException(e.getMessage());
        }
    }

    /** SplitMix64's mix of the seed and the share's index: a share of a share never repeats another share's seed. */
    private static long seedOf(long seed, int index) {
        long z = seed + (index + 1) * 0x9E3779B97F4A7C15L;
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
