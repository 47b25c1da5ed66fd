package dev.gauntlet.engines.jersey;

import dev.gauntlet.loadgen.engine.ClientSettings;

/**
 * The Jersey client's async API, {@code async().get(InvocationCallback)}, over
 * Jersey's JDK connector ({@link JerseyConnector#JDK}); set up by {@link JerseyEngine}.
 *
 * <p>Jersey hands each request to a thread of its async executor (an unbounded cached pool) only
 * to start it: the connector sends it and returns, and the callback runs on one of the
 * connector's worker threads when the response arrives. No thread waits per request in flight.
 */
public final class JerseyJdkAsyncClient extends JerseyAsync {
    public JerseyJdkAsyncClient(ClientSettings settings) {
        super(settings, JerseyConnector.JDK);
    }
}
