package dev.gauntlet.engines.ahc;

import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import org.asynchttpclient.AsyncCompletionHandler;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.Request;
import org.asynchttpclient.Response;

import java.util.concurrent.ExecutionException;

/**
 * AsyncHttpClient, set up by {@link AhcConfig}, called both ways; the catalogue names this class for
 * both modes, and each run builds one instance and calls one of them.
 *
 * <p>Blocking: {@code ListenableFuture.get()} on the calling thread, the driver's platform or
 * virtual thread. A failure is thrown as the future's {@code ExecutionException}, which the driver
 * looks through. Async: AHC's own API, {@code executeRequest} with an {@link AsyncCompletionHandler},
 * which AHC calls on the Netty event loop that read the response (or on its timer thread for a timeout).
 */
public final class AhcCalls implements BlockingClient, AsyncClient {
    private final AsyncHttpClient client;
    private final Request request;

    public AhcCalls(ClientSettings settings) {
        this.client = AhcConfig.create(settings);
        this.request = AhcConfig.request(settings);
    }

    @Override
    public ClientResponse get() throws Exception {
        try {
            return whole(client.executeRequest(request).get());
        } catch (ExecutionException e) {
            throw AhcConfig.classified(e) instanceof ClientFailure known ? known : e;
        }
    }

    @Override
    public void get(Callback callback) {
        client.executeRequest(request, new AsyncCompletionHandler<Void>() {
            @Override
            public Void onCompleted(Response response) {
                callback.completed(whole(response));
                return null;
            }

            @Override
            public void onThrowable(Throwable failure) {
                callback.failed(AhcConfig.classified(failure));
            }
        });
    }

    private static ClientResponse whole(Response response) {
        return new ClientResponse(response.getStatusCode(), response.getResponseBodyAsBytes(), ClientResponse.Version.HTTP_1_1);
    }

    @Override
    public void close() throws Exception {
        client.close();
    }
}
