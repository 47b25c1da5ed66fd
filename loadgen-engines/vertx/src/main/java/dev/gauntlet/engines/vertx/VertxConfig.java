package dev.gauntlet.engines.vertx;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientSettings;
import io.netty.handler.codec.DecoderException;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClosedException;
import io.vertx.core.http.HttpVersion;
import io.vertx.core.http.PoolOptions;
import io.vertx.ext.web.client.HttpResponse;
import io.vertx.ext.web.client.WebClient;
import io.vertx.ext.web.client.WebClientOptions;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The one Vert.x {@link WebClient} set-up both Vert.x engines share, on a {@link Vertx} of its
 * own (default event loops: twice the CPUs), and the request they send.
 *
 * <p>Defaults it replaces, each of which would otherwise cap, queue, reshape or redirect a request:
 * <ul>
 *   <li>the pool's 5 HTTP/1.1 connections per host, behind an unbounded wait queue that delays
 *       requests silently, become {@code maxConcurrency} ({@code PoolOptions.setHttp1MaxSize}):
 *       every request in flight gets its own connection and the queue stays empty;</li>
 *   <li>the pool opens a connection on the caller's event loop, and a thread outside Vert.x (the
 *       async driver's one thread) keeps one event loop for all its calls, so every connection
 *       would be served by a single event loop: {@code PoolOptions.setEventLoopSize} spreads them
 *       over all of them (the completion handlers still run on the caller's event loop);</li>
 *   <li>the WebClient follows redirects by default: off;</li>
 *   <li>the 60 s keep-alive timeout would close a connection left idle through a long warm-up:
 *       none (0);</li>
 *   <li>{@code User-Agent: Vert.x-WebClient/5.0.10} becomes {@code gauntlet};</li>
 *   <li>the connect timeout (60 s) is the settings'.</li>
 * </ul>
 * Already as the benchmark needs them and set here only to pin them: HTTP/1.1 with no h2c upgrade,
 * keep-alive, no pipelining, no decompression (so no {@code Accept-Encoding}). The WebClient keeps
 * no cookies (only a {@code WebClientSession} would).
 */
final class VertxConfig implements AutoCloseable {
    private static final long CLOSE_WAIT_SECONDS = 5;
    private final ClientSettings settings;
    private final Vertx vertx;
    private final WebClient client;

    VertxConfig(ClientSettings settings) {
        this.settings = settings;
        this.vertx = Vertx.vertx();
        WebClientOptions options = new WebClientOptions()
                .setProtocolVersion(HttpVersion.HTTP_1_1)
                .setHttp2ClearTextUpgrade(false)
                .setKeepAlive(true)
                .setKeepAliveTimeout(0)
                .setPipelining(false)
                .setDecompressionSupported(false)
                .setFollowRedirects(false)
                .setConnectTimeout(Math.toIntExact(settings.connectTimeoutMs()))
                .setUserAgent(ClientSettings.USER_AGENT);
        PoolOptions pool = new PoolOptions()
                .setHttp1MaxSize(settings.maxConcurrency())
                .setEventLoopSize(VertxOptions.DEFAULT_EVENT_LOOP_POOL_SIZE);
        this.client = WebClient.create(vertx, options, pool);
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
     * {@code RESET}; a response Netty's decoder rejects arrives as the decoder's own exception (an
     * {@link IllegalArgumentException} for a bad status line, a {@link DecoderException} for
     * headers too long) and is {@code PROTOCOL}.
     */
    private static Throwable classified(Throwable failure) {
        return switch (failure) {
            case HttpClosedException closed -> new ClientFailure(ErrorClass.RESET, closed.getMessage(), closed);
            case IllegalArgumentException bad -> new ClientFailure(ErrorClass.PROTOCOL, bad.getMessage(), bad);
            case DecoderException bad -> new ClientFailure(ErrorClass.PROTOCOL, bad.getMessage(), bad);
            default -> failure;
        };
    }

    /** The whole body; a response without one (a 204, a 302 with no content) has none, not null. */
    static byte[] bytes(HttpResponse<Buffer> response) {
        Buffer body = response.body();
        return body == null ? new byte[0] : body.getBytes();
    }

    @Override
    public void close() throws TimeoutException {
        client.close();
        // Bounded: a Vert.x that lost a thread at the thread limit may never complete its close.
        vertx.close().await(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS);
    }
}
