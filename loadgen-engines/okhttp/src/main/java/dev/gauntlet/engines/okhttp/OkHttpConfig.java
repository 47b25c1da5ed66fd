package dev.gauntlet.engines.okhttp;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import okhttp3.Call;
import okhttp3.ConnectionPool;
import okhttp3.Dispatcher;
import okhttp3.HttpUrl;
import okhttp3.OkHttpClient;
import okhttp3.Protocol;
import okhttp3.Request;
import okhttp3.Response;
import okhttp3.internal.http2.StreamResetException;

import javax.net.ssl.HostnameVerifier;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The {@link OkHttpClient} and the {@link Request} both of {@link OkHttpCalls}' calls use, and how they read a
 * response and a failure.
 *
 * <p>What it changes from {@code new OkHttpClient()}'s defaults, and why:
 * <ul>
 * <li>the {@link Dispatcher} runs {@code maxConcurrency} enqueued calls at once, in total and per
 *     host (instead of 64 and 5, past which it queues calls silently);</li>
 * <li>the {@link ConnectionPool} keeps {@code maxConcurrency} idle connections for a day (instead
 *     of 5 for 5 minutes), so a connection idle through the warm-up is still there;</li>
 * <li>the protocols are the load's alone ({@link #protocols}), rather than HTTP/2 and HTTP/1.1 over TLS chosen by
 *     ALPN; no retry on a connection failure; no redirects;</li>
 * <li>over TLS, the run's trust ({@link ClientSettings#sslContext()}) rather than the JDK's, and with
 *     {@code --insecure} no host-name check either;</li>
 * <li>the call timeout (none by default) is the response timeout, a deadline for the whole call;
 *     the read and write timeouts (10 s each by default) are off, so that deadline alone decides;
 *     the connect timeout (10 s by default) is the settings';</li>
 * <li>a network interceptor removes the {@code Accept-Encoding: gzip} (transparent compression)
 *     and {@code Connection: Keep-Alive} headers OkHttp adds, so the request on the wire is the
 *     lean engine's: {@code Host} and {@code User-Agent} are set on the request itself.</li>
 * </ul>
 * Cookies are off by default ({@code CookieJar.NO_COOKIES}), and there is no cache.
 *
 * <p>Over HTTP/2 OkHttp puts every stream to a host on one connection, up to the server's
 * {@code SETTINGS_MAX_CONCURRENT_STREAMS}; a call past that limit opens a further connection rather than
 * waiting, so the dispatcher's and pool's sizing above still caps nothing: the dispatcher counts calls, not
 * connections, and the pool bounds only the idle connections kept. Until a new connection has the server's
 * settings OkHttp takes its limit as unbounded, so a burst on it can go past the server's limit; the server
 * refuses those streams, and with no retries they fail.
 */
final class OkHttpConfig {
    private static final Duration IDLE_KEPT = Duration.ofDays(1);
    /** {@code --insecure}: any name, as the trust manager takes any certificate. */
    private static final HostnameVerifier ANY_HOST_NAME = (hostName, session) -> true;

    private OkHttpConfig() {
    }

    static OkHttpClient client(ClientSettings settings) {
        Dispatcher dispatcher = new Dispatcher();
        dispatcher.setMaxRequests(settings.maxConcurrency());
        dispatcher.setMaxRequestsPerHost(settings.maxConcurrency());
        OkHttpClient.Builder builder = new OkHttpClient.Builder()
                .dispatcher(dispatcher)
                .connectionPool(new ConnectionPool(settings.maxConcurrency(), IDLE_KEPT.toMillis(), TimeUnit.MILLISECONDS))
                .protocols(protocols(settings))
                .retryOnConnectionFailure(false)
                .followRedirects(false)
                .followSslRedirects(false)
                .connectTimeout(Duration.ofMillis(settings.connectTimeoutMs()))
                .callTimeout(Duration.ofMillis(settings.responseTimeoutMs()))
                .readTimeout(Duration.ZERO)
                .writeTimeout(Duration.ZERO)
                .addNetworkInterceptor(chain -> chain.proceed(chain.request().newBuilder()
                        .removeHeader("Accept-Encoding")
                        .removeHeader("Connection")
                        .build()));
        if (settings.tls()) {
            builder.sslSocketFactory(settings.sslContext().getSocketFactory(), settings.trustManager());
            if (!settings.checksHostName()) {
                builder.hostnameVerifier(ANY_HOST_NAME);
            }
        }
        return builder.build();
    }

    /**
     * What OkHttp may speak. HTTP/1.1 alone unless the load is HTTP/2. Over TLS, HTTP/2 has to be listed with
     * HTTP/1.1 (OkHttp refuses a list without it), so ALPN offers {@code h2} and {@code http/1.1}: a server that
     * picks HTTP/1.1 shows as {@code PROTOCOL} failures. In clear, prior knowledge: the connection starts with
     * HTTP/2's preface, never an {@code Upgrade} (which OkHttp does not do at all).
     */
    private static List<Protocol> protocols(ClientSettings settings) {
        if (!settings.http2()) {
            return List.of(Protocol.HTTP_1_1);
        }
        return settings.tls() ? List.of(Protocol.HTTP_2, Protocol.HTTP_1_1) : List.of(Protocol.H2_PRIOR_KNOWLEDGE);
    }

    static Request request(ClientSettings settings) {
        return new Request.Builder()
                .url(HttpUrl.get(settings.url()))
                .header("Host", settings.hostHeader())
                .header("User-Agent", ClientSettings.USER_AGENT)
                .build();
    }

    static ClientResponse whole(Response response) throws IOException {
        try (response) {
            return new ClientResponse(response.code(), response.body().bytes(), ClientResponse.Version.http2If(http2(response.protocol())));
        }
    }

    private static boolean http2(Protocol protocol) {
        return protocol == Protocol.HTTP_2 || protocol == Protocol.H2_PRIOR_KNOWLEDGE;
    }

    /**
     * A failure as the driver should class it: when the call timeout fires, OkHttp cancels the
     * call and throws a bare {@code InterruptedIOException("timeout")}, which
     * {@link ClientFailure#classify} would take for a reset; an HTTP/2 stream the server reset
     * ({@code RST_STREAM}, {@code REFUSED_STREAM} included) is {@code STREAM_RESET}, as the lean
     * engine counts it, where classify would see only an {@code IOException}.
     */
    static Exception classified(Call call, IOException failure) {
        if (call.isCanceled() && failure instanceof InterruptedIOException && !(failure instanceof SocketTimeoutException)) {
            return new ClientFailure(ErrorClass.RESPONSE_TIMEOUT, "no whole response within the call timeout", failure);
        }
        if (failure instanceof StreamResetException) {
            return new ClientFailure(ErrorClass.STREAM_RESET, "the server reset the stream", failure);
        }
        return failure;
    }

    /** Cancels the calls in flight, stops the dispatcher's threads and closes every connection. */
    static void close(OkHttpClient client) {
        client.dispatcher().cancelAll();
        client.dispatcher().executorService().shutdown();
        client.connectionPool().evictAll();
    }
}
