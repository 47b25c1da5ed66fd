package dev.gauntlet.engines.jersey;

import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import jakarta.ws.rs.client.Client;
import jakarta.ws.rs.client.ClientBuilder;
import jakarta.ws.rs.client.InvocationCallback;
import jakarta.ws.rs.client.WebTarget;
import jakarta.ws.rs.core.HttpHeaders;
import jakarta.ws.rs.core.Response;
import org.glassfish.jersey.client.ClientConfig;
import org.glassfish.jersey.client.ClientProperties;

/**
 * The Jersey client all four Jersey engines share, on the connector they name, and the GET they
 * send: {@code target.request()} with {@code User-Agent: gauntlet}, its whole entity read as bytes.
 *
 * <p>Jersey's own settings, whatever the connector:
 * <ul>
 *   <li>redirects are not followed (Jersey follows them by default);</li>
 *   <li>the connect timeout and the read timeout (none by default) are the settings';</li>
 *   <li>{@code User-Agent: gauntlet} replaces the {@code Jersey/3.1.11 (<connector>)} Jersey adds.</li>
 * </ul>
 * Already as the benchmark needs them: Jersey adds no {@code Accept} (none is set on the request;
 * {@code HttpURLConnection} adds its own), no compression (no encoding feature is registered), and
 * makes no retries of its own (the JDK's {@code HttpURLConnection} does: docs/clients.md). The async API runs
 * each request on Jersey's async executor, an unbounded cached pool of platform threads
 * ({@code jersey-client-async-executor}) that no setting here bounds.
 */
final class JerseyEngine implements AutoCloseable {
    private static final byte[] NO_BODY = new byte[0];

    private final JerseyConnector connector;
    private final Client client;
    private final WebTarget target;

    JerseyEngine(ClientSettings settings, JerseyConnector connector) {
        this.connector = connector;
        ClientConfig config = new ClientConfig()
                .property(ClientProperties.FOLLOW_REDIRECTS, false)
                .property(ClientProperties.CONNECT_TIMEOUT, Math.toIntExact(settings.connectTimeoutMs()))
                .property(ClientProperties.READ_TIMEOUT, Math.toIntExact(settings.responseTimeoutMs()));
        connector.install(config, settings);
        this.client = ClientBuilder.newClient(config);
        this.target = client.target(settings.url());
    }

    /**
     * {@code Invocation.Builder.get()} on the calling thread. A failure comes as Jersey wraps it (a
     * {@code ProcessingException} around the connector's {@code IOException}), or as the
     * connector's class for it where the driver would misread it.
     */
    ClientResponse get() throws ClientFailure {
        try {
            return whole(target.request().header(HttpHeaders.USER_AGENT, ClientSettings.USER_AGENT).get());
        } catch (RuntimeException e) {
            if (connector.classified(e) instanceof ClientFailure known) {
                throw known;
            }
            throw e;
        }
    }

    /** {@code async().get(InvocationCallback)}: the response is read whole on the thread Jersey completes it on. */
    void get(AsyncClient.Callback callback) {
        target.request().header(HttpHeaders.USER_AGENT, ClientSettings.USER_AGENT).async().get(new InvocationCallback<Response>() {
            @Override
            public void completed(Response response) {
                ClientResponse whole;
                try {
                    whole = whole(response);
                } catch (RuntimeException e) {
                    callback.failed(connector.classified(e));
                    return;
                }
                callback.completed(whole);
            }

            @Override
            public void failed(Throwable failure) {
                callback.failed(connector.classified(failure));
            }
        });
    }

    /**
     * The status and the whole body, which reading closes the response and so returns its
     * connection to the pool. A response without an entity (no body at all) reads as no bytes,
     * where {@code readEntity} would fail.
     */
    private static ClientResponse whole(Response response) {
        try (response) {
            return new ClientResponse(response.getStatus(), response.hasEntity() ? response.readEntity(byte[].class) : NO_BODY,
                    ClientResponse.Version.HTTP_1_1);
        }
    }

    /** Closes the connector: the JDK connector's connections; HttpURLConnection's idle ones are the JDK's to close. */
    @Override
    public void close() {
        client.close();
    }
}
