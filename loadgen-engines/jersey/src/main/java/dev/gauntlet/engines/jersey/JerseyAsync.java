package dev.gauntlet.engines.jersey;

import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.ClientSettings;

/** The async call over one connector: the catalogue names one class per connector, each only choosing it. */
abstract sealed class JerseyAsync implements AsyncClient permits JerseyAsyncClient, JerseyJdkAsyncClient {
    private final JerseyEngine engine;

    JerseyAsync(ClientSettings settings, JerseyConnector connector) {
        this.engine = new JerseyEngine(settings, connector);
    }

    @Override
    public final void get(Callback callback) {
        engine.get(callback);
    }

    @Override
    public final void close() {
        engine.close();
    }
}
