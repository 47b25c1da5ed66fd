package dev.gauntlet.engines.reactor;

import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.ClientSettings;

/**
 * The Reactor Netty {@code HttpClient}'s own async API: the request's {@code Mono} subscribed
 * with the callback as its value and error consumers, which run on the event loop that owns the
 * connection (or on Reactor's timer thread for a timeout); set up by {@link ReactorConfig}.
 */
public final class ReactorAsyncClient implements AsyncClient {
    private final ReactorConfig config;

    public ReactorAsyncClient(ClientSettings settings) {
        this.config = new ReactorConfig(settings);
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
