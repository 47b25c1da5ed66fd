package dev.gauntlet.loadgen.http3;

import dev.gauntlet.api.RunSummary;
import io.netty.handler.codec.quic.QuicConnectionStats;
import io.netty.util.concurrent.Future;

import java.util.List;

/**
 * What QUIC did under the engine's load, as it is gathered at the end: the counts of connections, kept on the event
 * loop, and each connection still open's figures as quiche will give them (asked on the loop, awaited off it).
 */
record QuicTraffic(int opened, int ended, List<Future<QuicConnectionStats>> stats) {

    /** The figures, waiting {@code waitMs} at most for each connection's; one that does not come is left out. */
    RunSummary.Quic await(long waitMs) {
        long sent = 0;
        long lost = 0;
        long retransmitted = 0;
        for (Future<QuicConnectionStats> asked : stats) {
            if (asked.awaitUninterruptibly(waitMs) && asked.isSuccess()) {
                sent += asked.getNow().sent();
                lost += asked.getNow().lost();
                retransmitted += asked.getNow().retrans();
            }
        }
        return new RunSummary.Quic(opened, ended, sent, lost, retransmitted);
    }
}
