package dev.gauntlet.loadgen.split;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class LoadSharesTest {
    private static final URI URL = URI.create("http://127.0.0.1:1/hello");

    @Test
    void sharesAddUpToTheWhole() {
        LoadSpec closed = LoadSpec.of(URL, new LoadModel.ClosedLoop(10)).toBuilder().processes(3).maxRequests(100).build();
        List<LoadSpec> shares = List.of(LoadShares.share(closed, 0), LoadShares.share(closed, 1), LoadShares.share(closed, 2));
        assertThat(shares).extracting(LoadSpec::model).containsExactly(
                new LoadModel.ClosedLoop(4), new LoadModel.ClosedLoop(3), new LoadModel.ClosedLoop(3));
        assertThat(shares).extracting(LoadSpec::maxRequests).containsExactly(34L, 33L, 33L);
        assertThat(shares).extracting(LoadSpec::processes).containsOnly(1);
        assertThat(shares).extracting(LoadSpec::seed).doesNotHaveDuplicates();

        LoadSpec open = LoadSpec.of(URL, new LoadModel.OpenLoop(30_000, LoadModel.InterArrival.EXPONENTIAL)).toBuilder().processes(3).build();
        assertThat(((LoadModel.OpenLoop) LoadShares.share(open, 2).model()).ratePerSec()).isEqualTo(10_000);
        LoadSpec pool = LoadSpec.of(URL, LoadModel.OpenLoop.fixedPool(30_000, LoadModel.InterArrival.EXPONENTIAL, 100))
                .toBuilder().processes(3).build();
        assertThat(List.of(LoadShares.share(pool, 0), LoadShares.share(pool, 1), LoadShares.share(pool, 2)))
                .extracting(LoadSpec::model).containsExactly(
                        LoadModel.OpenLoop.fixedPool(10_000, LoadModel.InterArrival.EXPONENTIAL, 34),
                        LoadModel.OpenLoop.fixedPool(10_000, LoadModel.InterArrival.EXPONENTIAL, 33),
                        LoadModel.OpenLoop.fixedPool(10_000, LoadModel.InterArrival.EXPONENTIAL, 33));

        LoadSpec tooFew = LoadSpec.of(URL, new LoadModel.ClosedLoop(2)).toBuilder().processes(3).build();
        assertThatThrownBy(() -> LoadShares.share(tooFew, 2)).hasMessage("2 connections cannot be split over 3 processes");
    }

    @Test
    void constantRateSharesOfSharesInterleaveEvenlyAndNoTwoDrawTheSameSeed() {
        // 300 requests/s over 3 shards × 2 processes × 2 engine threads: 12 schedules of 25/s each.
        LoadSpec whole = LoadSpec.of(URL, new LoadModel.OpenLoop(300, LoadModel.InterArrival.CONSTANT)).toBuilder()
                .processes(2).threads(2).build();
        List<LoadSpec> leaves = new ArrayList<>();
        for (int shard = 0; shard < 3; shard++) {
            LoadSpec shardSpec = LoadShares.shard(whole, shard, 3);
            assertThat(shardSpec.processes()).isEqualTo(2);
            for (int process = 0; process < 2; process++) {
                LoadSpec processSpec = LoadShares.share(shardSpec, process);
                for (int thread = 0; thread < 2; thread++) {
                    leaves.add(LoadShares.cut(processSpec, thread, 2));
                }
            }
        }
        assertThat(leaves).extracting(leaf -> ((LoadModel.OpenLoop) leaf.model()).ratePerSec()).containsOnly(25.0);
        // Each leaf's first start is its offset, then one every 40 ms: together, one every 1/300 s.
        long[] offsets = leaves.stream().mapToLong(LoadSpec::startOffsetNs).sorted().toArray();
        for (int i = 0; i < offsets.length; i++) {
            assertThat((double) offsets[i]).as("offset %d", i).isCloseTo(i * 1e9 / 300, within(2.0));
        }
        assertThat(leaves).extracting(LoadSpec::seed).doesNotHaveDuplicates();

        LoadSpec exponential = LoadSpec.of(URL, new LoadModel.OpenLoop(300, LoadModel.InterArrival.EXPONENTIAL));
        assertThat(LoadShares.cut(exponential, 2, 3).startOffsetNs()).isZero();
    }
}
