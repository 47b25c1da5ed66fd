package dev.gauntlet.engines.spring;

import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import org.springframework.web.reactive.function.client.WebClient;

/**
 * Spring's {@link WebClient}, {@code get().retrieve().toEntity(byte[].class)} subscribed with the
 * callback, which runs on the Reactor Netty event loop that owns the connection (or on Reactor's
 * timer thread for a timeout); set up by {@link WebClientConfig}.
 */
public final class SpringAsyncClient implements AsyncClient {
    private static final byte[] NO_BODY = new byte[0];

    private final WebClientConfig config;

    public SpringAsyncClient(ClientSettings settings) {
        this.config = new WebClientConfig(settings);
    }

    @Override
    public void get(Callback callback) {
        config.webClient().get().retrieve().toEntity(byte[].class)
                .timeout(config.responseTimeout())
                .subscribe(response -> callback.completed(new ClientResponse(response.getStatusCode().value(),
                                response.hasBody() ? response.getBody() : NO_BODY, ClientResponse.Version.HTTP_1_1)),
                        failure -> callback.failed(WebClientConfig.classified(failure)));
    }

    @Override
    public void close() {
        config.close();
    }
}
