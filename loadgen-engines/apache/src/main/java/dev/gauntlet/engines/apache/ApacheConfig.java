package dev.gauntlet.engines.apache;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientSettings;
import org.apache.hc.client5.http.config.ConnectionConfig;
import org.apache.hc.client5.http.config.RequestConfig;
import org.apache.hc.core5.http.HttpHeaders;
import org.apache.hc.core5.http.HttpRequestInterceptor;
import org.apache.hc.core5.http.ProtocolException;
import org.apache.hc.core5.util.TimeValue;
import org.apache.hc.core5.util.Timeout;

/**
 * The settings the classic and the async client share: HttpClient 5 takes the same
 * {@link RequestConfig}, {@link ConnectionConfig} and request interceptors in both, so both
 * engines are configured alike.
 */
final class ApacheConfig {
    /**
     * How long an idle connection stays reusable: longer than any run, so a connection that sat
     * idle through the warm-up is still there (the default keep-alive is 3 minutes when the
     * server sends no {@code Keep-Alive} header; a server's {@code Keep-Alive: timeout} still rules).
     */
    private static final TimeValue IDLE_KEPT = TimeValue.ofDays(1);

    /**
     * Removes the {@code Connection: keep-alive} header HttpClient adds to every request (an
     * HTTP/1.1 connection is persistent without it), so the request on the wire is the lean
     * engine's. Added last, it runs after the client's own interceptors.
     */
    static final HttpRequestInterceptor NO_CONNECTION_HEADER =
            (request, entity, context) -> request.removeHeaders(HttpHeaders.CONNECTION);

    private ApacheConfig() {
    }

    /**
     * A failure as the driver should class it: a response HttpClient cannot parse is a
     * {@link ProtocolException} (wrapped in an {@code IOException} by the classic client), which
     * {@link ClientFailure#classify} would take for a reset or the client's own failure.
     */
    static Exception classified(Exception failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof ProtocolException) {
                return new ClientFailure(ErrorClass.PROTOCOL, t.getMessage(), failure);
            }
        }
        return failure;
    }

    /**
     * Per request: the response timeout is the settings' one (HttpClient applies it as a socket
     * timeout while it waits for the response, not as a deadline for the whole response); the
     * connection lease may wait as long (the pool holds {@code maxConcurrency} connections, so it
     * never has to); no redirects; no authentication; no {@code Accept-Encoding} (compression is on by default); no
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
     * so a connection closes only when the server closes it or the client is closed; the classic
     * client checks a connection idle for over 2 s for staleness before reusing it (which saves
     * a request sent on a connection the server has closed).
     */
    static ConnectionConfig connectionConfig(ClientSettings settings) {
        return ConnectionConfig.custom()
                .setConnectTimeout(Timeout.ofMilliseconds(settings.connectTimeoutMs()))
                .setSocketTimeout(Timeout.ofMilliseconds(settings.responseTimeoutMs()))
                .build();
    }
}
