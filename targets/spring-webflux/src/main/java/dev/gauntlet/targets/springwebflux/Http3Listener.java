package dev.gauntlet.targets.springwebflux;

import dev.gauntlet.targets.TargetTls;
import org.springframework.http.server.reactive.HttpHandler;
import org.springframework.http.server.reactive.ReactorHttpHandlerAdapter;
import reactor.netty.DisposableServer;
import reactor.netty.http.Http3SslContextSpec;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.server.HttpServer;
import reactor.netty.resources.LoopResources;

import java.time.Duration;

/**
 * HTTP/3 beside Boot's TCP server: a second Reactor Netty {@link HttpServer}, speaking HTTP/3 alone (Netty's QUIC codec:
 * quiche with BoringSSL, from its native jar), on the UDP port of the TCP port's number, with the same certificate. Boot
 * has no HTTP/3 property and its server binds TCP only (Reactor Netty's HTTP/3 server binds UDP only), so this one is
 * bound by hand once the TCP port is known, with the WebFlux {@link HttpHandler} Boot built and the same event loops:
 * every request goes through the same filters, codecs and controller, whichever protocol it came by.
 *
 * <p>One datagram channel, so one event loop, carries every QUIC connection (the codec routes packets by connection ID
 * within a channel). The limits are a generator's, as for the Netty target: streams at once per connection well above
 * what a load asks for (Reactor Netty allows none unless told), and no address validation (no token handler).
 */
final class Http3Listener {
    /** Request streams one connection may hold open at once: far beyond a load's streams per connection. */
    private static final long STREAMS_PER_CONNECTION = 10_000;
    private static final Duration IDLE_TIMEOUT = Duration.ofSeconds(30);
    private static final long CONNECTION_WINDOW = 16L << 20;
    private static final long STREAM_WINDOW = 1L << 20;

    private Http3Listener() {
    }

    /** Binds {@code bind:port} on UDP, on {@code loops}, serving {@code handler}; disposing the result unbinds it. */
    static DisposableServer bind(String bind, int port, TargetTls tls, HttpHandler handler, LoopResources loops) {
        return HttpServer.create()
                .host(bind)
                .port(port)
                .runOn(loops)
                .protocol(HttpProtocol.HTTP3)
                .secure(spec -> spec.sslContext(Http3SslContextSpec.forServer(tls.privateKey(), null, tls.certificateChain())))
                .http3Settings(spec -> spec
                        .idleTimeout(IDLE_TIMEOUT)
                        .maxData(CONNECTION_WINDOW)
                        .maxStreamDataBidirectionalLocal(STREAM_WINDOW)
                        .maxStreamDataBidirectionalRemote(STREAM_WINDOW)
                        .maxStreamsBidirectional(STREAMS_PER_CONNECTION))
                .handle(new ReactorHttpHandlerAdapter(handler))
                .bindNow();
    }
}
