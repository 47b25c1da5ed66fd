package dev.gauntlet.engines.jersey;

import dev.gauntlet.loadgen.ClientEngineContract;

class JerseyJdkContractTest extends ClientEngineContract {
    JerseyJdkContractTest() {
        super("jersey-jdk");
    }
}
