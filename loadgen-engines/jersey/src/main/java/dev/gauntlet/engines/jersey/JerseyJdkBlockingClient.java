package dev.gauntlet.engines.jersey;

import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;

/**
 * The Jersey client's blocking call, {@code Invocation.Builder.get()}, on the calling thread, over
 * Jersey's JDK connector ({@link JerseyConnector#JDK}); set up by {@link JerseyEngine}.
 */
public final class JerseyJdkBlockingClient implements BlockingClient {
    private final JerseyEngine engine;

    public JerseyJdkBlockingClient(ClientSettings settings) {
        this.engine = new JerseyEngine(settings, JerseyConnector.JDK);
    }

    @Override
    public ClientResponse get() throws ClientFailure {
        return engine.get();
    }

    @Override
    public void close() {
        engine.close();
    }
}
