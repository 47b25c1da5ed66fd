package dev.gauntlet.engines.helidon;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import io.helidon.common.buffers.DataReader;
import io.helidon.webclient.api.HttpClient;
import io.helidon.webclient.api.HttpClientResponse;

import java.net.URI;
import java.util.function.BooleanSupplier;

/**
 * The Helidon 4 WebClient: {@code get().uri(url).request()} on the calling thread, the whole body read as bytes, on
 * the client {@link HelidonConfig} builds ({@code Http1Client}, or {@code Http2Client} for HTTP/2). Helidon's client
 * is blocking only (it is built for virtual threads), so there is no async engine.
 *
 * <p>Helidon always sends {@code Connection: keep-alive} over HTTP/1.1 (added as the connection is taken, after any
 * service could remove it) and {@code Content-Length: 0} (it writes every request without an entity as one with an
 * empty entity).
 *
 * <p>Failures: Helidon throws I/O errors wrapped in {@code UncheckedIOException}, which
 * {@link ClientFailure#classify} looks through; a connection that ends before the whole response
 * as a {@link DataReader.InsufficientDataAvailableException}, classed {@code RESET} here; a status
 * line or header it cannot parse as an {@code IllegalStateException} or
 * {@code IllegalArgumentException}, classed {@code PROTOCOL} here; an HTTP/2 stream the server reset
 * ({@code RST_STREAM}) as an {@code IllegalStateException} of its own message, {@code STREAM_RESET} here.
 */
public final class HelidonBlockingClient implements BlockingClient {
    /**
     * What Helidon 4.5's {@code Http2ClientStream.readHeaders} throws for a stream closed before its response headers:
     * only a {@code RST_STREAM} from the server closes it then (the other close is the client's own, as it ends).
     */
    private static final String STREAM_RESET = "Stream closed while waiting for response headers";

    private final URI url;
    private final HttpClient<?> client;
    /** Whether the calling thread's last response came as HTTP/2. */
    private final BooleanSupplier lastOnHttp2;

    public HelidonBlockingClient(ClientSettings settings) {
        this.url = settings.url();
        if (settings.http2()) {
            Http2Responses responses = new Http2Responses();
            this.client = HelidonConfig.http2Client(settings, responses);
            this.lastOnHttp2 = responses::lastOnHttp2;
        } else {
            this.client = HelidonConfig.http1Client(settings);
            // Http1Client speaks HTTP/1.1 and nothing else: no need to watch it.
            this.lastOnHttp2 = () -> false;
        }
    }

    @Override
    public ClientResponse get() throws ClientFailure {
        try (HttpClientResponse response = client.get().uri(url).request()) {
            byte[] body = response.entity().hasEntity() ? response.entity().as(byte[].class) : new byte[0];
            return new ClientResponse(response.status().code(), body, ClientResponse.Version.http2If(lastOnHttp2.getAsBoolean()));
        } catch (DataReader.InsufficientDataAvailableException e) {
            throw new ClientFailure(ErrorClass.RESET, "connection closed before the whole response", e);
        } catch (IllegalStateException e) {
            throw STREAM_RESET.equals(e.getMessage())
                    ? new ClientFailure(ErrorClass.STREAM_RESET, "the server reset the stream", e)
                    : new ClientFailure(ErrorClass.PROTOCOL, e.getMessage(), e);
        } catch (IllegalArgumentException e) {
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
