package dev.gauntlet.target.netty;

import dev.gauntlet.target.HelloContract;
import dev.gauntlet.target.RequestStats;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.ReadOnlyHttpHeaders;
import io.netty.util.ReferenceCountUtil;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.RejectedExecutionException;

/**
 * The target contract on one connection, running on the connection's event loop: routes each
 * request, counts it, hands the wait to the style's {@link Wait} and writes the pre-built response
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

    private static final ByteBuf BODY = Unpooled.unreleasableBuffer(
            Unpooled.directBuffer(HelloContract.BODY_BYTES.length).writeBytes(HelloContract.BODY_BYTES)).asReadOnly();
    private static final Headers HELLO = Headers.of("Content-Type", HelloContract.CONTENT_TYPE,
            "Content-Length", String.valueOf(BODY.readableBytes()));
    private static final Headers EMPTY = Headers.of("Content-Length", "0");

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
            }
        } finally {
            ReferenceCountUtil.release(msg);
        }
    }

    private void answer(ChannelHandlerContext ctx, HttpRequest request) {
        if (request.decoderResult().isFailure()) {
            // The codec discards everything after a malformed request, so the connection is done.
            ctx.writeAndFlush(empty(HttpResponseStatus.BAD_REQUEST, EMPTY.closing)).addListener(ChannelFutureListener.CLOSE);
            waiting = true;
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
        write(ctx, new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, BODY.duplicate(),
                HELLO.choose(keepAlive, http10), EmptyHttpHeaders.INSTANCE), keepAlive);
        stats.complete();
        waiting = false;
        HttpRequest next;
        while (!waiting && (next = heldBack.poll()) != null) {
            answer(ctx, next);
        }
    }

    private static void send(ChannelHandlerContext ctx, HttpResponseStatus status, boolean keepAlive, boolean http10) {
        write(ctx, empty(status, EMPTY.choose(keepAlive, http10)), keepAlive);
    }

    private static void write(ChannelHandlerContext ctx, DefaultFullHttpResponse response, boolean keepAlive) {
        if (keepAlive) {
            ctx.writeAndFlush(response, ctx.voidPromise());
        } else {
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }

    private static DefaultFullHttpResponse empty(HttpResponseStatus status, HttpHeaders headers) {
        return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER, headers,
                EmptyHttpHeaders.INSTANCE);
    }

    /**
     * One response's headers in the three forms keep-alive needs: HTTP/1.1 persistent (nothing to
     * add), HTTP/1.0 persistent ({@code Connection: keep-alive}) and closing. Read-only, so one
     * instance serves every response; names spelled as the other targets send them.
     */
    private record Headers(HttpHeaders persistent, HttpHeaders http10KeepAlive, HttpHeaders closing) {
        static Headers of(String... nameValuePairs) {
            return new Headers(new ReadOnlyHttpHeaders(false, nameValuePairs),
                    new ReadOnlyHttpHeaders(false, with(nameValuePairs, "keep-alive")),
                    new ReadOnlyHttpHeaders(false, with(nameValuePairs, "close")));
        }

        private static String[] with(String[] nameValuePairs, String connection) {
            String[] all = Arrays.copyOf(nameValuePairs, nameValuePairs.length + 2);
            all[nameValuePairs.length] = "Connection";
            all[nameValuePairs.length + 1] = connection;
            return all;
        }

        HttpHeaders choose(boolean keepAlive, boolean http10) {
            return !keepAlive ? closing : http10 ? http10KeepAlive : persistent;
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
