package dev.gauntlet.engines.jdk;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * The {@link HttpClient} and the one {@link HttpRequest} both of {@link JdkCalls}' calls use, configured so that
 * the client sends the lean engine's request and never caps, queues, retries or redirects.
 *
 * <p>Left at their defaults, because they already are what the benchmark needs: the connection
 * pool ({@code jdk.httpclient.connectionPoolSize} is 0, no cap: it bounds only the idle
 * connections kept, and a request that finds none idle opens a new one, so nothing waits for a
 * connection); no cookie handler; no authenticator; HTTP/1.1 keep-alive. No header the lean engine
 * does not send is left: the JDK sends no {@code Accept-Encoding}, no {@code Connection} and, for a
 * GET without a body, no {@code Content-Length}.
 */
final class JdkConfig {
    /**
     * How long an idle connection stays in the pool, in seconds, instead of the JDK's 30: longer
     * than any run, so a connection idle through a warm-up or a long response is still reused.
     */
    private static final long KEEP_ALIVE_SEC = 3_600;

    static {
        // The JDK reads these once, into static finals, when its client classes load: they must be
        // set before the first client is built, and they hold for every client of the process.
        System.setProperty("jdk.httpclient.keepalive.timeout", Long.toString(KEEP_ALIVE_SEC));
        // Without it a refused or failed connect is tried a second time, inside the one request.
        System.setProperty("jdk.httpclient.disableRetryConnect", "true");
        // Attempts per request (default 5, shared by redirects and retries): one, so a GET whose
        // pooled connection fails before any response byte (ConnectionExpiredException) is not
        // sent again. That retry has no switch of its own; the request fails as the reset it was.
        System.setProperty("jdk.httpclient.redirects.retrylimit", "1");
    }

    /**
     * {@code --insecure}: the JDK checks the server's name whatever the context trusts, and only a system property,
     * read once when its classes load, turns that off; so it is set before the first insecure client is built and
     * holds for the rest of the process, whose one load is insecure anyway.
     */
    private static void skipHostNameCheck() {
        System.setProperty("jdk.internal.httpclient.disableHostnameVerification", "true");
    }

    private JdkConfig() {
    }

    /**
     * A client with its own selector thread. HTTP/1.1 unless the load is HTTP/2: the JDK's HTTP/2 on plain HTTP adds
     * {@code Connection: Upgrade, HTTP2-Settings}, {@code Upgrade: h2c} and {@code HTTP2-Settings} to the first request
     * and has no prior knowledge, so the JDK does not speak h2c here; over TLS it offers h2 and http/1.1 by ALPN (a
     * server that picks HTTP/1.1 shows as {@code PROTOCOL} failures) and puts every stream on one connection per
     * host. Redirects are not followed (the default, made explicit). No
     * proxy, rather than the system's default selector, which {@code http.proxyHost} would turn
     * into a proxy for a non-local target. The connect timeout replaces the default of none (the
     * operating system's).
     *
     * <p>A direct executor replaces the default, a cached thread pool: the JDK then completes the
     * exchange on its selector thread (the blocking call's caller just wakes up), where by default
     * each response is handed from the selector thread to a pool thread, and the pool grows a
     * thread whenever more responses complete at once than it has idle threads: hidden threads
     * beside the mode's own. Nothing run on the selector thread this way blocks: the body is
     * collected as bytes.
     */
    static HttpClient client(ClientSettings settings) {
        HttpClient.Builder builder = HttpClient.newBuilder()
                .version(settings.http2() ? HttpClient.Version.HTTP_2 : HttpClient.Version.HTTP_1_1)
                .followRedirects(HttpClient.Redirect.NEVER)
                .proxy(HttpClient.Builder.NO_PROXY)
                .connectTimeout(Duration.ofMillis(settings.connectTimeoutMs()))
                .executor(Runnable::run);
        if (settings.tls()) {
            if (!settings.checksHostName()) {
                skipHostNameCheck();
            }
            builder.sslContext(settings.sslContext());
        }
        return builder.build();
    }

    /** The version the JDK spoke for {@code response} (HTTP/3 only from Java 26). */
    static ClientResponse.Version version(HttpResponse<?> response) {
        return ClientResponse.Version.http2If(response.version() == HttpClient.Version.HTTP_2);
    }

    /**
     * The GET every call sends. {@code User-Agent: gauntlet} replaces the JDK's
     * {@code Java-http-client/<version>}. The timeout is the response timeout, counted from the
     * send; the JDK stops it when the response head has arrived, so a body that stalls after the
     * head is left to the driver's own deadline.
     */
    static HttpRequest request(ClientSettings settings) {
        return HttpRequest.newBuilder(settings.url())
                .GET()
                .header("User-Agent", ClientSettings.USER_AGENT)
                .timeout(Duration.ofMillis(settings.responseTimeoutMs()))
                .build();
    }

    /**
     * The failure as the driver should class it: the JDK fails a request whose HTTP/2 stream the server reset with a
     * plain {@code IOException} named only by its message ({@code jdk.internal.net.http.Stream}): "Received
     * RST_STREAM: CODE", or for {@code REFUSED_STREAM} "request not processed by peer". It is {@code STREAM_RESET},
     * where {@link ClientFailure#classify} would see an I/O failure, a {@code RESET}. Any other failure is returned as
     * it is.
     */
    static Throwable classified(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getClass() == IOException.class && t.getMessage() != null
                    && (t.getMessage().startsWith("Received RST_STREAM: ") || t.getMessage().equals("request not processed by peer"))) {
                return new ClientFailure(ErrorClass.STREAM_RESET, "the server reset the stream (" + t.getMessage() + ")", failure);
            }
        }
        return failure;
    }

    /** Fails what is in flight and stops the selector thread, waiting for it a moment at most. */
    static void close(HttpClient client) throws InterruptedException {
        client.shutdownNow();
        client.awaitTermination(Duration.ofSeconds(1));
    }
}
