package dev.gauntlet.targets.quarkus;

import dev.gauntlet.targets.TargetSettings;
import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.vertx.core.http.HttpServerOptions;
import jakarta.inject.Singleton;

/**
 * The target's socket settings that Quarkus has no configuration key for ({@code tcpNoDelay},
 * {@code reuseAddress}), applied to its HTTP server's options before it listens. Quarkus looks up
 * every {@link HttpServerOptionsCustomizer} bean when it creates the server.
 */
@Singleton
final class SocketOptions implements HttpServerOptionsCustomizer {

    @Override
    public void customizeHttpServer(HttpServerOptions options) {
        TargetSettings settings = QuarkusServer.settings();
        options.setTcpNoDelay(settings.tcpNoDelay()).setReuseAddress(settings.reuseAddress());
    }
}
