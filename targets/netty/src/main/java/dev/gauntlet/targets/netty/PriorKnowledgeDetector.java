package dev.gauntlet.targets.netty;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.http2.Http2CodecUtil;

import java.util.List;

/**
 * h2c beside HTTP/1.1 on one cleartext port: a connection that opens with the HTTP/2 connection preface (prior
 * knowledge) gets the HTTP/2 pipeline, any other the HTTP/1.1 one. An HTTP/1.1 request differs from the preface within
 * its first bytes, so the choice waits for no more than those; the bytes read so far go on to the chosen handlers.
 */
final class PriorKnowledgeDetector extends ByteToMessageDecoder {
    private static final ByteBuf PREFACE = Unpooled.unreleasableBuffer(Http2CodecUtil.connectionPrefaceBuf());

    private final HelloPipelines pipelines;

    PriorKnowledgeDetector(HelloPipelines pipelines) {
        this.pipelines = pipelines;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        int compared = Math.min(in.readableBytes(), PREFACE.readableBytes());
        boolean preface = ByteBufUtil.equals(PREFACE, PREFACE.readerIndex(), in, in.readerIndex(), compared);
        if (preface && compared < PREFACE.readableBytes()) {
            return;
        }
        if (preface) {
            pipelines.http2(ctx.pipeline());
        } else {
            pipelines.http1(ctx.pipeline());
        }
        // A decoder removed hands the bytes it holds to the handlers after it.
        ctx.pipeline().remove(this);
    }
}
