package dev.gauntlet.engines.reactor;

import dev.gauntlet.loadgen.ClientEngineContract;

class ReactorContractTest extends ClientEngineContract {
    ReactorContractTest() {
        super("reactor");
    }
}
