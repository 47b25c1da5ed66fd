package dev.gauntlet.targets.netty;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.RequestStats;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayDeque;
import java.util.concurrent.RejectedExecutionException;

/**
 * The target contract on one connection, or one HTTP/2 stream (as HTTP/1.1 objects, see
 * {@link HelloPipelines}), running on the connection's event loop: routes each request, counts it,
 * hands the wait to the style's {@link Wait} and writes the pre-built response ({@link HelloResponses})
 * once the wait is over.
 *
 * <p>Requests are answered strictly in order: while one waits, pipelined requests that follow it
 * are held back, since a shorter wait must not overtake a longer one on the same connection.
 * Request bodies are not aggregated; their content is dropped.
 */
final class HelloHandler extends ChannelInboundHandlerAdapter {

    /** How a style waits: {@code respond} is to run, on any thread, once {@code waitMs} have passed. */
    @FunctionalInterface
    interface Wait {
        void await(ChannelHandlerContext ctx, long waitMs, Runnable respond);
    }

    private final RequestStats stats;
    private final Wait wait;
    private final ArrayDeque<HttpRequest> heldBack = new ArrayDeque<>();
    private boolean waiting;

    HelloHandler(RequestStats stats, Wait wait) {
        this.stats = stats;
        this.wait = wait;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        try {
            if (msg instanceof HttpRequest request) {
                if (waiting) {
                    heldBack.add(request);
                } else {
                    answer(ctx, request);
                }
            } else if (msg instanceof HttpContent content && content.decoderResult().isFailure()) {
                // A broken body: the codec discards the rest of the stream, so the connection is done.
                ctx.close();
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void answer(ChannelHandlerContext ctx, HttpRequest request) {
        if (request.decoderResult().isFailure()) {
            // The codec discards everything after a malformed request, so the connection is done.
            write(ctx, HelloResponses.empty(HttpResponseStatus.BAD_REQUEST, false, false), false);
            return;
        }
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        boolean http10 = request.protocolVersion().equals(HttpVersion.HTTP_1_0);
        String uri = request.uri();
        int query = uri.indexOf('?');
        String path = query < 0 ? uri : uri.substring(0, query);
        if (!path.equals(HelloContract.PATH)) {
            send(ctx, HttpResponseStatus.NOT_FOUND, keepAlive, http10);
            return;
        }
        if (!request.method().equals(HttpMethod.GET)) {
            send(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, keepAlive, http10);
            return;
        }
        long waitMs;
        try {
            waitMs = HelloContract.waitMs(query < 0 ? null : uri.substring(query + 1));
        } catch (IllegalArgumentException e) {
            send(ctx, HttpResponseStatus.BAD_REQUEST, keepAlive, http10);
            return;
        }
        stats.begin();
        waiting = true;
        wait.await(ctx, waitMs, () -> {
            if (ctx.executor().inEventLoop()) {
                respond(ctx, keepAlive, http10);
            } else {
                try {
                    ctx.executor().execute(() -> respond(ctx, keepAlive, http10));
                } catch (RejectedExecutionException shutDown) {
                    stats.fail();
                }
            }
        });
    }

    private void respond(ChannelHandlerContext ctx, boolean keepAlive, boolean http10) {
        if (!ctx.channel().isActive()) {
            stats.fail();
            heldBack.clear();
            return;
        }
        waiting = false;
        write(ctx, HelloResponses.hello(keepAlive, http10), keepAlive);
        stats.complete();
        HttpRequest next;
        while (!waiting && (next = heldBack.poll()) != null) {
            answer(ctx, next);
        }
    }

    private void send(ChannelHandlerContext ctx, HttpResponseStatus status, boolean keepAlive, boolean http10) {
        write(ctx, HelloResponses.empty(status, keepAlive, http10), keepAlive);
    }

    /** A closing response ends the connection: nothing after it is answered. */
    private void write(ChannelHandlerContext ctx, FullHttpResponse response, boolean keepAlive) {
        if (keepAlive) {
            ctx.writeAndFlush(response, ctx.voidPromise());
        } else {
            waiting = true;
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
