package dev.gauntlet.targets;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class RequestStatsTest {

    @Test
    void maxInFlightIsTheHighestConcurrencySeen() {
        RequestStats stats = new RequestStats();
        stats.begin();
        stats.begin();
        stats.begin();
        stats.complete();
        stats.fail();
        stats.begin();

        RequestStats.Snapshot snapshot = stats.snapshot();
        assertThat(List.of(snapshot.started(), snapshot.completed(), snapshot.inFlight(), snapshot.maxInFlight(),
                snapshot.errors())).containsExactly(4L, 1L, 2L, 3L, 1L);
        assertThat(snapshot.cpuMs()).isPositive();
        assertThat(snapshot.cpus()).isEqualTo(Runtime.getRuntime().availableProcessors());
    }

    @Test
    void resetKeepsTheRequestsStillInFlight() {
        RequestStats stats = new RequestStats();
        stats.begin();
        stats.begin();
        stats.complete();

        stats.reset();

        RequestStats.Snapshot snapshot = stats.snapshot();
        assertThat(List.of(snapshot.started(), snapshot.completed(), snapshot.inFlight(), snapshot.maxInFlight(),
                snapshot.errors())).containsExactly(0L, 0L, 1L, 1L, 0L);
        stats.complete();
        assertThat(stats.snapshot().inFlight()).isZero();
    }

    @Test
    void theJsonHasTheAdminContractsFields() {
        assertThat(new RequestStats.Snapshot(5, 4, 1, 3, 0, 1234, 2, 56789).toJson())
                .isEqualTo("{\"started\":5,\"completed\":4,\"inFlight\":1,\"maxInFlight\":3,\"errors\":0,"
                        + "\"cpuMs\":1234,\"cpus\":2,\"uptimeMs\":56789}");
    }
}
