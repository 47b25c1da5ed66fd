package dev.gauntlet.loadgen.http3;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.ClientFailure;
import dev.gauntlet.loadgen.engine.ClientResponse;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.http3.Http3DataFrame;
import io.netty.handler.codec.http3.Http3HeadersFrame;
import io.netty.util.ReferenceCountUtil;

/**
 * One request's stream, from the response's side: its status from the headers, its body from the data frames, and
 * the answer once the server ends the stream. Whatever ends it first is the request's outcome, told once: the end of
 * the response, a failure ({@link QuicFailures}), or the stream closing under it (the connection gone).
 */
final class ResponseStream extends io.netty.handler.codec.http3.Http3RequestStreamInboundHandler {
    private final AsyncClient.Callback callback;
    private final Runnable ended;
    private int status;
    private ByteBuf body;
    private boolean told;

    /** {@code ended}: the connection's count of streams in flight goes down by one, once. */
    ResponseStream(AsyncClient.Callback callback, Runnable ended) {
        this.callback = callback;
        this.ended = ended;
    }

    @Override
    protected void channelRead(ChannelHandlerContext ctx, Http3HeadersFrame frame) {
        CharSequence given = frame.headers().status();
        status = given == null ? 0 : Integer.parseInt(given.toString());
        ReferenceCountUtil.release(frame);
    }

    @Override
    protected void channelRead(ChannelHandlerContext ctx, Http3DataFrame frame) {
        if (body == null) {
            body = ctx.alloc().heapBuffer(frame.content().readableBytes());
        }
        body.writeBytes(frame.content());
        frame.release();
    }

    @Override
    protected void channelInputClosed(ChannelHandlerContext ctx) {
        byte[] bytes = body == null ? new byte[0] : ByteBufUtil.getBytes(body);
        if (status == 0) {
            fail(new ClientFailure(ErrorClass.PROTOCOL, "the stream ended without a response's headers", null));
        } else if (tell()) {
            callback.completed(new ClientResponse(status, bytes, ClientResponse.Version.HTTP_3));
        }
        ctx.close();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail(cause);
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        fail(new ClientFailure(ErrorClass.RESET, "the stream closed before the whole response came", null));
        if (body != null) {
            body.release();
            body = null;
        }
        ctx.fireChannelInactive();
    }

    private void fail(Throwable cause) {
        if (tell()) {
            callback.failed(QuicFailures.classified(cause));
        }
    }

    /** True the first time: the outcome is told once, and the connection's count goes down once. */
    private boolean tell() {
        if (told) {
            return false;
        }
        told = true;
        ended.run();
        return true;
    }
}
