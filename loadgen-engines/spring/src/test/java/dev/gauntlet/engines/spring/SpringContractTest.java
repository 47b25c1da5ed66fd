package dev.gauntlet.engines.spring;

import dev.gauntlet.loadgen.ClientEngineContract;

class SpringContractTest extends ClientEngineContract {
    SpringContractTest() {
        super("spring");
    }
}
