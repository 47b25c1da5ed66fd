package dev.gauntlet.targets.netty;

import dev.gauntlet.targets.HelloContract;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.ReadOnlyHttpHeaders;

import java.util.Arrays;

/**
 * The responses of the target contract, built once: the body is one unreleasable read-only buffer,
 * duplicated per response, and the headers are read-only, so one instance serves every response.
 * Header names are spelled as the other targets send them.
 *
 * <p>Each response exists in the three forms keep-alive needs: HTTP/1.1 persistent (nothing to
 * add), HTTP/1.0 persistent ({@code Connection: keep-alive}) and closing ({@code Connection: close}).
 */
final class HelloResponses {
    private static final ByteBuf BODY = Unpooled.unreleasableBuffer(
            Unpooled.directBuffer(HelloContract.BODY_BYTES.length).writeBytes(HelloContract.BODY_BYTES)).asReadOnly();
    private static final Headers HELLO = Headers.of("Content-Type", HelloContract.CONTENT_TYPE,
            "Content-Length", String.valueOf(BODY.readableBytes()));
    private static final Headers EMPTY = Headers.of("Content-Length", "0");

    private HelloResponses() {
    }

    /** {@code 200} with the contract's body. */
    static FullHttpResponse hello(boolean keepAlive, boolean http10) {
        return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK, BODY.duplicate(),
                HELLO.choose(keepAlive, http10), EmptyHttpHeaders.INSTANCE);
    }

    /** {@code status} with an empty body. */
    static FullHttpResponse empty(HttpResponseStatus status, boolean keepAlive, boolean http10) {
        return new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, Unpooled.EMPTY_BUFFER,
                EMPTY.choose(keepAlive, http10), EmptyHttpHeaders.INSTANCE);
    }

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
}
