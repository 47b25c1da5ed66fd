package dev.gauntlet.loadgen.http3;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientSettings;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.bootstrap.Bootstrap;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.util.concurrent.Future;

import java.net.InetSocketAddress;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * The generator's HTTP/3 engine: each GET a request stream of a QUIC connection, on Netty's QUIC codec (quiche and
 * BoringSSL, native) rather than QUIC written here. One engine thread's requests share one event loop and one UDP
 * socket; they go on connections each carrying {@code streams} requests at once at most (h2load's {@code -m}), opened
 * as the load needs them: a request goes on the open connection with the fewest in flight that has room, else on a new
 * one, so the driver's requests in flight ({@code maxConcurrency}) take {@code ceil(maxConcurrency / streams)}.
 *
 * <p>Every figure is kept on the event loop's thread: {@link #get} hands the request over and returns. The loop
 * answers each request exactly once: a response (status and body, judged by the driver as every engine's), or a
 * failure whose class {@link QuicFailures} names (the handshake's: no answer, a certificate or ALPN refused; the
 * connection's: closed by the peer, lost to the idle timeout when loss recovery gives up; the stream's: reset).
 */
public final class Http3Calls implements AsyncClient {
    /** Datagrams waiting in the kernel for the loop: room for a burst of a few thousand responses. */
    private static final int SOCKET_BUFFER_BYTES = 4 << 20;
    private static final long CLOSE_WAIT_MS = 2_000;

    private final EventLoopGroup loop = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
    private final QuicConnections connections;
    private final ClientSettings settings;
    private final InetSocketAddress target;
    private final Channel socket;
    private volatile RunSummary.Quic traffic;

    /**
     * @param settings the URL (https), trust and timeouts; its {@code maxConcurrency}: requests in flight at most
     * @param streams  requests in flight on one connection at most
     * @param connectionPerRequest every request on a new connection, closed after its answer
     */
    public Http3Calls(ClientSettings settings, int streams, boolean connectionPerRequest) {
        this.settings = settings;
        this.target = new InetSocketAddress(settings.url().getHost(), port(settings));
        QuicSslContextBuilder tls = QuicSslContextBuilder.forClient()
                .trustManager(settings.trustManager())
                .applicationProtocols(Http3.supportedApplicationProtocols())
                // The builder checks the host by default; --insecure checks nothing, as over TCP.
                .endpointIdentificationAlgorithm(settings.checksHostName() ? "HTTPS" : null);
        QuicSslContext context = tls.build();
        try {
            socket = new Bootstrap().group(loop).channel(NioDatagramChannel.class)
                    .option(ChannelOption.SO_RCVBUF, SOCKET_BUFFER_BYTES)
                    .option(ChannelOption.SO_SNDBUF, SOCKET_BUFFER_BYTES)
                    .handler(QuicConnections.codec(context, settings, target))
                    .bind(0).sync().channel();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            loop.shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
            throw new IllegalStateException("interrupted while binding the HTTP/3 engine's UDP socket", e);
        }
        connections = new QuicConnections(socket, target, settings, streams, connectionPerRequest);
    }

    private static int port(ClientSettings settings) {
        return settings.url().getPort() < 0 ? 443 : settings.url().getPort();
    }

    /**
     * One connection's handshake, within the connect timeout, before any request: null when it was done (and the
     * connection closed again), else why not, classed as a request's failure would be ({@link QuicFailures}).
     */
    public Throwable handshake() throws InterruptedException, ExecutionException {
        Future<QuicChannel> connect = loop.submit(() -> QuicConnection.connect(socket, target, settings)).get();
        if (!connect.await(settings.connectTimeoutMs() + CLOSE_WAIT_MS)) {
            return new ClientFailure(ErrorClass.CONNECT_TIMEOUT, "no end to the QUIC handshake", null);
        }
        if (!connect.isSuccess()) {
            return QuicFailures.classified(connect.cause());
        }
        connect.getNow().close().await(CLOSE_WAIT_MS);
        return null;
    }

    @Override
    public void get(Callback callback) {
        try {
            loop.execute(() -> connections.send(callback));
        } catch (RejectedExecutionException closed) {
            callback.failed(closed);
        }
    }

    /** What QUIC did under the load, over every connection the engine opened; null until it is closed. */
    public RunSummary.Quic traffic() {
        return traffic;
    }

    /** Closes the connections once their figures are asked for, then the socket and the loop, each within a bound. */
    @Override
    public void close() throws Exception {
        QuicTraffic gathered = loop.submit(connections::closeAll).get(CLOSE_WAIT_MS, TimeUnit.MILLISECONDS);
        traffic = gathered.await(CLOSE_WAIT_MS);
        socket.close().await(CLOSE_WAIT_MS);
        loop.shutdownGracefully(0, CLOSE_WAIT_MS, TimeUnit.MILLISECONDS).await(CLOSE_WAIT_MS);
    }
}
