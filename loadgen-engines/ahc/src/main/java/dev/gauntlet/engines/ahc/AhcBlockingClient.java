package dev.gauntlet.engines.ahc;

import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import org.asynchttpclient.AsyncHttpClient;
import org.asynchttpclient.Request;
import org.asynchttpclient.Response;

import java.util.concurrent.ExecutionException;

/**
 * AsyncHttpClient called blocking: {@code ListenableFuture.get()} on the calling thread, the
 * driver's platform or virtual thread; set up by {@link AhcConfig}. A failure is thrown as the
 * future's {@code ExecutionException}, which the driver looks through.
 */
public final class AhcBlockingClient implements BlockingClient {
    private final AsyncHttpClient client;
    private final Request request;

    public AhcBlockingClient(ClientSettings settings) {
        this.client = AhcConfig.create(settings);
        this.request = AhcConfig.request(settings);
    }

    @Override
    public ClientResponse get() throws Exception {
        Response response;
        try {
            response = client.executeRequest(request).get();
        } catch (ExecutionException e) {
            throw AhcConfig.classified(e) instanceof ClientFailure known ? known : e;
        }
        return new ClientResponse(response.getStatusCode(), response.getResponseBodyAsBytes(), false);
    }

    @Override
    public void close() throws Exception {
        client.close();
    }
}
