package dev.gauntlet.api;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ConnectionBudgetTest {
    /** 20,000 open files per process and ports 32768–60999. */
    private static final long OPEN_FILES = 20_000;
    private static final long EPHEMERAL_PORTS = 28_232;

    @Test
    void aGeneratorJvmKeeps200FilesAndTwoForEachFurtherEngineThread() {
        assertThat(ConnectionBudget.RESERVED_FILES).as("the reserve the runner and the preflight share").isEqualTo(200);
        assertThat(new ConnectionBudget(OPEN_FILES, EPHEMERAL_PORTS, 0, 1).files()).isEqualTo(19_800);
        assertThat(new ConnectionBudget(OPEN_FILES, EPHEMERAL_PORTS, 0, 4).files()).isEqualTo(19_794);
        assertThat(new ConnectionBudget(150, EPHEMERAL_PORTS, 0, 1).files()).as("never below none").isZero();
    }

    @Test
    void portsCountPerSourceAddressTheSystemsChoiceBeingOne() {
        assertThat(new ConnectionBudget(OPEN_FILES, EPHEMERAL_PORTS, 0, 1).ports()).isEqualTo(28_232);
        assertThat(new ConnectionBudget(OPEN_FILES, EPHEMERAL_PORTS, 3, 1).ports()).isEqualTo(84_696);
    }

    @Test
    void eachModelSaysTheConnectionsItOpens() {
        assertThat(new LoadModel.ClosedLoop(50).connectionsOpened(7)).isEqualTo(50);
        assertThat(new LoadModel.MaxConcurrency(15_000).connectionsOpened(7)).isEqualTo(15_000);
        assertThat(LoadModel.OpenLoop.fixedPool(1_000, null, 100).connectionsOpened(7)).isEqualTo(100);
        assertThat(new LoadModel.OpenLoop(1_000, null).connectionsOpened(7)).as("its maxConnections").isEqualTo(7);
        assertThat(new LoadModel.OpenLoop(1_000, null).connectionsOpened(0)).as("left to the machine").isZero();
    }
}
