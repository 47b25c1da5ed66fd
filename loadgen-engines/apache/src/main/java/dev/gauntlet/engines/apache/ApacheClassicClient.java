package dev.gauntlet.engines.apache;

import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;
import org.apache.hc.client5.http.impl.io.PoolingHttpClientConnectionManagerBuilder;
import org.apache.hc.core5.http.ClassicHttpResponse;
import org.apache.hc.core5.http.HttpEntity;
import org.apache.hc.core5.http.io.entity.EntityUtils;
import org.apache.hc.core5.io.CloseMode;

import java.io.IOException;
import java.net.URI;

/**
 * Apache HttpClient 5's classic (blocking) client, {@link CloseableHttpClient#execute} with a
 * response handler, which reads the whole body and hands the connection back to the pool.
 *
 * <p>What it changes from {@link HttpClients#custom()}'s defaults, and why: the pool holds
 * {@code maxConcurrency} connections per route and in total (instead of 5 and 25, past which a
 * request waits for a lease for up to 3 minutes); no retries (the default retries idempotent
 * requests after an I/O error), no redirects, no cookies, no compression, no authentication
 * caching or connection state, no {@code Upgrade} header; {@code User-Agent: gauntlet} and no
 * {@code Connection} header. The timeouts and keep-alive are {@link ApacheConfig}'s.
 */
public final class ApacheClassicClient implements BlockingClient {
    private final URI url;
    private final CloseableHttpClient client;

    public ApacheClassicClient(ClientSettings settings) {
        this.url = settings.url();
        this.client = HttpClients.custom()
                .setConnectionManager(PoolingHttpClientConnectionManagerBuilder.create()
                        .setMaxConnTotal(settings.maxConcurrency())
                        .setMaxConnPerRoute(settings.maxConcurrency())
                        .setDefaultConnectionConfig(ApacheConfig.connectionConfig(settings))
                        .build())
                .setDefaultRequestConfig(ApacheConfig.requestConfig(settings))
                .setUserAgent(ClientSettings.USER_AGENT)
                .addRequestInterceptorLast(ApacheConfig.NO_CONNECTION_HEADER)
                .disableAutomaticRetries()
                .disableRedirectHandling()
                .disableCookieManagement()
                .disableContentCompression()
                .disableAuthCaching()
                .disableConnectionState()
                .build();
    }

    @Override
    public ClientResponse get() throws Exception {
        try {
            return client.execute(new HttpGet(url), ApacheClassicClient::whole);
        } catch (IOException e) {
            throw ApacheConfig.classified(e);
        }
    }

    private static ClientResponse whole(ClassicHttpResponse response) throws IOException {
        HttpEntity entity = response.getEntity();
        return new ClientResponse(response.getCode(), entity == null ? new byte[0] : EntityUtils.toByteArray(entity),
                ClientResponse.Version.HTTP_1_1);
    }

    /** Closes every connection at once, without waiting for requests in flight. */
    @Override
    public void close() {
        client.close(CloseMode.IMMEDIATE);
    }
}
