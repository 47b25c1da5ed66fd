package dev.gauntlet.engines.jersey;

import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;

/**
 * The Jersey client's blocking call, {@code Invocation.Builder.get()}, on the calling thread, over
 * Jersey's default connector, {@code HttpURLConnection} ({@link JerseyConnector#HTTP_URL_CONNECTION}); set up by {@link JerseyEngine}.
 */
public final class JerseyBlockingClient implements BlockingClient {
    private final JerseyEngine engine;

    public JerseyBlockingClient(ClientSettings settings) {
        this.engine = new JerseyEngine(settings, JerseyConnector.HTTP_URL_CONNECTION);
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
