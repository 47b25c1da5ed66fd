package dev.gauntlet.targets.netty;

import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetTls;
import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.EpollDatagramChannel;
import io.netty.channel.socket.nio.NioDatagramChannel;
import io.netty.handler.codec.http3.Http3;
import io.netty.handler.codec.http3.Http3FrameToHttpObjectCodec;
import io.netty.handler.codec.http3.Http3ServerConnectionHandler;
import io.netty.handler.codec.quic.QuicChannel;
import io.netty.handler.codec.quic.QuicSslContext;
import io.netty.handler.codec.quic.QuicSslContextBuilder;
import io.netty.handler.codec.quic.QuicStreamChannel;

import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * HTTP/3 beside the TCP port: Netty's QUIC codec (quiche, with BoringSSL, from its native jar) on the UDP port of the
 * same number, with the same certificate. Each request stream gets an {@link Http3FrameToHttpObjectCodec} and a
 * {@link HelloHandler}, as an HTTP/2 stream does, so every style answers HTTP/3 with the code it answers HTTP/1.1 with.
 *
 * <p>One datagram channel, so one event loop, carries every QUIC connection: the codec routes packets to connections
 * by connection ID within a channel, and spreading them over several ({@code SO_REUSEPORT}) would need a connection ID
 * scheme of its own. The limits are a generator's, not a browser's: streams at once per connection well above what a
 * load asks for, and no address validation (no token handler, the codec's default: a Retry round trip per connection is
 * what only an internet-facing server needs).
 */
final class QuicListener {
    /** Request streams one connection may hold open at once: far beyond a load's streams per connection. */
    static final long STREAMS_PER_CONNECTION = 10_000;
    private static final long IDLE_TIMEOUT_S = 30;
    private static final long CONNECTION_WINDOW = 16L << 20;
    private static final long STREAM_WINDOW = 1L << 20;

    private QuicListener() {
    }

    /** Binds {@code bind:port} on UDP on one of {@code loops}; the returned channel closes it. */
    static Channel bind(EventLoopGroup loops, boolean epoll, String bind, int port, TargetTls tls, RequestStats stats,
                        Supplier<HelloHandler.Wait> waits) throws InterruptedException {
        QuicSslContext ssl = QuicSslContextBuilder.forServer(tls.privateKey(), null, tls.certificateChain())
                .applicationProtocols(Http3.supportedApplicationProtocols())
                .build();
        ChannelHandler streams = new ChannelInitializer<QuicStreamChannel>() {
            @Override
            protected void initChannel(QuicStreamChannel stream) {
                stream.pipeline().addLast(new Http3FrameToHttpObjectCodec(true), new HelloHandler(stats, waits.get()));
            }
        };
        ChannelHandler codec = Http3.newQuicServerCodecBuilder()
                .sslContext(ssl)
                .maxIdleTimeout(IDLE_TIMEOUT_S, TimeUnit.SECONDS)
                .initialMaxData(CONNECTION_WINDOW)
                .initialMaxStreamDataBidirectionalLocal(STREAM_WINDOW)
                .initialMaxStreamDataBidirectionalRemote(STREAM_WINDOW)
                .initialMaxStreamsBidirectional(STREAMS_PER_CONNECTION)
                .handler(new ChannelInitializer<QuicChannel>() {
                    @Override
                    protected void initChannel(QuicChannel connection) {
                        connection.pipeline().addLast(new Http3ServerConnectionHandler(streams));
                    }
                })
                .build();
        return new Bootstrap()
                .group(loops)
                .channel(epoll ? EpollDatagramChannel.class : NioDatagramChannel.class)
                .handler(codec)
                .bind(bind, port).sync().channel();
    }
}
