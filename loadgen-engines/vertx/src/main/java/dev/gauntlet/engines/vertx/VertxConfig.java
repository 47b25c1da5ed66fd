package dev.gauntlet.engines.vertx;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.ssl.util.SimpleTrustManagerFactory;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.core.http.StreamResetException;
import io.vertx.core.net.TrustOptions;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

import javax.net.ssl.ManagerFactoryParameters;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.security.KeyStore;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one Vert.x {@link WebClient} set-up both of {@link VertxCalls}' calls share, on a {@link Vertx} of its
 * own (default event loops: twice the CPUs), and the request they send.
 *
 * <p>Defaults it replaces, each of which would otherwise cap, queue, reshape or redirect a request:
 * <ul>
 *   <li>the pool's 5 HTTP/1.1 connections per host, behind an unbounded wait queue that delays
 *       requests silently, become {@code maxConcurrency} ({@code PoolOptions.setHttp1MaxSize}):
 *       every request in flight gets its own connection and the queue stays empty;</li>
 *   <li>its one HTTP/2 connection per host becomes {@code maxConcurrency} too
 *       ({@code PoolOptions.setHttp2MaxSize}): a connection carries as many streams at once as the
 *       server allows (the multiplexing limit is left at the server's {@code SETTINGS_MAX_CONCURRENT_STREAMS},
 *       Jetty's 128), and a request that finds every stream taken opens another connection instead
 *       of waiting in the queue;</li>
 *   <li>the pool opens a connection on the caller's event loop, and a thread outside Vert.x (the
 *       async driver's one thread) keeps one event loop for all its calls, so every connection
 *       would be served by a single event loop: {@code PoolOptions.setEventLoopSize} spreads them
 *       over all of them (the completion handlers still run on the caller's event loop);</li>
 *   <li>the WebClient follows redirects by default: off;</li>
 *   <li>the 60 s keep-alive timeouts, HTTP/1.1's and HTTP/2's, would close a connection left idle
 *       through a long warm-up: none (0);</li>
 *   <li>{@code User-Agent: Vert.x-WebClient/5.0.10} becomes {@code gauntlet};</li>
 *   <li>the connect timeout (60 s) is the settings'.</li>
 * </ul>
 * Already as the benchmark needs them and set here only to pin them: HTTP/1.1 with no h2c upgrade,
 * keep-alive, no pipelining, no decompression (so no {@code Accept-Encoding}). The WebClient keeps
 * no cookies (only a {@code WebClientSession} would).
 *
 * <p>HTTP/2 when the load asks for it: over TLS offered by ALPN as {@code h2} alone, in clear with prior knowledge
 * (the connection preface at once, no {@code Upgrade}). Over TLS Vert.x trusts the settings' trust manager and checks
 * the server's name unless insecure; its TLS is the JDK's (JSSE), as no OpenSSL (netty-tcnative) is on the classpath.
 */
final class VertxConfig implements AutoCloseable {
    private static final long CLOSE_WAIT_SECONDS = 5;
    private final ClientSettings settings;
    private final Vertx vertx;
    private final WebClient client;

    VertxConfig(ClientSettings settings) {
        this.settings = settings;
        this.vertx = Vertx.vertx();
        HttpVersion version = settings.http2() ? HttpVersion.HTTP_2 : HttpVersion.HTTP_1_1;
        WebClientOptions options = new WebClientOptions()
                .setProtocolVersion(version)
                .setHttp2ClearTextUpgrade(false)
                .setKeepAlive(true)
                .setKeepAliveTimeout(0)
                .setHttp2KeepAliveTimeout(0)
                .setPipelining(false)
                .setDecompressionSupported(false)
                .setFollowRedirects(false)
                .setConnectTimeout(Math.toIntExact(settings.connectTimeoutMs()))
                .setUserAgent(ClientSettings.USER_AGENT);
        if (settings.tls()) {
            secure(options, version);
        }
        PoolOptions pool = new PoolOptions()
                .setHttp1MaxSize(settings.maxConcurrency())
                .setHttp2MaxSize(settings.maxConcurrency())
                .setEventLoopSize(VertxOptions.DEFAULT_EVENT_LOOP_POOL_SIZE);
        this.client = WebClient.create(vertx, options, pool);
    }

    /**
     * TLS as the settings say. ALPN offers the one version the load speaks, as the lean engine does, where Vert.x's
     * own list for HTTP/2 would add {@code http/1.1}. A server that picks no protocol still gets HTTP/1.1 from Vert.x,
     * which {@link #response} reports as such. The server's name is checked by Vert.x ({@code verifyHost}, on by
     * default, the JDK's endpoint identification), not by the trust manager: off when insecure.
     */
    private void secure(WebClientOptions options, HttpVersion version) {
        options.setSsl(true)
                .setUseAlpn(true)
                .setAlpnVersions(List.of(version))
                .setTrustOptions(TrustOptions.wrap(new FactoryOf(settings.trustManager())))
                .setVerifyHost(settings.checksHostName());
    }

    /**
     * A trust manager factory handing out the one trust manager given. Vert.x 5.0's
     * {@code TrustOptions.wrap(TrustManager)} would make one too, but its class logs through SLF4J,
     * which Vert.x only declares optional and the generator's classpath does not have: the engine
     * failed to start with {@code NoClassDefFoundError: org/slf4j/LoggerFactory} (the contract's
     * classpath has SLF4J, from the Jetty target, and could not show it).
     */
    private static final class FactoryOf extends SimpleTrustManagerFactory {
        private final TrustManager[] managers;

        FactoryOf(X509TrustManager manager) {
            this.managers = new TrustManager[]{manager};
        }

        @Override
        protected void engineInit(KeyStore keyStore) {
            // Made with its trust manager: nothing to initialise.
        }

        @Override
        protected void engineInit(ManagerFactoryParameters parameters) {
            // Made with its trust manager: nothing to initialise.
        }

        @Override
        protected TrustManager[] engineGetTrustManagers() {
            return managers.clone();
        }
    }

    /**
     * Sends one GET of the settings' URL; a failure comes {@linkplain #classified classified}.
     * Vert.x has no whole-response timeout: the request's idle timeout (no bytes read for that
     * long, counted from when the request has its connection) is the response timeout, which for
     * the targets' few-byte responses is the same thing; when it fires Vert.x resets the request,
     * closing its connection, and fails with a {@code TimeoutException}. The request's own connect
     * timeout is left unset, as it would also bound the hand-over of a connection from the pool
     * (its event-loop hop), not only the TCP connect that the client's connect timeout bounds.
     */
    Future<HttpResponse<Buffer>> send() {
        return client.getAbs(settings.url().toString())
                .idleTimeout(settings.responseTimeoutMs())
                .send()
                .recover(failure -> Future.failedFuture(classified(failure)));
    }

    /**
     * The failure as the driver should class it, where {@link ClientFailure#classify} cannot read
     * Vert.x: a connection closed before the response ({@link HttpClosedException}) is
     * {@code RESET}, an HTTP/2 stream the server reset ({@link StreamResetException}) is
     * {@code STREAM_RESET}; a response Netty's decoder rejects arrives as the decoder's own
     * exception (an {@link IllegalArgumentException} for a bad status line, a
     * {@link DecoderException} for headers too long) and is {@code PROTOCOL}.
     */
    private static Throwable classified(Throwable failure) {
        return switch (failure) {
            case HttpClosedException closed -> new ClientFailure(ErrorClass.RESET, closed.getMessage(), closed);
            case StreamResetException reset -> new ClientFailure(ErrorClass.STREAM_RESET, reset.getMessage(), reset);
            case IllegalArgumentException bad -> new ClientFailure(ErrorClass.PROTOCOL, bad.getMessage(), bad);
            case DecoderException bad -> new ClientFailure(ErrorClass.PROTOCOL, bad.getMessage(), bad);
            default -> failure;
        };
    }

    /**
     * The response as the driver takes it: with the whole body (a response without one, a 204 or a 302 with no
     * content, has none, not null), and on HTTP/2 only if it came as a stream, whatever the load asked.
     */
    static ClientResponse response(HttpResponse<Buffer> response) {
        Buffer body = response.body();
        return new ClientResponse(response.statusCode(), body == null ? new byte[0] : body.getBytes(),
                ClientResponse.Version.http2If(response.version() == HttpVersion.HTTP_2));
    }

    @Override
    public void close() throws TimeoutException {
        client.close();
        // Bounded: a Vert.x that lost a thread at the thread limit may never complete its close.
        vertx.close().await(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
    }
}
