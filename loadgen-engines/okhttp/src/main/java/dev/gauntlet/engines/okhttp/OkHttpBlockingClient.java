package dev.gauntlet.engines.okhttp;

import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import okhttp3.Call;
import okhttp3.OkHttpClient;
import okhttp3.Request;

import java.io.IOException;

/**
 * OkHttp's blocking call, {@link Call#execute()}, on the calling thread; configured by
 * {@link OkHttpConfig}. The dispatcher's limits do not apply to it.
 */
public final class OkHttpBlockingClient implements BlockingClient {
    private final OkHttpClient client;
    private final Request request;

    public OkHttpBlockingClient(ClientSettings settings) {
        this.client = OkHttpConfig.client(settings);
        this.request = OkHttpConfig.request(settings);
    }

    @Override
    public ClientResponse get() throws Exception {
        Call call = client.newCall(request);
        try {
            return OkHttpConfig.whole(call.execute());
        } catch (IOException e) {
            throw OkHttpConfig.classified(call, e);
        }
    }

    @Override
    public void close() {
        OkHttpConfig.close(client);
    }
}
