package dev.gauntlet.engines.jdk;

import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;

import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * The JDK's {@link HttpClient}, configured by {@link JdkConfig}, called both ways: blocking,
 * {@link HttpClient#send}, and async, {@link HttpClient#sendAsync}. The catalogue names this class
 * for both modes; each run builds one instance and calls one of them.
 *
 * <p>{@code send}: the calling thread waits while the client's selector thread does the I/O. Its
 * failures are the JDK's own ({@code ConnectException}, {@code HttpConnectTimeoutException},
 * {@code HttpTimeoutException}, {@code IOException}), which {@code ClientFailure.classify} reads as
 * they are, but for a stream reset ({@link JdkConfig#classified}).
 *
 * <p>{@code sendAsync}: whatever the client's executor, the JDK completes the future it returns on
 * {@code CompletableFuture}'s default executor, the common pool (at least one worker even on one
 * CPU): so the callback runs on a common-pool worker, one hand-off from the selector thread per
 * response, and no thread is started per request. Failures arrive wrapped in a
 * {@code CompletionException}, which {@code ClientFailure.classify} looks through.
 */
public final class JdkCalls implements BlockingClient, AsyncClient {
    private final HttpClient client;
    private final HttpRequest request;

    public JdkCalls(ClientSettings settings) {
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
        return whole(response);
    }

    @Override
    public void get(Callback callback) {
        client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).whenComplete((response, failure) -> {
            if (failure != null) {
                callback.failed(JdkConfig.classified(failure));
            } else {
                callback.completed(whole(response));
            }
        });
    }

    private static ClientResponse whole(HttpResponse<byte[]> response) {
        return new ClientResponse(response.statusCode(), response.body(), JdkConfig.version(response));
    }

    @Override
    public void close() throws InterruptedException {
        JdkConfig.close(client);
    }
}
