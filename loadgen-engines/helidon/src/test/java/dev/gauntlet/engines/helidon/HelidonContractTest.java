package dev.gauntlet.engines.helidon;

import dev.gauntlet.loadgen.ClientEngineContract;

class HelidonContractTest extends ClientEngineContract {
    HelidonContractTest() {
        super("helidon");
    }
}
