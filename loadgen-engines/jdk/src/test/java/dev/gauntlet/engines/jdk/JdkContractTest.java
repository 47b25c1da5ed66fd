package dev.gauntlet.engines.jdk;

import dev.gauntlet.loadgen.ClientEngineContract;

class JdkContractTest extends ClientEngineContract {
    JdkContractTest() {
        super("jdk");
    }
}
