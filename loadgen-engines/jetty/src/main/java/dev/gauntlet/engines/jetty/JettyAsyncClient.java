package dev.gauntlet.engines.jetty;

import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import org.eclipse.jetty.client.BufferingResponseListener;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.Result;

/**
 * Jetty 12 {@code HttpClient}'s async API, {@code Request.send(Response.CompleteListener)} with a
 * {@link BufferingResponseListener} that collects the whole body; set up by {@link JettyConfig}.
 */
public final class JettyAsyncClient implements AsyncClient {
    private final ClientSettings settings;
    private final HttpClient client;

    public JettyAsyncClient(ClientSettings settings) throws Exception {
        this.settings = settings;
        this.client = JettyConfig.start(settings);
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
                            JettyConfig.http2(result.getResponse())));
                }
            }
        });
    }

    @Override
    public void close() throws Exception {
        client.stop();
    }
}
