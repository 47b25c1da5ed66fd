package dev.gauntlet.engines.reactor;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.ApplicationProtocolNames;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import reactor.core.publisher.Mono;
import reactor.netty.http.Http11SslContextSpec;
import reactor.netty.http.Http2SslContextSpec;
import reactor.netty.http.Http3SslContextSpec;
import reactor.netty.http.Http3SettingsSpec;
import reactor.netty.http.HttpProtocol;
import reactor.netty.http.client.Http2AllocationStrategy;
import reactor.netty.http.client.HttpClient;
import reactor.netty.resources.ConnectionProvider;
import reactor.netty.resources.LoopResources;
import reactor.netty.tcp.SslProvider;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.X509TrustManager;
import java.time.Duration;

/**
 * The one Reactor Netty {@link HttpClient} set-up both of {@link ReactorCalls}' calls share, on a connection pool
 * and event loops of its own (so that {@link #close} releases them, unlike the global
 * {@code HttpResources}), and the request they send as a {@link Mono}.
 *
 * <p>Defaults it replaces, each of which would otherwise cap, queue, retry or reshape a request:
 * <ul>
 *   <li>the pool's {@code max(CPUs, 8) × 2} connections (16 here) become {@code maxConcurrency},
 *       so every request in flight gets its own connection; its pending-acquire queue (twice the
 *       connections) is unbounded and its 45 s pending-acquire timeout is the response timeout,
 *       though with a connection per request nothing ever waits in it;</li>
 *   <li>a request whose reused connection was closed before the response is retried once:
 *       retries off ({@code disableRetry(true)});</li>
 *   <li>{@code User-Agent: ReactorNetty/1.3.7} becomes {@code gauntlet}, and the
 *       {@code Accept: *}{@code /*} Reactor Netty adds to every request is removed;</li>
 *   <li>the connect timeout (Netty's 30 s) is the settings'.</li>
 * </ul>
 * Already as the benchmark needs them and set here only to pin them: HTTP/1.1, keep-alive, no
 * compression, no redirects. The pool evicts no idle connection (no max idle time or life time
 * unless a {@code reactor.netty.pool.*} system property sets one), and the client keeps no
 * cookies. The event loops are Reactor Netty's defaults: {@code max(CPUs, 4)} workers, on native
 * epoll since Reactor Netty brings it.
 *
 * <p>HTTP/2 when the load asks for it: over TLS ({@code H2}) offered by ALPN as {@code h2} alone, in clear
 * ({@code H2C} alone) with prior knowledge, never by an {@code Upgrade}. The pool then holds HTTP/2
 * connections, each carrying as many streams at once as the server allows (its
 * {@code SETTINGS_MAX_CONCURRENT_STREAMS}, Jetty's 128); a request that finds every stream taken opens another
 * connection, up to {@code maxConcurrency}, rather than waiting ({@link #sharedStreams}). Over TLS Netty's context trusts the settings' trust
 * manager, on the JDK's TLS (JSSE), as no OpenSSL (netty-tcnative) is on the classpath.
 *
 * <p>HTTP/3 when the load asks for it ({@code HTTP3} alone, https only): QUIC over UDP to the URL's port, on Netty's
 * QUIC codec (quiche and BoringSSL, native), offered by ALPN as {@code h3}; its TLS context is the QUIC codec's own
 * ({@link Http3SslContextSpec}), trusting the same trust manager and checking the host's name unless insecure. The
 * pool holds QUIC connections shared by streams as HTTP/2's does ({@link #sharedStreams}). Reactor Netty's HTTP/3
 * defaults grant the peer no flow-control credit at all (0 bytes), so {@link #http3Settings} sets the windows the
 * built-in HTTP/3 engine uses, and an idle timeout beyond the response timeout.
 */
final class ReactorConfig implements AutoCloseable {
    private static final byte[] NO_BODY = new byte[0];

    private final ClientSettings settings;
    private final ConnectionProvider pool;
    private final LoopResources loops;
    private final HttpClient client;

    ReactorConfig(ClientSettings settings) {
        this.settings = settings;
        ConnectionProvider.Builder provider = ConnectionProvider.builder("gauntlet")
                .maxConnections(settings.maxConcurrency())
                .pendingAcquireMaxCount(-1)
                .pendingAcquireTimeout(Duration.ofMillis(settings.responseTimeoutMs()));
        if (settings.http2() || settings.http3()) {
            provider.allocationStrategy(sharedStreams(settings));
        }
        this.pool = provider.build();
        this.loops = LoopResources.create("gauntlet-reactor");
        HttpClient client = HttpClient.create(pool)
                .runOn(loops)
                .protocol(protocol(settings))
                .keepAlive(true)
                .compress(false)
                .followRedirect(false)
                .disableRetry(true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, Math.toIntExact(settings.connectTimeoutMs()))
                .headers(headers -> headers.set(HttpHeaderNames.USER_AGENT, ClientSettings.USER_AGENT))
                .doOnRequest((request, connection) -> {
                    request.requestHeaders().remove(HttpHeaderNames.ACCEPT);
                    if (settings.http2()) {
                        connection.addHandlerFirst(StreamResetAsFailure.NAME, StreamResetAsFailure.INSTANCE);
                    }
                });
        if (settings.http3()) {
            client = client.http3Settings(spec -> http3Settings(spec, settings));
        }
        this.client = settings.tls() ? secure(client, settings) : client;
    }

