package dev.gauntlet.engines.jetty;

import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;

import java.util.concurrent.ExecutionException;

/**
 * Jetty 12 {@code HttpClient}'s blocking call, {@code Request.send()}, which buffers the whole
 * body; set up by {@link JettyConfig}.
 */
public final class JettyBlockingClient implements BlockingClient {
    private final ClientSettings settings;
    private final HttpClient client;

    public JettyBlockingClient(ClientSettings settings) throws Exception {
        this.settings = settings;
        this.client = JettyConfig.start(settings);
    }

    @Override
    public ClientResponse get() throws Exception {
        ContentResponse response;
        try {
            response = JettyConfig.request(client, settings).send();
        } catch (ExecutionException e) {
            throw JettyConfig.classified(e) instanceof ClientFailure known ? known : e;
        }
        return new ClientResponse(response.getStatus(), response.getContent(), JettyConfig.http2(response));
    }

    @Override
    public void close() throws Exception {
        client.stop();
    }
}
