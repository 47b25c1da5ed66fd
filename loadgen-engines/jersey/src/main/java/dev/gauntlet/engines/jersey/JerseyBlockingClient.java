package dev.gauntlet.engines.jersey;

import dev.gauntlet.loadgen.engine.ClientSettings;

/**
 * The Jersey client's blocking call, {@code Invocation.Builder.get()}, on the calling thread, over
 * Jersey's default connector, {@code HttpURLConnection} ({@link JerseyConnector#HTTP_URL_CONNECTION}); set up by {@link JerseyEngine}.
 */
public final class JerseyBlockingClient extends JerseyBlocking {
    public JerseyBlockingClient(ClientSettings settings) {
        super(settings, JerseyConnector.HTTP_URL_CONNECTION);
    }
}
