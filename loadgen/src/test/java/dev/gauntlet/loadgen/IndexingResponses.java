package dev.gauntlet.loadgen;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2HeadersEncoder;

import java.io.IOException;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A {@link ScriptedHttp2Server} script answering as servers that index their fields do (Helidon, Netty, nghttpd):
 * {@code :status 200} and its fields Huffman-coded by a real HPACK encoder (Netty's) that adds them to the connection's
 * dynamic table, so that the first response inserts them and the later ones refer to them; a {@code date} that
 * changes with the second inserts anew and evicts. Apart from the server, so that the client engines' contract tests,
 * which use the server without Netty on their classpath, never load Netty.
 */
final class IndexingResponses implements ScriptedHttp2Server.Script {
    /** Each connection's encoder: its dynamic table is the connection's. */
    private final Map<ScriptedHttp2Server.Exchange, DefaultHttp2HeadersEncoder> encoders = new ConcurrentHashMap<>();

    @Override
    public void onRequest(ScriptedHttp2Server.Exchange exchange, int streamId) throws IOException {
        // Huffman whenever it is shorter (threshold 0); the default table of 4,096 the client's SETTINGS allow.
        DefaultHttp2HeadersEncoder encoder = encoders.computeIfAbsent(exchange,
                e -> new DefaultHttp2HeadersEncoder(Http2HeadersEncoder.NEVER_SENSITIVE, false, 16, 0));
        DefaultHttp2Headers headers = new DefaultHttp2Headers(false);
        headers.status("200").add("content-type", "text/plain; charset=UTF-8").add("content-length", "5")
                .add("date", DateTimeFormatter.RFC_1123_DATE_TIME.format(ZonedDateTime.now(ZoneOffset.UTC)))
                .add("x-request", String.valueOf(exchange.runRequest));
        ByteBuf block = Unpooled.buffer();
        try {
            encoder.encodeHeaders(streamId, headers, block);
            byte[] bytes = new byte[block.readableBytes()];
            block.readBytes(bytes);
            exchange.answer(streamId, bytes);
        } catch (Http2Exception e) {
            throw new IOException(e);
        } finally {
            block.release();
        }
    }
}
