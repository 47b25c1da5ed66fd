package dev.gauntlet.engines.vertx;

import dev.gauntlet.loadgen.ClientEngineContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Vert.x pools HTTP/2 streams, not connections, and by default keeps one connection per host: without
 * {@code http2MaxSize} the streams beyond the server's limit would wait in its queue.
 */
@Timeout(20)
class VertxHttp2PoolTest {
    @Test
    void holdsTwoHundredStreamsAtOnceBeyondOneConnectionsStreamLimit() throws Exception {
        ClientEngineContract.assertHoldsStreamsBeyondOneConnectionsLimit("vertx-async");
    }
}
