package dev.gauntlet.engines.apache;

import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import org.apache.hc.client5.http.async.methods.SimpleHttpRequest;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.config.TlsConfig;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.core5.concurrent.FutureCallback;
import org.apache.hc.core5.http2.HttpVersionPolicy;
import org.apache.hc.core5.io.CloseMode;
import org.apache.hc.core5.reactor.IOReactorConfig;
import org.apache.hc.core5.util.TimeValue;

import java.net.URI;
import java.util.Set;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Apache HttpClient 5's async client, {@link CloseableHttpAsyncClient#execute} of a
 * {@link SimpleHttpRequest} (the whole body buffered) with a {@link FutureCallback}, completed on
 * the client's I/O reactor threads (one per CPU, its default).
 *
 * <p>What it changes from {@link HttpAsyncClients#custom()}'s defaults, and why: HTTP/1.1 only
 * ({@link HttpVersionPolicy#FORCE_HTTP_1}); the pool holds {@code maxConcurrency} connections per
 * route and in total (instead of 5 and 25, past which a request waits for a lease for up to 3
 * minutes); no retries, no redirects, no cookies, no compression, no authentication caching or
 * connection state; {@code User-Agent: gauntlet} and no {@code Connection} header; timeouts
 * checked every 100 ms instead of every second. The timeouts and keep-alive are
 * {@link ApacheConfig}'s.
 */
public final class ApacheAsyncClient implements AsyncClient {
    /**
     * How often the I/O reactor checks its connections' timeouts: a timeout fires up to this late
     * (the default, 1 s, made a 700 ms connect timeout fire after 1 s).
     */
    private static final TimeValue TIMEOUT_CHECK_INTERVAL = TimeValue.ofMilliseconds(100);

    private final URI url;
    private final CloseableHttpAsyncClient client;
    /** The requests sent and not yet answered, for {@link #close()}. */
    private final Set<Exchange> inFlight = ConcurrentHashMap.newKeySet();

    public ApacheAsyncClient(ClientSettings settings) {
        this.url = settings.url();
        this.client = HttpAsyncClients.custom()
                .setConnectionManager(PoolingAsyncClientConnectionManagerBuilder.create()
                        .setMaxConnTotal(settings.maxConcurrency())
                        .setMaxConnPerRoute(settings.maxConcurrency())
                        .setDefaultConnectionConfig(ApacheConfig.connectionConfig(settings))
                        .setDefaultTlsConfig(TlsConfig.custom().setVersionPolicy(HttpVersionPolicy.FORCE_HTTP_1).build())
                        .build())
                .setDefaultRequestConfig(ApacheConfig.requestConfig(settings))
                .setIOReactorConfig(IOReactorConfig.custom().setSelectInterval(TIMEOUT_CHECK_INTERVAL).build())
                .setUserAgent(ClientSettings.USER_AGENT)
                .addRequestInterceptorLast(ApacheConfig.NO_CONNECTION_HEADER)
                .disableAutomaticRetries()
                .disableRedirectHandling()
                .disableCookieManagement()
                .disableContentCompression()
                .disableAuthCaching()
                .disableConnectionState()
                .build();
        client.start();
    }

    @Override
    public void get(Callback callback) {
        Exchange exchange = new Exchange(callback);
        inFlight.add(exchange);
        client.execute(SimpleRequestBuilder.get(url).build(), exchange);
    }

    /**
     * Stops the I/O reactor and closes every connection at once, without waiting for requests in
     * flight, then fails the requests whose callback HttpClient has not called: its immediate
     * close notifies some of them and not others (up to 7 of 20 held requests were never told,
     * in three trials of five).
     */
    @Override
    public void close() {
        client.close(CloseMode.IMMEDIATE);
        inFlight.forEach(exchange -> exchange.failed(new CancellationException("client closed")));
    }

    /** One request's callback: tells the driver once, however many times HttpClient calls it. */
    private final class Exchange implements FutureCallback<SimpleHttpResponse> {
        private final Callback callback;

        Exchange(Callback callback) {
            this.callback = callback;
        }

        @Override
        public void completed(SimpleHttpResponse response) {
            if (inFlight.remove(this)) {
                byte[] body = response.getBodyBytes();
                callback.completed(new ClientResponse(response.getCode(), body == null ? new byte[0] : body,
                        ClientResponse.Version.HTTP_1_1));
            }
        }

        @Override
        public void failed(Exception failure) {
            if (inFlight.remove(this)) {
                callback.failed(ApacheConfig.classified(failure));
            }
        }

        @Override
        public void cancelled() {
            failed(new CancellationException("request cancelled"));
        }
    }
}
