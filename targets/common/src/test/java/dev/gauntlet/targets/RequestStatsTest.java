package dev.gauntlet.targets;

import org.junit.jupiter.api.Test;

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

        assertThat(stats.snapshot()).isEqualTo(new RequestStats.Snapshot(4, 1, 2, 3, 1));
    }

    @Test
    void resetKeepsTheRequestsStillInFlight() {
        RequestStats stats = new RequestStats();
        stats.begin();
        stats.begin();
        stats.complete();

        stats.reset();

        assertThat(stats.snapshot()).isEqualTo(new RequestStats.Snapshot(0, 0, 1, 1, 0));
        stats.complete();
        assertThat(stats.snapshot().inFlight()).isZero();
    }

    @Test
    void theJsonHasTheAdminContractsFields() {
        assertThat(new RequestStats.Snapshot(5, 4, 1, 3, 0).toJson())
                .isEqualTo("{\"started\":5,\"completed\":4,\"inFlight\":1,\"maxInFlight\":3,\"errors\":0}");
    }
}
