package dev.gauntlet.targets.netty;

import dev.gauntlet.targets.RequestStats;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http2.Http2FrameCodec;
import io.netty.handler.codec.http2.Http2FrameCodecBuilder;
import io.netty.handler.codec.http2.Http2MultiplexHandler;
import io.netty.handler.codec.http2.Http2StreamFrameToHttpObjectCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslHandler;

import java.util.function.Supplier;

/**
 * The handlers of each connection. HTTP/1.1: an {@link HttpServerCodec} and one {@link HelloHandler}. HTTP/2: an
 * {@link Http2FrameCodec} and an {@link Http2MultiplexHandler} that gives every stream a child channel of its own, with
 * an {@link Http2StreamFrameToHttpObjectCodec} and one {@link HelloHandler}: every style answers a stream with the code
 * it answers an HTTP/1.1 request with, and the streams of a connection wait independently of each other (a
 * {@link HelloHandler} answers its own channel's requests in order).
 *
 * <p>With TLS an {@link SslHandler} comes first. With HTTP/2 as well, ALPN picks one of the two
 * ({@link AlpnPipelineChooser}); in clear, the connection's first bytes do ({@link PriorKnowledgeDetector}).
 */
final class HelloPipelines extends ChannelInitializer<Channel> {
    /** Sharable: it keeps nothing of a stream but an attribute of the stream's channel. */
    private static final Http2StreamFrameToHttpObjectCodec STREAM_CODEC = new Http2StreamFrameToHttpObjectCodec(true);

    private final RequestStats stats;
    private final Supplier<HelloHandler.Wait> waits;
    private final SslContext tls;
    private final boolean http2;
    private final ChannelHandler streams = new ChannelInitializer<>() {
        @Override
        protected void initChannel(Channel stream) {
            stream.pipeline().addLast(STREAM_CODEC, new HelloHandler(stats, waits.get()));
        }
    };

    /** {@code tls}: null for cleartext; {@code http2}: HTTP/2 beside HTTP/1.1. */
    HelloPipelines(RequestStats stats, Supplier<HelloHandler.Wait> waits, SslContext tls, boolean http2) {
        this.stats = stats;
        this.waits = waits;
        this.tls = tls;
        this.http2 = http2;
    }

    @Override
    protected void initChannel(Channel connection) {
        ChannelPipeline pipeline = connection.pipeline();
        if (tls != null) {
            pipeline.addLast(tls.newHandler(connection.alloc()));
        }
        if (!http2) {
            http1(pipeline);
        } else if (tls != null) {
            pipeline.addLast(new AlpnPipelineChooser(this));
        } else {
            pipeline.addLast(new PriorKnowledgeDetector(this));
        }
    }

    /** Appends the HTTP/1.1 handlers. */
    void http1(ChannelPipeline pipeline) {
        pipeline.addLast(new HttpServerCodec(), new HelloHandler(stats, waits.get()));
    }

    /** Appends the HTTP/2 handlers. */
    void http2(ChannelPipeline pipeline) {
        pipeline.addLast(Http2FrameCodecBuilder.forServer().build(), new Http2MultiplexHandler(streams));
    }
}
