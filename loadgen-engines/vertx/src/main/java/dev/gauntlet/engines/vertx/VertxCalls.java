package dev.gauntlet.engines.vertx;

import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;

import java.util.concurrent.TimeoutException;

/**
 * The Vert.x 5 WebClient, set up by {@link VertxConfig}, called both ways; the catalogue names this
 * class for both modes, and each run builds one instance and calls one of them.
 *
 * <p>Blocking: the request's {@code Future} is awaited with {@code Future.await()} on the calling
 * thread (the driver's platform or virtual thread, never a Vert.x event loop), which parks it on a
 * latch until an event loop completes the future. Async: the request's {@code Future} with a
 * completion handler, which runs on the Vert.x event loop that owns the connection.
 */
public final class VertxCalls implements BlockingClient, AsyncClient {
    private final VertxConfig config;

    public VertxCalls(ClientSettings settings) {
        this.config = new VertxConfig(settings);
    }

    @Override
    public ClientResponse get() {
        return VertxConfig.response(config.send().await());
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
