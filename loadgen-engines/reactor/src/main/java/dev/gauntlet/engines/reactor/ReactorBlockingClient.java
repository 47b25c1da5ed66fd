package dev.gauntlet.engines.reactor;

import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;

/**
 * The Reactor Netty {@code HttpClient} called blocking: {@code Mono.block()} on the calling thread
 * (the driver's platform or virtual thread, never an event loop, where Reactor forbids it); set
 * up by {@link ReactorConfig}. A failure is rethrown as Reactor wraps it (a checked exception
 * inside a {@code ReactiveException}), which the driver looks through.
 */
public final class ReactorBlockingClient implements BlockingClient {
    private final ReactorConfig config;

    public ReactorBlockingClient(ClientSettings settings) {
        this.config = new ReactorConfig(settings);
    }

    @Override
    public ClientResponse get() {
        return config.get().block();
    }

    @Override
    public void close() {
        config.close();
    }
}
