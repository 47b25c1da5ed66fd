package dev.gauntlet.loadgen;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.TargetTls;
import dev.gauntlet.targets.netty.NettyTargets;

import java.net.URI;

/**
 * The {@code netty-event-loop} target in this JVM on 127.0.0.1, a port of the system's choosing: a real server of
 * https1, h2, h2c and (UDP on the same port number) h3 for the generator's tests, its counts in {@link #stats}.
 */
final class InProcessNettyTarget implements AutoCloseable {
    final HelloServer server = NettyTargets.eventLoop();
    final RequestStats stats = new RequestStats();
    final int port;

    /** {@code tls}: null for cleartext; {@code http2}: HTTP/2 beside HTTP/1.1; {@code http3}: QUIC beside (needs TLS). */
    InProcessNettyTarget(TargetTls tls, boolean http2, boolean http3) throws Exception {
        TargetSettings settings = new TargetSettings("127.0.0.1", "127.0.0.1", 0, 0, TargetSettings.DEFAULT_WORKERS,
                2, TargetSettings.DEFAULT_ASYNC_THREADS, 1_000, true, true, tls, http2, http3);
        try {
            port = server.start(settings, stats);
        } catch (Exception e) {
            server.stop();
            throw e;
        }
    }

    URI uri(String scheme, String path) {
        return URI.create(scheme + "://127.0.0.1:" + port + path);
    }

    @Override
    public void close() throws Exception {
        server.stop();
    }
}
