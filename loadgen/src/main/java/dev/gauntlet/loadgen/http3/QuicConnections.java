package dev.gauntlet.loadgen.http3;

import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.ClientSettings;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.quic.QuicConnectionStats;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.util.concurrent.Future;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The HTTP/3 engine's connections, on its event loop alone: which one a request goes on (the open one with the fewest
 * streams in flight that has room, else a new one; a new one each, closed after it, when a connection's set-up is what
 * is measured), and what QUIC did over all of them ({@link QuicTraffic}).
 */
final class QuicConnections {
    private final Channel socket;
    private final InetSocketAddress target;
    private final ClientSettings settings;
    private final int streams;
    private final boolean connectionPerRequest;
    private final List<QuicConnection> open = new ArrayList<>();
    private int opened;
    private int ended;

    /** {@code connectionPerRequest}: every request on a new connection, closed after it ({@code --new-connection-per-request}). */
    QuicConnections(Channel socket, InetSocketAddress target, ClientSettings settings, int streams,
                    boolean connectionPerRequest) {
        this.connectionPerRequest = connectionPerRequest;
        this.socket = socket;
        this.target = target;
        this.settings = settings;
        this.streams = streams;
    }

    /** The QUIC client codec of the engine's socket: h3 by ALPN, the URL's host for SNI and the certificate's check. */
    static ChannelHandler codec(QuicSslContext tls, ClientSettings settings, InetSocketAddress target) {
        return Http3.newQuicClientCodecBuilder()
                .sslEngineProvider(connection -> tls.newEngine(connection.alloc(), settings.url().getHost(), target.getPort()))
                .maxIdleTimeout(settings.quicIdleTimeoutMs(), TimeUnit.MILLISECONDS)
                .initialMaxData(ClientSettings.QUIC_CONNECTION_WINDOW_BYTES)
                .initialMaxStreamDataBidirectionalLocal(ClientSettings.QUIC_STREAM_WINDOW_BYTES)
                .build();
    }

    void send(AsyncClient.Callback callback) {
        if (connectionPerRequest) {
            openOne(true).send(callback);
            return;
        }
        QuicConnection least = null;
        for (QuicConnection connection : open) {
            if (connection.inFlight() < streams && (least == null || connection.inFlight() < least.inFlight())) {
                least = connection;
            }
        }
        if (least == null) {
            // Every open connection carries its streams: a new one. The driver bounds what is in flight; a request it let
            // go (max concurrency's warm-up) keeps its stream until the server ends it, and so may ask for one more.
            least = openOne(false);
        }
        least.send(callback);
    }

    /** {@code oneRequest}: the connection closes once its first request has ended. */
    private QuicConnection openOne(boolean oneRequest) {
        QuicConnection connection = new QuicConnection(socket, target, settings, oneRequest, this::ended);
        open.add(connection);
        opened++;
        return connection;
    }

    private void ended(QuicConnection connection) {
        if (open.remove(connection)) {
            ended++;
        }
    }

    /**
     * Ends every connection: first asks each open one for its QUIC figures, which the returned future gives once they
     * are in (off the event loop: quiche answers on it), then closes them.
     */
    QuicTraffic closeAll() {
        List<Future<QuicConnectionStats>> stats = new ArrayList<>();
        for (QuicConnection connection : open) {
            Future<QuicConnectionStats> asked = connection.stats();
            if (asked != null) {
                stats.add(asked);
            }
        }
        QuicTraffic traffic = new QuicTraffic(opened, ended, stats);
        for (QuicConnection connection : List.copyOf(open)) {
            connection.close();
        }
        return traffic;
    }
}
