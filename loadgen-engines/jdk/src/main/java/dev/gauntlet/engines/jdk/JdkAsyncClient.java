package dev.gauntlet.engines.jdk;

import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;

import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/**
 * The JDK's {@link HttpClient#sendAsync}, configured by {@link JdkConfig}. Whatever the client's
 * executor, the JDK completes the future it returns on {@code CompletableFuture}'s default
 * executor, the common pool (at least one worker even on one CPU): so the callback runs on a
 * common-pool worker, one hand-off from the selector thread per response, and no thread is
 * started per request. Failures arrive wrapped in a {@code CompletionException}, which
 * {@code ClientFailure.classify} looks through, and a stream reset is classed by {@link JdkConfig#classified}.
 */
public final class JdkAsyncClient implements AsyncClient {
    private final HttpClient client;
    private final HttpRequest request;

    public JdkAsyncClient(ClientSettings settings) {
        this.client = JdkConfig.client(settings);
        this.request = JdkConfig.request(settings);
    }

    @Override
    public void get(Callback callback) {
        client.sendAsync(request, HttpResponse.BodyHandlers.ofByteArray()).whenComplete((response, failure) -> {
            if (failure != null) {
                callback.failed(JdkConfig.classified(failure));
            } else {
                callback.completed(new ClientResponse(response.statusCode(), response.body(), JdkConfig.http2(response)));
            }
        });
    }

    @Override
    public void close() throws InterruptedException {
        JdkConfig.close(client);
    }
}
