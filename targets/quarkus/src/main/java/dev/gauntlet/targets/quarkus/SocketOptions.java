package dev.gauntlet.targets.quarkus;

import dev.gauntlet.targets.TargetSettings;
import io.quarkus.vertx.http.HttpServerOptionsCustomizer;
import io.vertx.core.http.HttpServerOptions;
import jakarta.inject.Singleton;

/**
 * The target's socket settings that Quarkus has no configuration key for, applied to the options
 * of its HTTP server before it listens.
 */
@Singleton
class SocketOptions implements HttpServerOptionsCustomizer {

    @Override
    public void customizeHttpServer(HttpServerOptions options) {
        TargetSettings settings = QuarkusServer.settings();
        options.setTcpNoDelay(settings.tcpNoDelay()).setReuseAddress(settings.reuseAddress());
    }
}
