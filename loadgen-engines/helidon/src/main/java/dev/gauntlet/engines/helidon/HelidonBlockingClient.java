package dev.gauntlet.engines.helidon;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import io.helidon.common.buffers.DataReader;
import io.helidon.http.HeaderNames;
import io.helidon.webclient.api.HttpClientResponse;
import io.helidon.webclient.api.Proxy;
import io.helidon.webclient.http1.Http1Client;

import java.net.URI;
import java.time.Duration;

/**
 * The Helidon 4 WebClient's HTTP/1.1 client, {@link Http1Client}: {@code get().uri(url).request()}
 * on the calling thread, the whole body read as bytes. Helidon's client is blocking only (it is
 * built for virtual threads), so there is no async engine.
 *
 * <p>What it changes from {@link Http1Client#builder()}'s defaults, and why:
 * <ul>
 * <li>no redirects (followed by default, up to 10);</li>
 * <li>its own connection cache (the default is one shared by every client in the JVM, which
 *     {@link #close()} could not empty), keeping up to {@code maxConcurrency} idle connections
 *     (instead of 256, past which a returned connection is closed); it never caps the connections
 *     open and never evicts an idle one;</li>
 * <li>no proxy (the default follows the system proxy settings);</li>
 * <li>the settings' connect timeout, and the response timeout as the socket read timeout (Helidon
 *     has no deadline for a whole response);</li>
 * <li>{@code User-Agent: gauntlet} (Helidon sends none of its own).</li>
 * </ul>
 * Keep-alive is on by default; Helidon neither retries nor compresses nor keeps cookies by default.
 * It always sends {@code Connection: keep-alive} (added as the connection is taken, after any
 * service could remove it) and {@code Content-Length: 0} (it writes every request without an
 * entity as one with an empty entity).
 *
 * <p>Failures: Helidon throws I/O errors wrapped in {@code UncheckedIOException}, which
 * {@link ClientFailure#classify} looks through; a connection that ends before the whole response
 * as a {@link DataReader.InsufficientDataAvailableException}, classed {@code RESET} here; a status
 * line or header it cannot parse as an {@code IllegalStateException} or
 * {@code IllegalArgumentException}, classed {@code PROTOCOL} here.
 */
public final class HelidonBlockingClient implements BlockingClient {
    private final URI url;
    private final Http1Client client;

    public HelidonBlockingClient(ClientSettings settings) {
        this.url = settings.url();
        this.client = Http1Client.builder()
                .followRedirects(false)
                .shareConnectionCache(false)
                .connectionCacheSize(settings.maxConcurrency())
                .proxy(Proxy.noProxy())
                .connectTimeout(Duration.ofMillis(settings.connectTimeoutMs()))
                .readTimeout(Duration.ofMillis(settings.responseTimeoutMs()))
                .addHeader(HeaderNames.USER_AGENT, ClientSettings.USER_AGENT)
                .build();
    }

    @Override
    public ClientResponse get() throws ClientFailure {
        try (HttpClientResponse response = client.get().uri(url).request()) {
            byte[] body = response.entity().hasEntity() ? response.entity().as(byte[].class) : new byte[0];
            return new ClientResponse(response.status().code(), body, false);
        } catch (DataReader.InsufficientDataAvailableException e) {
            throw new ClientFailure(ErrorClass.RESET, "connection closed before the whole response", e);
        } catch (IllegalStateException | IllegalArgumentException e) {
            throw new ClientFailure(ErrorClass.PROTOCOL, e.getMessage(), e);
        }
    }

    /**
     * Closes the client's connection cache and with it the idle connections. Helidon cannot abort
     * a request in flight: one ends by its response or its read timeout, at the latest.
     */
    @Override
    public void close() {
        client.closeResource();
    }
}
