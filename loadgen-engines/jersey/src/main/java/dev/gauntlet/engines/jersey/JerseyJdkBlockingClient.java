package dev.gauntlet.engines.jersey;

import dev.gauntlet.loadgen.engine.ClientSettings;

/**
 * The Jersey client's blocking call, {@code Invocation.Builder.get()}, on the calling thread, over
 * Jersey's JDK connector ({@link JerseyConnector#JDK}); set up by {@link JerseyEngine}.
 */
public final class JerseyJdkBlockingClient extends JerseyBlocking {
    public JerseyJdkBlockingClient(ClientSettings settings) {
        super(settings, JerseyConnector.JDK);
    }
}
