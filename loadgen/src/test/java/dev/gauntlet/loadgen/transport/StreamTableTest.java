package dev.gauntlet.loadgen.transport;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link StreamTable} against a {@link HashMap} doing the same: random puts, gets and removes, never more streams at once
 * than the table was built for. The ids are odd, as a client's are, and drawn so that many share a home slot: they
 * differ by multiples of 2^20, a multiple of twice any capacity these sizes give (slots are {@code id / 2} modulo
 * the capacity), so removals must shift back clusters that wrap around the table's end.
 */
// A separate thread: a probe loop that never ends fails the test rather than hanging the build.
@Timeout(value = 30, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class StreamTableTest {
    private static final int COLLIDING_STRIDE = 1 << 20;

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 3, 4, 5, 7, 8, 10, 31, 100, 1_000})
    void behavesAsAMapUnderRandomPutsGetsAndRemoves(int maxStreams) {
        for (long seed = 0; seed < 20; seed++) {
            runAgainstModel(maxStreams, new Random(seed * 31 + maxStreams), seed);
        }
    }

    @Test
    void aFullTableOfCollidingIdsEmptiesInAnyOrder() {
        int maxStreams = 16;
        Random random = new Random(7);
        for (int round = 0; round < 200; round++) {
            StreamTable table = new StreamTable(maxStreams);
            Map<Integer, Connection> model = new HashMap<>();
            // Every id on one of two home slots, near the table's end and at its start, so the cluster wraps.
            int[] homes = {2 * (2 * maxStreams - 1) + 1, 1};
            for (int i = 0; i < maxStreams; i++) {
                int id = homes[i % 2] + (i + 1) * COLLIDING_STRIDE;
                Connection stream = stream();
                table.put(id, stream);
                model.put(id, stream);
            }
            List<Integer> order = new ArrayList<>(model.keySet());
            java.util.Collections.shuffle(order, random);
            for (int id : order) {
                table.remove(id);
                model.remove(id);
                assertMatches(table, model, order);
            }
            assertThat(table.size()).isZero();
        }
    }

    @Test
    void removingAnAbsentIdChangesNothing() {
        StreamTable table = new StreamTable(4);
        Connection one = stream();
        Connection three = stream();
        table.put(1, one);
        table.put(1 + COLLIDING_STRIDE, three);

        table.remove(5);
        table.remove(1 + 2 * COLLIDING_STRIDE);

        assertThat(table.size()).isEqualTo(2);
        assertThat(table.get(1)).isSameAs(one);
        assertThat(table.get(1 + COLLIDING_STRIDE)).isSameAs(three);
    }

    private static void runAgainstModel(int maxStreams, Random random, long seed) {
        StreamTable table = new StreamTable(maxStreams);
        Map<Integer, Connection> model = new HashMap<>();
        List<Integer> candidates = new ArrayList<>();
        // A few home slots, each with several ids that collide on it, plus the ids a client takes in order.
        int homes = Math.max(2, Math.min(8, maxStreams));
        for (int h = 0; h < homes; h++) {
            int home = 2 * random.nextInt(8 * maxStreams) + 1;
            for (int k = 0; k < 4; k++) {
                candidates.add(home + k * COLLIDING_STRIDE * (1 + random.nextInt(3)));
            }
        }
        int nextClientId = 1;
        for (int step = 0; step < 5_000; step++) {
            int op = random.nextInt(10);
            if (op < 4 && model.size() < maxStreams) {
                int id;
                if (random.nextBoolean()) {
                    id = nextClientId;
                    nextClientId += 2;
                } else {
                    id = candidates.get(random.nextInt(candidates.size()));
                }
                if (!model.containsKey(id)) {
                    // The engine puts a stream id once, while it is not in the table.
                    Connection stream = stream();
                    table.put(id, stream);
                    model.put(id, stream);
                }
            } else if (op < 8) {
                int id = model.isEmpty() || random.nextInt(4) == 0 ? anyId(random, candidates, nextClientId)
                        : pick(random, model);
                table.remove(id);
                model.remove(id);
            } else {
                int id = anyId(random, candidates, nextClientId);
                assertThat(table.get(id)).as("seed %d, step %d, id %d", seed, step, id).isSameAs(model.get(id));
            }
            assertThat(table.size()).as("seed %d, step %d", seed, step).isEqualTo(model.size());
            if (step % 50 == 0) {
                List<Integer> probes = new ArrayList<>(candidates);
                probes.addAll(model.keySet());
                assertMatches(table, model, probes);
            }
        }
        List<Integer> probes = new ArrayList<>(candidates);
        probes.addAll(model.keySet());
        assertMatches(table, model, probes);
    }

    /** Every id present is found, each absent probe is not, and forEach visits exactly the streams present. */
    private static void assertMatches(StreamTable table, Map<Integer, Connection> model, List<Integer> probes) {
        for (Map.Entry<Integer, Connection> entry : model.entrySet()) {
            assertThat(table.get(entry.getKey())).as("id %d", entry.getKey()).isSameAs(entry.getValue());
        }
        for (int id : probes) {
            assertThat(table.get(id)).as("id %d", id).isSameAs(model.get(id));
        }
        Map<Connection, Boolean> visited = new IdentityHashMap<>();
        table.forEach(stream -> assertThat(visited.put(stream, true)).isNull());
        assertThat(visited.keySet()).containsExactlyInAnyOrderElementsOf(model.values());
        assertThat(table.size()).isEqualTo(model.size());
    }

    private static int pick(Random random, Map<Integer, Connection> model) {
        List<Integer> ids = new ArrayList<>(model.keySet());
        return ids.get(random.nextInt(ids.size()));
    }

    private static int anyId(Random random, List<Integer> candidates, int nextClientId) {
        return random.nextBoolean() ? candidates.get(random.nextInt(candidates.size()))
                : 2 * random.nextInt(Math.max(1, nextClientId / 2 + 1)) + 1;
    }

    /** A stream slot: only its identity matters to the table. */
    private static Connection stream() {
        return new Connection(null, null);
    }
}
