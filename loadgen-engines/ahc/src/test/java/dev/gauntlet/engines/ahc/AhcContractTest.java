package dev.gauntlet.engines.ahc;

import dev.gauntlet.loadgen.ClientEngineContract;

class AhcContractTest extends ClientEngineContract {
    AhcContractTest() {
        super("ahc");
    }
}
