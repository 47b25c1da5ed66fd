package dev.gauntlet.targets.netty;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.ssl.SslContext;

import javax.net.ssl.SSLException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A Netty HTTP server with the target's settings: {@code ioThreads} event loops on the epoll
 * transport when it is available (else NIO), each connection's handlers set up by {@link HelloPipelines}
 * (HTTP/1.1, with TLS and HTTP/2 when asked), and HTTP/3 on the same port number over UDP when asked
 * ({@link QuicListener}). The styles ({@link NettyTargets}) differ only in the
 * {@link HelloHandler.Wait} each connection (or HTTP/2 stream) gets.
 *
 * <p>The listening channel is registered on one of the same event loops, so {@code ioThreads} is
 * the total number of I/O threads (no separate acceptor group).
 */
final class NettyServer implements HelloServer {
    private final Supplier<HelloHandler.Wait> waits;
    private EventLoopGroup eventLoops;
    private Channel listener;
    private Channel quicListener;

    NettyServer(Supplier<HelloHandler.Wait> waits) {
        this.waits = waits;
    }

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws InterruptedException, SSLException {
        SslContext tls = settings.tls() == null ? null : NettyTls.serverContext(settings.tls(), settings.http2());
        boolean epoll = Epoll.isAvailable();
        eventLoops = new MultiThreadIoEventLoopGroup(settings.ioThreads(),
                epoll ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        Class<? extends ServerChannel> channelType = epoll ? EpollServerSocketChannel.class : NioServerSocketChannel.class;
        ServerBootstrap bootstrap = new ServerBootstrap()
                .group(eventLoops)
                .channel(channelType)
                .option(ChannelOption.SO_BACKLOG, settings.backlog())
                .option(ChannelOption.SO_REUSEADDR, settings.reuseAddress())
                .childOption(ChannelOption.TCP_NODELAY, settings.tcpNoDelay())
                .childHandler(new HelloPipelines(stats, waits, tls, settings.http2()));
        listener = bootstrap.bind(settings.bind(), settings.port()).sync().channel();
        int port = ((InetSocketAddress) listener.localAddress()).getPort();
        if (settings.http3()) {
            quicListener = QuicListener.bind(eventLoops, epoll, settings.bind(), port, settings.tls(), stats, waits);
        }
        return port;
    }

    @Override
    public boolean servesHttp3() {
        return true;
    }

    @Override
    public void stop() {
        for (Channel bound : new Channel[] {listener, quicListener}) {
            if (bound != null) {
                bound.close().syncUninterruptibly();
            }
        }
        if (eventLoops != null) {
            eventLoops.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }
}
