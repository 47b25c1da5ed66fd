package dev.gauntlet.engines.helidon;

import io.helidon.webclient.api.WebClientServiceRequest;
import io.helidon.webclient.api.WebClientServiceResponse;
import io.helidon.webclient.http2.Http2ClientStream;
import io.helidon.webclient.spi.WebClientService;

/**
 * Which version each response of an {@link io.helidon.webclient.http2.Http2Client} came on, as observed: what carried
 * it, an HTTP/2 stream or (had Helidon fallen back) an HTTP/1.1 connection. Helidon's response says nothing about its
 * version, and its service chain is the one place that sees what carried it.
 *
 * <p>A blocking call runs the chain on the calling thread, so the observation is kept per thread and read by that
 * thread once its call has returned.
 */
final class Http2Responses implements WebClientService {
    private final ThreadLocal<Boolean> lastOnHttp2 = ThreadLocal.withInitial(() -> false);

    @Override
    public WebClientServiceResponse handle(Chain chain, WebClientServiceRequest request) {
        WebClientServiceResponse response = chain.proceed(request);
        lastOnHttp2.set(response.connection() instanceof Http2ClientStream);
        return response;
    }

    /** Whether the calling thread's last response came on an HTTP/2 stream. */
    boolean lastOnHttp2() {
        return lastOnHttp2.get();
    }
}
