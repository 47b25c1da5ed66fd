package dev.gauntlet.engines.jdk;

import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientFailure;
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
 * {@code IOException}), which {@code ClientFailure.classify} reads as they are, but for a stream reset
 * ({@link JdkConfig#classified}).
 */
public final class JdkBlockingClient implements BlockingClient {
    private final HttpClient client;
    private final HttpRequest request;

    public JdkBlockingClient(ClientSettings settings) {
        this.client = JdkConfig.client(settings);
        this.request = JdkConfig.request(settings);
    }

    @Override
    public ClientResponse get() throws Exception {
        HttpResponse<byte[]> response;
        try {
            response = client.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (IOException e) {
            throw JdkConfig.classified(e) instanceof ClientFailure known ? known : e;
        }
        return new ClientResponse(response.statusCode(), response.body(), JdkConfig.http2(response));
    }

    @Override
    public void close() throws InterruptedException {
        JdkConfig.close(client);
    }
}
