package dev.gauntlet.engines.okhttp;

import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.ClientSettings;
import okhttp3.Call;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

import java.io.IOException;

/**
 * OkHttp's async call, {@link Call#enqueue}, configured by {@link OkHttpConfig}.
 *
 * <p>OkHttp has no non-blocking I/O: its dispatcher runs each enqueued call as a blocking call on
 * a thread of its own executor (a cached pool, unbounded, threads kept 60 s), so this mode too
 * has a platform thread per request in flight; it differs from {@code okhttp-platform} in that
 * the library, not the driver, owns and reuses those threads.
 */
public final class OkHttpAsyncClient implements AsyncClient {
    private final OkHttpClient client;
    private final Request request;

    public OkHttpAsyncClient(ClientSettings settings) {
        this.client = OkHttpConfig.client(settings);
        this.request = OkHttpConfig.request(settings);
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
