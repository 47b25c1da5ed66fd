package dev.gauntlet.engines.reactor;

import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;

/**
 * The Reactor Netty {@code HttpClient}, set up by {@link ReactorConfig}, called both ways; the
 * catalogue names this class for both modes, and each run builds one instance and calls one of them.
 *
 * <p>Blocking: {@code Mono.block()} on the calling thread (the driver's platform or virtual thread,
 * never an event loop, where Reactor forbids it). A failure is rethrown as Reactor wraps it (a
 * checked exception inside a {@code ReactiveException}), which the driver looks through. Async: the
 * request's {@code Mono} subscribed with the callback as its value and error consumers, which run on
 * the event loop that owns the connection (or on Reactor's timer thread for a timeout).
 */
public final class ReactorCalls implements BlockingClient, AsyncClient {
    private final ReactorConfig config;

    public ReactorCalls(ClientSettings settings) {
        this.config = new ReactorConfig(settings);
    }

    @Override
    public ClientResponse get() {
        return config.get().block();
    }

    @Override
    public void get(Callback callback) {
        config.get().subscribe(callback::completed, callback::failed);
    }

    @Override
    public void close() {
        config.close();
    }
}
