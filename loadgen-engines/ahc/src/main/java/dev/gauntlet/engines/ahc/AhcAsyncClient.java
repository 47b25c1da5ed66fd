package dev.gauntlet.engines.ahc;

import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import org.asynchttpclient.AsyncCompletionHandler;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.Request;
import org.asynchttpclient.Response;

/**
 * AsyncHttpClient's own async API: {@code executeRequest} with an {@link AsyncCompletionHandler},
 * which AHC calls on the Netty event loop that read the response (or on its timer thread for a
 * timeout); set up by {@link AhcConfig}.
 */
public final class AhcAsyncClient implements AsyncClient {
    private final AsyncHttpClient client;
    private final Request request;

    public AhcAsyncClient(ClientSettings settings) {
        this.client = AhcConfig.create(settings);
        this.request = AhcConfig.request(settings);
    }

    @Override
    public void get(Callback callback) {
        client.executeRequest(request, new AsyncCompletionHandler<Void>() {
            @Override
            public Void onCompleted(Response response) {
                callback.completed(new ClientResponse(response.getStatusCode(), response.getResponseBodyAsBytes(), false));
                return null;
            }

            @Override
            public void onThrowable(Throwable failure) {
                callback.failed(AhcConfig.classified(failure));
            }
        });
    }

    @Override
    public void close() throws Exception {
        client.close();
    }
}
