package dev.gauntlet.engines.jersey;

import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;

/** The blocking call over one connector: the catalogue names one class per connector, each only choosing it. */
abstract sealed class JerseyBlocking implements BlockingClient permits JerseyBlockingClient, JerseyJdkBlockingClient {
    private final JerseyEngine engine;

    JerseyBlocking(ClientSettings settings, JerseyConnector connector) {
        this.engine = new JerseyEngine(settings, connector);
    }

    @Override
    public final ClientResponse get() throws ClientFailure {
        return engine.get();
    }

    @Override
    public final void close() {
        engine.close();
    }
}
