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
import java.util.concurrent.CancellationException;

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
        client.execute(SimpleRequestBuilder.get(url).build(), new FutureCallback<SimpleHttpResponse>() {
            @Override
            public void completed(SimpleHttpResponse response) {
                byte[] body = response.getBodyBytes();
                callback.completed(new ClientResponse(response.getCode(), body == null ? new byte[0] : body));
            }

            @Override
            public void failed(Exception failure) {
                callback.failed(ApacheConfig.classified(failure));
            }

            @Override
            public void cancelled() {
                callback.failed(new CancellationException("request cancelled"));
            }
        });
    }

    /** Stops the I/O reactor and closes every connection at once, without waiting for requests in flight. */
    @Override
    public void close() {
        client.close(CloseMode.IMMEDIATE);
    }
}
