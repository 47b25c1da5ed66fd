package dev.gauntlet.engines.helidon;

import dev.gauntlet.loadgen.engine.ClientSettings;
import io.helidon.common.socket.SocketOptions;
import io.helidon.common.tls.Tls;
import io.helidon.http.HeaderNames;
import io.helidon.webclient.api.HttpClientConfig;
import io.helidon.webclient.api.Proxy;
import io.helidon.webclient.http1.Http1Client;
import io.helidon.webclient.http2.Http2Client;
import io.helidon.webclient.http2.Http2ClientProtocolConfig;

import java.time.Duration;

/**
 * The Helidon client the engine calls: {@link Http1Client} for HTTP/1.1, {@link Http2Client} for HTTP/2, both over
 * TLS for an {@code https} URL.
 *
 * <p>What it changes from the builders' defaults, and why:
 * <ul>
 * <li>no redirects (followed by default, up to 10);</li>
 * <li>its own connection cache (the default is one shared by every client in the JVM, which
 *     {@code closeResource()} could not empty). HTTP/1.1 keeps up to {@code maxConcurrency} idle connections
 *     (instead of 256, past which a returned connection is closed); it never caps the connections open and never
 *     evicts an idle one. HTTP/2 has no size to set: one connection per host carries every stream, and a stream that
 *     finds it at the server's {@code SETTINGS_MAX_CONCURRENT_STREAMS} opens another connection instead of
 *     waiting;</li>
 * <li>no proxy (the default follows the system proxy settings);</li>
 * <li>the settings' connect timeout, and the response timeout as the read timeout (of the socket over HTTP/1.1, of
 *     the stream over HTTP/2; Helidon has no deadline for a whole response);</li>
 * <li>{@code User-Agent: gauntlet} (Helidon sends none of its own over HTTP/1.1, {@code Helidon <version>} over
 *     HTTP/2);</li>
 * <li>over TLS, the run's trust ({@link ClientSettings#sslContext()}) and, with {@code --insecure}, no host-name
 *     check (Helidon checks it by default, whatever the context trusts);</li>
 * <li>HTTP/2 with prior knowledge: in clear ({@code h2c}) the connection starts with HTTP/2's preface instead of
 *     an {@code Upgrade} from HTTP/1.1, and over TLS ALPN offers {@code h2} alone instead of {@code h2} and
 *     {@code http/1.1}, so Helidon never falls back to HTTP/1.1 in silence (a server without HTTP/2 fails the
 *     request);</li>
 * <li>over HTTP/2, {@code TCP_NODELAY} (off by default): every stream's {@code HEADERS} and the connection's
 *     {@code WINDOW_UPDATE}s are small writes on one shared connection, and Nagle's algorithm holds a small write
 *     while an earlier one is unacknowledged, which the server's delayed ACK stretches: 25 to 35 ms of median
 *     latency at 200 requests/s in clear, against 1 ms with it on. HTTP/1.1 writes a request at once on a
 *     connection of its own and measured the same either way, so it keeps Helidon's default.</li>
 * </ul>
 * Keep-alive is on by default; Helidon neither retries nor compresses nor keeps cookies by default.
 */
final class HelidonConfig {
    private HelidonConfig() {
    }

    static Http1Client http1Client(ClientSettings settings) {
        return common(Http1Client.builder(), settings)
                .connectionCacheSize(settings.maxConcurrency())
                .build();
    }

    /** @param responses sees each response, for {@link Http2Responses#lastOnHttp2()} */
    static Http2Client http2Client(ClientSettings settings, Http2Responses responses) {
        return common(Http2Client.builder(), settings)
                .protocolConfig(Http2ClientProtocolConfig.builder().priorKnowledge(true).build())
                .socketOptions(SocketOptions.builder().tcpNoDelay(true).build())
                .addService(responses)
                .build();
    }

    /** What both clients share. */
    private static <B extends HttpClientConfig.BuilderBase<B, ?>> B common(B builder, ClientSettings settings) {
        builder.followRedirects(false)
                .shareConnectionCache(false)
                .proxy(Proxy.noProxy())
                .connectTimeout(Duration.ofMillis(settings.connectTimeoutMs()))
                .readTimeout(Duration.ofMillis(settings.responseTimeoutMs()))
                .addHeader(HeaderNames.USER_AGENT, ClientSettings.USER_AGENT);
        if (settings.tls()) {
            builder.tls(tls(settings));
        }
        return builder;
    }

    /**
     * The run's trust as Helidon's TLS. Given a context, Helidon ignores its own trust settings (so no
     * {@code trustAll}: the context already accepts any certificate when insecure) but still applies the
     * endpoint identification, which is the host-name check.
     */
    private static Tls tls(ClientSettings settings) {
        return Tls.builder()
                .sslContext(settings.sslContext())
                .endpointIdentificationAlgorithm(settings.checksHostName()
                        ? Tls.ENDPOINT_IDENTIFICATION_HTTPS : Tls.ENDPOINT_IDENTIFICATION_NONE)
                .build();
    }
}