    /**
     * HTTP/2's pool: streams share a connection up to the server's {@code SETTINGS_MAX_CONCURRENT_STREAMS} (no
     * {@code maxConcurrentStreams} of our own), and past it another connection opens, up to {@code maxConcurrency}.
     * Without this strategy, or with its default {@code minConnections} of 0, Reactor Netty 1.3 opened a new
     * connection for each request that came while the others were in flight: 18 connections for bursts of 20
     * requests, 690 TLS connections at 100 requests/s, whose handshakes held responses back by seconds. With a
     * minimum of one connection it reuses the connections it has.
     */
    private static Http2AllocationStrategy sharedStreams(ClientSettings settings) {
        return Http2AllocationStrategy.builder().minConnections(1).maxConnections(settings.maxConcurrency()).build();
    }

    /** HTTP/3's QUIC settings: the built-in engine's windows, and an idle timeout beyond the response timeout. */
    private static void http3Settings(Http3SettingsSpec.Builder spec, ClientSettings settings) {
        spec.idleTimeout(Duration.ofMillis(settings.quicIdleTimeoutMs()))
                .maxData(ClientSettings.QUIC_CONNECTION_WINDOW_BYTES)
                .maxStreamDataBidirectionalLocal(ClientSettings.QUIC_STREAM_WINDOW_BYTES);
    }

    private static HttpProtocol protocol(ClientSettings settings) {
        if (settings.http3()) {
            return HttpProtocol.HTTP3;
        }
        if (!settings.http2()) {
            return HttpProtocol.HTTP11;
        }
        return settings.tls() ? HttpProtocol.H2 : HttpProtocol.H2C;
    }

    /**
     * TLS trusting the settings' trust manager. Reactor Netty's HTTP/2 context offers {@code h2} and
     * {@code http/1.1} by ALPN: here {@code h2} alone, as the lean engine offers the one protocol it speaks. Reactor
     * Netty turns the host-name check on (endpoint identification) for every {@link SSLEngine} of an HTTP client,
     * before the spec's own handler configurator runs: when insecure, that configurator turns it off again.
     */
    private static HttpClient secure(HttpClient client, ClientSettings settings) {
        X509TrustManager trust = settings.trustManager();
        if (settings.http3()) {
            // QUIC's TLS is BoringSSL inside the codec, no SSLEngine to configure: the builder checks the name itself.
            return client.secure(spec -> spec.sslContext(Http3SslContextSpec.forClient().configure(context -> context
                    .trustManager(trust).endpointIdentificationAlgorithm(settings.checksHostName() ? "HTTPS" : null))));
        }
        return client.secure(spec -> {
            SslProvider.Builder builder = settings.http2()
                    ? spec.sslContext(Http2SslContextSpec.forClient().configure(context -> offerH2Only(context.trustManager(trust))))
                    : spec.sslContext(Http11SslContextSpec.forClient().configure(context -> context.trustManager(trust)));
            if (!settings.checksHostName()) {
                builder.handlerConfigurator(ReactorConfig::skipHostNameCheck);
            }
        });
    }

    private static void offerH2Only(SslContextBuilder context) {
        context.applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, ApplicationProtocolNames.HTTP_2));
    }

    /** {@code --insecure}: no endpoint identification, so the JDK's engine checks no name. */
    private static void skipHostNameCheck(SslHandler handler) {
        SSLEngine engine = handler.engine();
        SSLParameters parameters = engine.getSSLParameters();
        parameters.setEndpointIdentificationAlgorithm(null);
        engine.setSSLParameters(parameters);
    }

    /**
     * One GET of the settings' URL, sent on subscription, with the whole body, and the version Reactor Netty reports
     * for the response ({@code HTTP/2.0} for an HTTP/2 stream, {@code HTTP/3.0} for an HTTP/3 one); a failure comes
     * {@linkplain #classified classified}. The response timeout is the {@code Mono}'s own timeout,
     * from subscription to the whole response: when it fires it cancels the exchange, which closes
     * its HTTP/1.1 connection or its HTTP/2 stream, and fails with a {@code TimeoutException}.
     * (Reactor Netty's {@code responseTimeout} is a read-idle timeout,
     * and reports as Netty's {@code ReadTimeoutException}, which is no {@code java.util.concurrent}
     * timeout.)
     */
    Mono<ClientResponse> get() {
        return client.get()
                .uri(settings.url())
                .responseSingle((response, body) -> body.asByteArray()
                        .defaultIfEmpty(NO_BODY)
                        .map(bytes -> new ClientResponse(response.status().code(), bytes, version(response.version().majorVersion()))))
                .timeout(Duration.ofMillis(settings.responseTimeoutMs()))
                .onErrorMap(ReactorConfig::classified);
    }

    private static ClientResponse.Version version(int major) {
        return switch (major) {
            case 3 -> ClientResponse.Version.HTTP_3;
            case 2 -> ClientResponse.Version.HTTP_2;
            default -> ClientResponse.Version.HTTP_1_1;
        };
    }

    /**
     * The failure as the driver should class it, where {@link ClientFailure#classify} cannot read
     * Reactor Netty: a response Netty's decoder rejects arrives as the decoder's own exception (an
     * {@link IllegalArgumentException} for a bad status line, a {@link DecoderException} for
     * headers too long) and is {@code PROTOCOL}. A stream the server reset comes classed already, by
     * {@link StreamResetAsFailure}.
     */
    private static Throwable classified(Throwable failure) {
        return failure instanceof IllegalArgumentException || failure instanceof DecoderException
                ? new ClientFailure(ErrorClass.PROTOCOL, failure.getMessage(), failure)
                : failure;
    }

    @Override
    public void close() {
        pool.disposeLater().block();
        loops.disposeLater(Duration.ZERO, Duration.ofSeconds(5)).block();
    }
}
