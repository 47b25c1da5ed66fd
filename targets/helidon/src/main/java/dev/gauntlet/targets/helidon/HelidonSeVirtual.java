package dev.gauntlet.targets.helidon;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import io.helidon.common.socket.SocketOptions;
import io.helidon.common.tls.Tls;
import io.helidon.http.Header;
import io.helidon.http.HeaderNames;
import io.helidon.http.HeaderValues;
import io.helidon.http.Status;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import io.helidon.webserver.http1.Http1Config;
import io.helidon.webserver.http2.Http2Config;

import java.net.StandardSocketOptions;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.util.Map;

/**
 * Helidon 4 SE webserver, virtual: its native model. Every connection is read, and every request
 * handled, on a virtual thread, so the handler simply sleeps.
 *
 * <p>TLS is JSSE, on the target's {@code SSLContext}. With HTTP/2, ALPN offers h2 beside http/1.1 and in clear
 * a connection that opens with the HTTP/2 preface is served HTTP/2; every stream is handled on a virtual thread of
 * its own.
 *
 * <p>There is no sync variant: Helidon creates those virtual threads itself (no executor or thread
 * option in its configuration), so platform workers could only be emulated by a hand-off that
 * parks the virtual thread anyway.
 */
public final class HelidonSeVirtual implements HelloServer {
    private static final Header CONTENT_TYPE = HeaderValues.create(HeaderNames.CONTENT_TYPE, HelloContract.CONTENT_TYPE);
    /** Bounded, so a stop with sleeping handlers ends well within TargetMain's grace. */
    private static final Duration SHUTDOWN_GRACE = Duration.ofMillis(500);

    private WebServer server;
    private RequestStats stats;

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws GeneralSecurityException {
        this.stats = stats;
        WebServerConfig.Builder builder = WebServer.builder()
                .host(settings.bind())
                .port(settings.port())
                .backlog(settings.backlog())
                .listenerSocketOptions(Map.of(StandardSocketOptions.SO_REUSEADDR, settings.reuseAddress()))
                .connectionOptions(SocketOptions.builder().tcpNoDelay(settings.tcpNoDelay()).build())
                // Only the protocols asked for: Helidon would add every one on the classpath (HTTP/2) to the listener.
                .protocolsDiscoverServices(false)
                // Helidon would add "Connection: keep-alive" to every HTTP/1.1 response; persistence is the default there.
                .addProtocol(Http1Config.builder().sendKeepAliveHeader(false).build())
                .shutdownHook(false)
                .shutdownGracePeriod(SHUTDOWN_GRACE)
                .routing(routing -> routing.get(HelloContract.PATH, this::hello));
        if (settings.http2()) {
            builder.addProtocol(Http2Config.create());
        }
        if (settings.tls() != null) {
            builder.tls(Tls.builder().sslContext(settings.tls().sslContext()).build());
        }
        server = builder.build().start();
        return server.port();
    }

    @Override
    public void stop() {
        server.stop();
    }

    private void hello(ServerRequest request, ServerResponse response) {
        long waitMs;
        try {
            waitMs = HelloContract.waitMs(request.prologue().query().rawValue());
        } catch (IllegalArgumentException e) {
            response.status(Status.BAD_REQUEST_400).send();
            return;
        }
        stats.begin();
        try {
            HelloContract.sleep(waitMs);
            response.header(CONTENT_TYPE).send(HelloContract.BODY_BYTES);
            stats.complete();
        } catch (RuntimeException e) {
            stats.fail();
            throw e;
        }
    }
}
