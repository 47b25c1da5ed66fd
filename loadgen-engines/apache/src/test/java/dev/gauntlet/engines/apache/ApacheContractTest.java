package dev.gauntlet.engines.apache;

import dev.gauntlet.loadgen.ClientEngineContract;

class ApacheContractTest extends ClientEngineContract {
    ApacheContractTest() {
        super("apache");
    }
}
