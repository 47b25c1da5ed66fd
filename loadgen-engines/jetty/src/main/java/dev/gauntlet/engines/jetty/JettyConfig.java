package dev.gauntlet.engines.jetty;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.client.HttpClientTransport;
import org.eclipse.jetty.client.HttpResponseException;
import org.eclipse.jetty.client.Request;
import org.eclipse.jetty.client.Response;
import org.eclipse.jetty.client.transport.HttpClientTransportOverHTTP;
import org.eclipse.jetty.http.HttpCookieStore;
import org.eclipse.jetty.http.HttpField;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http2.ErrorCode;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.eclipse.jetty.util.ssl.SslContextFactory;

import java.io.IOException;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

/**
 * The one Jetty {@link HttpClient} set-up both of {@link JettyCalls}' calls share, and the request they send.
 *
 * <p>Defaults it replaces, each of which would otherwise cap, queue, reshape or retry a request:
 * <ul>
 *   <li>{@code maxConnectionsPerDestination} 64 and {@code maxRequestsQueuedPerDestination} 1,024
 *       become {@code maxConcurrency}: every request the driver has in flight gets its own
 *       connection, and the queue is never the limit (a full queue would reject, not wait);</li>
 *   <li>redirects are followed by default: off, the driver sees the 3xx itself;</li>
 *   <li>the 30 s idle timeout would close a connection left idle through a long warm-up, and fail
 *       a request waiting on a slow response: none (0); the request's total timeout bounds a
 *       response instead;</li>
 *   <li>the gzip decoder registered at start makes every request carry {@code Accept-Encoding:
 *       gzip}: removed, so the request has no {@code Accept-Encoding};</li>
 *   <li>{@code User-Agent: Jetty/12.1.14} becomes {@code gauntlet};</li>
 *   <li>the default cookie store would send back a cookie a target set: an empty store;</li>
 *   <li>the transport, HTTP/1.1 by default, is the load's ({@link #transport});</li>
 *   <li>over TLS, the JDK's trust becomes the run's ({@link ClientSettings#sslContext()}), and with
 *       {@code --insecure} the host-name check (endpoint identification) is off too.</li>
 * </ul>
 * The client's thread pool (a {@code QueuedThreadPool} of up to 200 threads) is left as it is: it
 * runs the selectors and the short completion tasks, never one thread per request, so it does
 * not bound the requests in flight.
 *
 * <p>Over HTTP/2 the pool is a multiplexing one: a connection carries up to the server's
 * {@code SETTINGS_MAX_CONCURRENT_STREAMS} streams (one until the server's settings arrive), and a request
 * that finds every connection at that limit opens another, up to {@code maxConnectionsPerDestination};
 * with that at {@code maxConcurrency} no request waits for a stream.
 */
final class JettyConfig {
    private JettyConfig() {
    }

    /** A started client configured for {@code settings}. */
    static HttpClient start(ClientSettings settings) throws Exception {
        HttpClient client = new HttpClient(transport(settings));
        client.setName("gauntlet-jetty");
        if (settings.tls()) {
            client.setSslContextFactory(sslContextFactory(settings));
        }
        client.setMaxConnectionsPerDestination(settings.maxConcurrency());
        client.setMaxRequestsQueuedPerDestination(settings.maxConcurrency());
        client.setFollowRedirects(false);
        client.setConnectTimeout(settings.connectTimeoutMs());
        client.setIdleTimeout(0);
        client.setUserAgentField(new HttpField(HttpHeader.USER_AGENT, ClientSettings.USER_AGENT));
        client.setHttpCookieStore(new HttpCookieStore.Empty());
        client.start();
        // HttpClient.doStart() registers the gzip decoder, so it can only be removed once started.
        client.getContentDecoderFactories().clear();
        return client;
    }

    /**
     * HTTP/1.1, or HTTP/2 when the load is: over TLS offered by ALPN as {@code h2} alone (the HTTP/2 transport
     * offers nothing else, so a server without HTTP/2 fails the connection rather than answering on HTTP/1.1), in
     * clear with prior knowledge (the transport starts with HTTP/2's preface for an {@code http} URL, never an
     * {@code Upgrade}). Its timeouts, buffers and threads come from the client when it starts.
     */
    private static HttpClientTransport transport(ClientSettings settings) {
        return settings.http2() ? new HttpClientTransportOverHTTP2(new HTTP2Client()) : new HttpClientTransportOverHTTP();
    }

    /** The run's trust; {@code --insecure} also turns off the host-name check, which Jetty makes by default. */
    private static SslContextFactory.Client sslContextFactory(ClientSettings settings) {
        SslContextFactory.Client factory = new SslContextFactory.Client();
        factory.setSslContext(settings.sslContext());
        if (!settings.checksHostName()) {
            factory.setTrustAll(true);
            factory.setEndpointIdentificationAlgorithm(null);
        }
        return factory;
    }

    /** The version Jetty spoke for {@code response}. */
    static ClientResponse.Version version(Response response) {
        return ClientResponse.Version.http2If(response.getVersion() == HttpVersion.HTTP_2);
    }

    /**
     * A GET of the settings' URL whose total timeout (queueing, connect, send and the whole
     * response) is the response timeout; Jetty aborts the exchange and closes its connection when
     * it fires, failing with a {@code TimeoutException}.
     */
    static Request request(HttpClient client, ClientSettings settings) {
        return client.newRequest(settings.url()).timeout(settings.responseTimeoutMs(), TimeUnit.MILLISECONDS);
    }

    /**
     * The failure as the driver should class it: Jetty reports a response it cannot parse as its
     * own {@link HttpResponseException}, which {@link ClientFailure#classify} would class as
     * {@code CLIENT}; it is {@code PROTOCOL}. An HTTP/2 stream the server reset ({@code RST_STREAM}) is
     * {@code STREAM_RESET}, where classify would see a bare {@code IOException}. Any other failure is returned as it is.
     */
    static Throwable classified(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof HttpResponseException) {
                return new ClientFailure(ErrorClass.PROTOCOL, t.getMessage(), failure);
            }
            if (isStreamReset(t)) {
                return new ClientFailure(ErrorClass.STREAM_RESET, "the server reset the stream (" + t.getMessage() + ")", failure);
            }
        }
        return failure;
    }

    /**
     * Jetty fails an exchange whose stream the server reset with a plain {@code IOException} whose message is only the
     * reset's error code as {@link ErrorCode#toString} names it ({@code HttpReceiverOverHTTP2.onReset}).
     */
    private static boolean isStreamReset(Throwable t) {
        return t.getClass() == IOException.class && Arrays.stream(ErrorCode.values())
                .anyMatch(code -> ErrorCode.toString(code.code, null).equals(t.getMessage()));
    }
}
