package dev.gauntlet.engines.okhttp;

import dev.gauntlet.loadgen.ClientEngineContract;

class OkHttpContractTest extends ClientEngineContract {
    OkHttpContractTest() {
        super("okhttp");
    }
}
