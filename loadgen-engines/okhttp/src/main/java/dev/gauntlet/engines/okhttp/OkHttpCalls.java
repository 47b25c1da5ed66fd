package dev.gauntlet.engines.okhttp;

import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import okhttp3.Call;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

import java.io.IOException;

/**
 * OkHttp, configured by {@link OkHttpConfig}, called both ways: blocking, {@link Call#execute()} on
 * the calling thread (the dispatcher's limits do not apply to it), and async, {@link Call#enqueue}.
 * The catalogue names this class for both modes; each run builds one instance and calls one of them.
 *
 * <p>OkHttp has no non-blocking I/O: its dispatcher runs each enqueued call as a blocking call on
 * a thread of its own executor (a cached pool, unbounded, threads kept 60 s), so the async mode too
 * has a platform thread per request in flight; it differs from {@code okhttp-platform} in that
 * the library, not the driver, owns and reuses those threads.
 */
public final class OkHttpCalls implements BlockingClient, AsyncClient {
    private final OkHttpClient client;
    private final Request request;

    public OkHttpCalls(ClientSettings settings) {
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
    public void get(Callback callback) {
        client.newCall(request).enqueue(new okhttp3.Callback() {
            @Override
            public void onResponse(Call call, Response response) {
                try {
                    callback.completed(OkHttpConfig.whole(response));
                } catch (IOException e) {
                    callback.failed(OkHttpConfig.classified(call, e));
                }
            }

            @Override
            public void onFailure(Call call, IOException failure) {
                callback.failed(OkHttpConfig.classified(call, failure));
            }
        });
    }

    @Override
    public void close() {
        OkHttpConfig.close(client);
    }
}
