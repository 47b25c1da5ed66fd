package dev.gauntlet.loadgen.http3;

import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.ClientSettings;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.handler.codec.http3.DefaultHttp3Headers;
import io.netty.handler.codec.http3.DefaultHttp3HeadersFrame;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.http3.Http3ClientConnectionHandler;
import io.netty.handler.codec.http3.Http3Headers;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicConnectionStats;
import io.netty.handler.codec.quic.QuicStreamChannel;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;

import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.function.Consumer;

/**
 * One QUIC connection of the HTTP/3 engine, on its event loop alone: it opens at its first request, holds the
 * requests that come while its handshake runs, and then sends each as a stream of its own. A handshake that fails
 * fails every request held; the connection counts its streams in flight so that {@link QuicConnections} can place the
 * next request.
 */
final class QuicConnection {
    private final ClientSettings settings;
    private final ArrayDeque<AsyncClient.Callback> held = new ArrayDeque<>();
    private final Consumer<QuicConnection> closed;
    private final boolean oneRequest;
    private QuicChannel channel;
    private Throwable handshakeFailure;
    private int inFlight;

    /**
     * {@code oneRequest}: closed once its first request has ended (a handshake measured in every request);
     * {@code closed}: told once the connection is over, however it ended.
     */
    QuicConnection(Channel socket, InetSocketAddress target, ClientSettings settings, boolean oneRequest,
                   Consumer<QuicConnection> closed) {
        this.settings = settings;
        this.oneRequest = oneRequest;
        this.closed = closed;
        connect(socket, target, settings).addListener(this::connected);
    }

    /**
     * A QUIC connection's handshake from {@code socket}, HTTP/3's control streams set up once it is done; it fails at
     * once when the server refuses it ({@link HandshakeWatch}), else at the connect timeout when nothing answers.
     */
    static Future<QuicChannel> connect(Channel socket, InetSocketAddress target, ClientSettings settings) {
        Promise<QuicChannel> handshake = socket.eventLoop().newPromise();
        HandshakeWatch watch = new HandshakeWatch(handshake);
        QuicChannel.newBootstrap(socket)
                .handler(new ChannelInitializer<QuicChannel>() {
                    @Override
                    protected void initChannel(QuicChannel connection) {
                        connection.pipeline().addLast(watch, new Http3ClientConnectionHandler());
                    }
                })
                .remoteAddress(target)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) Math.min(Integer.MAX_VALUE, settings.connectTimeoutMs()))
                .connect()
                .addListener(connected -> {
                    if (connected.isSuccess()) {
                        QuicChannel connection = (QuicChannel) connected.getNow();
                        if (!handshake.trySuccess(connection)) {
                            connection.close();
                        } else {
                            connection.pipeline().remove(watch);
                        }
                    } else {
                        handshake.tryFailure(connected.cause());
                    }
                });
        return handshake;
    }

    int inFlight() {
        return inFlight;
    }

    /** Sends the request as a stream, or holds it until the handshake is done; {@code callback} hears how it ended. */
    void send(AsyncClient.Callback callback) {
        inFlight++;
        if (channel != null) {
            stream(callback);
        } else if (handshakeFailure != null) {
            inFlight--;
            callback.failed(handshakeFailure);
        } else {
            held.add(callback);
        }
    }

    private void connected(Future<? super QuicChannel> connect) {
        if (!connect.isSuccess()) {
            handshakeFailure = QuicFailures.classified(connect.cause());
            for (AsyncClient.Callback callback; (callback = held.poll()) != null; ) {
                inFlight--;
                callback.failed(handshakeFailure);
            }
            closed.accept(this);
            return;
        }
        channel = (QuicChannel) connect.getNow();
        channel.closeFuture().addListener(ignored -> closed.accept(this));
        for (AsyncClient.Callback callback; (callback = held.poll()) != null; ) {
            stream(callback);
        }
    }

    private void stream(AsyncClient.Callback callback) {
        Http3.newRequestStream(channel, new ResponseStream(callback, this::streamEnded)).addListener(opened -> {
            if (!opened.isSuccess()) {
                inFlight--;
                callback.failed(QuicFailures.classified(opened.cause()));
                return;
            }
            QuicStreamChannel stream = (QuicStreamChannel) opened.getNow();
            stream.writeAndFlush(new DefaultHttp3HeadersFrame(requestHeaders())).addListener(QuicStreamChannel.SHUTDOWN_OUTPUT);
        });
    }

    private void streamEnded() {
        inFlight--;
        if (oneRequest) {
            channel.close();
        }
    }

    /** The GET every engine sends, as HTTP/3's pseudo-headers and the same {@code User-Agent}. */
    private Http3Headers requestHeaders() {
        String query = settings.url().getRawQuery();
        String path = settings.url().getRawPath().isEmpty() ? "/" : settings.url().getRawPath();
        return new DefaultHttp3Headers()
                .method("GET")
                .scheme("https")
                .authority(settings.hostHeader())
                .path(query == null ? path : path + "?" + query)
                .add("user-agent", ClientSettings.USER_AGENT);
    }

    /** Its QUIC figures, or null while it is not connected. */
    Future<QuicConnectionStats> stats() {
        return channel == null || !channel.isActive() ? null : channel.collectStats();
    }

    void close() {
        if (channel != null) {
            channel.close();
        }
    }
}
