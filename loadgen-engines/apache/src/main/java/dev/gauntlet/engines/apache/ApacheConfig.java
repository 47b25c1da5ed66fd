package dev.gauntlet.engines.apache;

import dev.gauntlet.loadgen.engine.ClientSettings;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The settings the classic and the async client share: HttpClient 5 takes the same
 * {@link RequestConfig} and {@link ConnectionConfig} in both, so both engines are configured alike.
 */
final class ApacheConfig {
    /**
     * How long an idle connection stays reusable: longer than any run, so a connection that sat
     * idle through the warm-up is still there (the default keep-alive is 3 minutes when the
     * server sends no {@code Keep-Alive} header).
     */
    static final TimeValue IDLE_KEPT = TimeValue.ofDays(1);

    private ApacheConfig() {
    }

    /**
     * Per request: the response timeout is the settings' one (HttpClient applies it as a socket
     * timeout while it waits for the response, not as a deadline for the whole response); the
     * connection lease may wait as long (the pool holds {@code maxConcurrency} connections, so it
     * never has to); no redirects; no {@code Accept-Encoding} (compression is on by default); no
     * {@code Upgrade: TLS/1.2} on plain HTTP (sent by default since 5.4).
     */
    static RequestConfig requestConfig(ClientSettings settings) {
        Timeout response = Timeout.ofMilliseconds(settings.responseTimeoutMs());
        return RequestConfig.custom()
                .setResponseTimeout(response)
                .setConnectionRequestTimeout(response)
                .setConnectionKeepAlive(IDLE_KEPT)
                .setRedirectsEnabled(false)
                .setContentCompressionEnabled(false)
                .setProtocolUpgradeEnabled(false)
                .setAuthenticationEnabled(false)
                .build();
    }

    /**
     * Per connection: the settings' connect timeout (the default is 3 minutes) and the response
     * timeout as the socket timeout. The defaults that stay: no time to live and no idle eviction,
     * so a connection closes only when the server closes it or the client is closed; a connection
     * idle for over 2 s is checked for staleness before reuse (the classic client only).
     */
    static ConnectionConfig connectionConfig(ClientSettings settings) {
        return ConnectionConfig.custom()
                .setConnectTimeout(Timeout.ofMilliseconds(settings.connectTimeoutMs()))
                .setSocketTimeout(Timeout.ofMilliseconds(settings.responseTimeoutMs()))
                .build();
    }
}
