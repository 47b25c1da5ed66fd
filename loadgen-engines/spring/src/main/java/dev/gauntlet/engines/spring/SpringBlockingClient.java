package dev.gauntlet.engines.spring;

import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import org.springframework.http.ResponseEntity;
import org.springframework.web.client.RestClient;

import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;

/**
 * Spring's {@link RestClient}, {@code get().uri(url).retrieve().toEntity(byte[].class)} on the
 * calling thread, over the JDK's {@code HttpClient}; set up by {@link RestClientConfig}. A failure
 * comes as Spring wraps it (a {@code ResourceAccessException} around the JDK's
 * {@code IOException}), which the driver looks through.
 */
public final class SpringBlockingClient implements BlockingClient {
    private static final byte[] NO_BODY = new byte[0];

    private final URI url;
    private final HttpClient httpClient;
    private final RestClient restClient;

    public SpringBlockingClient(ClientSettings settings) {
        this.url = settings.url();
        this.httpClient = RestClientConfig.httpClient(settings);
        this.restClient = RestClientConfig.restClient(httpClient, settings);
    }

    @Override
    public ClientResponse get() {
        ResponseEntity<byte[]> response = restClient.get().uri(url).retrieve().toEntity(byte[].class);
        return new ClientResponse(response.getStatusCode().value(), response.hasBody() ? response.getBody() : NO_BODY,
                ClientResponse.Version.HTTP_1_1);
    }

    /** Fails what is in flight and stops the client's selector thread, waiting for it a moment at most. */
    @Override
    public void close() throws InterruptedException {
        httpClient.shutdownNow();
        httpClient.awaitTermination(Duration.ofSeconds(1));
    }
}
