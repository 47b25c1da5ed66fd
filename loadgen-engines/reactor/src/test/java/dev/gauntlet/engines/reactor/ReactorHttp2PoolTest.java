package dev.gauntlet.engines.reactor;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.Generator;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.jetty.JettyHandlerVirtual;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract holds 200 requests at once over HTTP/1.1 only; over HTTP/2 Reactor Netty pools streams, not
 * connections, and on one connection the Jetty target allows 128 streams at once: a pool that opened no second
 * connection would queue the rest. So 200 held h2c streams against Jetty must all reach it at once.
 */
@Timeout(20)
class ReactorHttp2PoolTest {
    private static final int HELD = 200;
    /** Twice the contract's hold, a margin for a busy machine. */
    private static final long HOLD_MS = 2_000;
    private static final PrintStream QUIET = new PrintStream(OutputStream.nullOutputStream());

    @Test
    void holdsTwoHundredStreamsAtOnceBeyondOneConnectionsStreamLimit() throws Exception {
        HelloServer server = new JettyHandlerVirtual();
        RequestStats stats = new RequestStats();
        try {
            int port = server.start(new TargetSettings("127.0.0.1", "127.0.0.1", 0, 0, TargetSettings.DEFAULT_WORKERS, 2,
                    TargetSettings.DEFAULT_ASYNC_THREADS, 1_000, true, true, null, true), stats);
            // The library is built inside the run's clock: a first short run loads its classes, so that building it
            // again does not eat the held run's measured phase.
            Generator.run(spec(port, 0, new LoadModel.ClosedLoop(1)).toBuilder().maxRequests(10).build(), null, QUIET);
            // 200 requests start at once and each is held two seconds: the measured phase ends before any returns.
            RunSummary summary = Generator.run(spec(port, HOLD_MS, new LoadModel.ClosedLoop(HELD)), null, QUIET);

            String about = "sent " + summary.sent() + ", completed " + summary.completed() + ", " + summary.errors()
                    + ", connections opened " + summary.connectionsOpened();
            assertThat(summary.errorCount()).as(about).isZero();
            assertThat(summary.completed()).as(about).isEqualTo(HELD);
            assertThat(stats.snapshot().maxInFlight()).as("%s: streams the target held at once (a pool cap shows here)", about)
                    .isEqualTo(HELD);
        } finally {
            server.stop();
        }
    }

    private static LoadSpec spec(int port, long waitMs, LoadModel model) {
        return LoadSpec.of(URI.create("http://127.0.0.1:" + port + "/hello?wait=" + waitMs), model).toBuilder()
                .warmupMs(0).durationMs(HOLD_MS - 100).connectTimeoutMs(5_000).responseTimeoutMs(10_000)
                .http2(true, 1).client("reactor-async").build();
    }
}
