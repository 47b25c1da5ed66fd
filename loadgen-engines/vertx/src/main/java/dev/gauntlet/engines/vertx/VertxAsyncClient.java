package dev.gauntlet.engines.vertx;

import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.ClientSettings;

import java.util.concurrent.TimeoutException;

/**
 * The Vert.x 5 WebClient's async API: the request's {@code Future} with a completion handler,
 * which runs on the Vert.x event loop that owns the connection; set up by {@link VertxConfig}.
 */
public final class VertxAsyncClient implements AsyncClient {
    private final VertxConfig config;

    public VertxAsyncClient(ClientSettings settings) {
        this.config = new VertxConfig(settings);
    }

    @Override
    public void get(Callback callback) {
        config.send().onComplete(
                response -> callback.completed(VertxConfig.response(response)),
                callback::failed);
    }

    @Override
    public void close() throws TimeoutException {
        config.close();
    }
}
