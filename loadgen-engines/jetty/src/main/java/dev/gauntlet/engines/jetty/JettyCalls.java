package dev.gauntlet.engines.jetty;

import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Result;

import java.util.concurrent.ExecutionException;

/**
 * Jetty 12's {@code HttpClient}, set up by {@link JettyConfig}, called both ways: blocking,
 * {@code Request.send()}, which buffers the whole body, and async,
 * {@code Request.send(Response.CompleteListener)} with a {@link BufferingResponseListener} that
 * collects it. The catalogue names this class for both modes; each run builds one instance and
 * calls one of them.
 */
public final class JettyCalls implements BlockingClient, AsyncClient {
    private final ClientSettings settings;
    private final HttpClient client;

    public JettyCalls(ClientSettings settings) throws Exception {
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
        return new ClientResponse(response.getStatus(), response.getContent(), JettyConfig.version(response));
    }

    @Override
    public void get(Callback callback) {
        JettyConfig.request(client, settings).send(new BufferingResponseListener() {
            @Override
            public void onComplete(Result result) {
                if (result.isFailed()) {
                    callback.failed(JettyConfig.classified(result.getFailure()));
                } else {
                    callback.completed(new ClientResponse(result.getResponse().getStatus(), getContent(),
                            JettyConfig.version(result.getResponse())));
                }
            }
        });
    }

    @Override
    public void close() throws Exception {
        client.stop();
    }
}
