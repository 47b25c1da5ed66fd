package dev.gauntlet.loadgen.http3;

import io.netty.handler.codec.quic.QuicConnectionStats;
import io.netty.util.concurrent.Future;

import java.util.List;

/**
 * What QUIC did under an HTTP/3 load, from quiche's own counts: connections opened, and those that ended before the
 * run did (a handshake that failed, a connection the peer closed or that went silent); packets sent by the engine,
 * those it declared lost and those it sent again (loss recovery), over the connections open at the end.
 */
public record QuicTraffic(int connectionsOpened, int connectionsEnded, long packetsSent, long packetsLost,
                          long packetsRetransmitted) {

    static final QuicTraffic NONE = new QuicTraffic(0, 0, 0, 0, 0);

    /** The counts of connections, and each open connection's figures as quiche will give them. */
    record Pending(int opened, int ended, List<Future<QuicConnectionStats>> stats) {
        /** The figures, waiting {@code waitMs} at most for each connection's; one that does not come is left out. */
        QuicTraffic await(long waitMs) {
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
            return new QuicTraffic(opened, ended, sent, lost, retransmitted);
        }
    }
}
