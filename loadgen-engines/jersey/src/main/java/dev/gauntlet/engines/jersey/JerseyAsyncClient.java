package dev.gauntlet.engines.jersey;

import dev.gauntlet.loadgen.engine.ClientSettings;

/**
 * The Jersey client's async API, {@code async().get(InvocationCallback)}, over
 * Jersey's default connector, {@code HttpURLConnection} ({@link JerseyConnector#HTTP_URL_CONNECTION}); set up by {@link JerseyEngine}.
 *
 * <p>{@code HttpURLConnection} has no non-blocking I/O: Jersey runs each request as a blocking
 * call on a thread of its async executor (an unbounded cached pool), so this mode too holds a
 * platform thread per request in flight, owned and reused by Jersey.
 */
public final class JerseyAsyncClient extends JerseyAsync {
    public JerseyAsyncClient(ClientSettings settings) {
        super(settings, JerseyConnector.HTTP_URL_CONNECTION);
    }
}
