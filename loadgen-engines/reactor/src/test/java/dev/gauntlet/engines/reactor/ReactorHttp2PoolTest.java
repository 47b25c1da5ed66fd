package dev.gauntlet.engines.reactor;

import dev.gauntlet.loadgen.ClientEngineContract;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Reactor Netty pools HTTP/2 streams, not connections: without its {@code Http2AllocationStrategy} a pool that opened
 * no second connection would queue the streams beyond the server's limit.
 */
@Timeout(20)
class ReactorHttp2PoolTest {
    @Test
    void holdsTwoHundredStreamsAtOnceBeyondOneConnectionsStreamLimit() throws Exception {
        ClientEngineContract.assertHoldsStreamsBeyondOneConnectionsLimit("reactor-async");
    }
}
