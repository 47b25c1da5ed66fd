package dev.gauntlet.engines.jetty;

import dev.gauntlet.loadgen.ClientEngineContract;

class JettyContractTest extends ClientEngineContract {
    JettyContractTest() {
        super("jetty");
    }
}
