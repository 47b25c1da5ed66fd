package dev.gauntlet.engines.jdk;

import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * The JDK's {@link HttpClient#send}, configured by {@link JdkConfig}: the calling thread waits
 * while the client's selector thread does the I/O. Its failures are the JDK's own
 * ({@code ConnectException}, {@code HttpConnectTimeoutException}, {@code HttpTimeoutException},
 * {@code IOException}), which {@code ClientFailure.classify} reads as they are.
 */
public final class JdkBlockingClient implements BlockingClient {
    private final HttpClient client;
    private final HttpRequest request;

    public JdkBlockingClient(ClientSettings settings) {
        this.client = JdkConfig.client(settings);
        this.request = JdkConfig.request(settings);
    }

    @Override
    public ClientResponse get() throws IOException, InterruptedException {
        HttpResponse<byte[]> response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        return new ClientResponse(response.statusCode(), response.body(), JdkConfig.http2(response));
    }

    @Override
    public void close() throws InterruptedException {
        JdkConfig.close(client);
    }
}
