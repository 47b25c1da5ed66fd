package dev.gauntlet.engines.ahc;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientSettings;
import io.netty.handler.codec.DecoderException;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.DefaultAsyncHttpClientConfig;
import org.asynchttpclient.Dsl;
import org.asynchttpclient.Request;

import java.time.Duration;

/**
 * The one AsyncHttpClient set-up both of {@link AhcCalls}' calls share, and the request they send (an AHC
 * {@link Request} is immutable, so it is built once).
 *
 * <p>Defaults it replaces, each of which would otherwise retry, evict, reshape or time a request
 * differently:
 * <ul>
 *   <li>a request that fails on a pooled connection is retried up to 5 times: no retries;</li>
 *   <li>pooled connections idle for 1 minute are closed by a cleaner every 100 ms: no idle
 *       timeout, so no cleaner (a connection the server closed is still dropped when it is
 *       taken from the pool);</li>
 *   <li>the request timeout (1 minute, from the send to the whole response) is the response
 *       timeout; the read timeout (1 minute without bytes) is set to the same, so it never fires
 *       before the request timeout and AHC never schedules it;</li>
 *   <li>timeouts run on a hashed-wheel timer ticking every 100 ms, late by up to a tick: every
 *       10 ms;</li>
 *   <li>the connect timeout (5 s) is the settings';</li>
 *   <li>the cookie store would send back a cookie a target set: none;</li>
 *   <li>automatic decompression (a Netty decompressor in every connection's pipeline): off;</li>
 *   <li>{@code User-Agent: AHC/2.1} becomes {@code gauntlet}.</li>
 * </ul>
 * Already as the benchmark needs them: no limit on connections in total or per host (-1), no
 * redirects, keep-alive, no {@code Accept-Encoding} (compression is not enforced). Its event loops
 * are AHC's default (Netty's NIO, twice the CPUs). AHC adds {@code Accept: *}{@code /*} to every
 * request without an {@code Accept} header, so it cannot be left out, only replaced: it is sent.
 */
final class AhcConfig {
    private AhcConfig() {
    }

    static AsyncHttpClient create(ClientSettings settings) {
        DefaultAsyncHttpClientConfig config = Dsl.config()
                .setMaxConnections(-1)
                .setMaxConnectionsPerHost(-1)
                .setMaxRequestRetry(0)
                .setFollowRedirect(false)
                .setKeepAlive(true)
                .setPooledConnectionIdleTimeout(Duration.ZERO)
                .setConnectTimeout(Duration.ofMillis(settings.connectTimeoutMs()))
                .setRequestTimeout(Duration.ofMillis(settings.responseTimeoutMs()))
                .setReadTimeout(Duration.ofMillis(settings.responseTimeoutMs()))
                .setHashedWheelTickDuration(10)
                .setCookieStore(null)
                .setCompressionEnforced(false)
                .setEnableAutomaticDecompression(false)
                .setUserAgent(ClientSettings.USER_AGENT)
                .setShutdownQuietPeriod(Duration.ZERO)
                .setShutdownTimeout(Duration.ofSeconds(5))
                .build();
        return Dsl.asyncHttpClient(config);
    }

    static Request request(ClientSettings settings) {
        return Dsl.get(settings.url().toString()).build();
    }

    /**
     * The failure as the driver should class it, where {@link ClientFailure#classify} cannot read
     * AHC: a response Netty's decoder rejects arrives as the decoder's own exception (an
     * {@link IllegalArgumentException} for a bad status line, a {@link DecoderException} for
     * headers too long) and is {@code PROTOCOL}. Any other failure is returned as it is.
     */
    static Throwable classified(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof IllegalArgumentException || t instanceof DecoderException) {
                return new ClientFailure(ErrorClass.PROTOCOL, t.getMessage(), failure);
            }
        }
        return failure;
    }
}
