package dev.gauntlet.engines.vertx;

import dev.gauntlet.loadgen.ClientEngineContract;

class VertxContractTest extends ClientEngineContract {
    VertxContractTest() {
        super("vertx");
    }
}
