package dev.gauntlet.engines.vertx;

import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;

import java.util.concurrent.TimeoutException;

/**
 * The Vert.x 5 WebClient called blocking: the request's {@code Future} is awaited with
 * {@code Future.await()} on the calling thread (the driver's platform or virtual thread, never a
 * Vert.x event loop), which parks it on a latch until an event loop completes the future; set up
 * by {@link VertxConfig}.
 */
public final class VertxBlockingClient implements BlockingClient {
    private final VertxConfig config;

    public VertxBlockingClient(ClientSettings settings) {
        this.config = new VertxConfig(settings);
    }

    @Override
    public ClientResponse get() {
        return VertxConfig.response(config.send().await());
    }

    @Override
    public void close() throws TimeoutException {
        config.close();
    }
}
