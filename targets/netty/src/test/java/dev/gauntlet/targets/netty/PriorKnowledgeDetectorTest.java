package dev.gauntlet.targets.netty;

import dev.gauntlet.targets.RequestStats;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http2.Http2CodecUtil;
import io.netty.handler.codec.http2.Http2FrameCodec;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class PriorKnowledgeDetectorTest {
    /** The HTTP/2 frame type of SETTINGS, the first frame a server sends. */
    private static final byte SETTINGS = 0x4;

    private static EmbeddedChannel connection() {
        HelloPipelines pipelines = new HelloPipelines(new RequestStats(),
                () -> (ctx, waitMs, respond) -> respond.run(), null, true);
        return new EmbeddedChannel(new PriorKnowledgeDetector(pipelines));
    }

    @Test
    void anHttp1RequestIsServedHttp1() {
        EmbeddedChannel channel = connection();

        channel.writeInbound(Unpooled.copiedBuffer("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n", StandardCharsets.US_ASCII));

        assertThat(channel.pipeline().get(PriorKnowledgeDetector.class)).isNull();
        assertThat(channel.pipeline().get(HttpServerCodec.class)).isNotNull();
        ByteBuf response = channel.readOutbound();
        assertThat(response.toString(StandardCharsets.US_ASCII)).startsWith("HTTP/1.1 200 OK").endsWith("\r\n\r\nhello");
        response.release();
    }

    @Test
    void thePrefaceIsAwaitedToItsLastByteThenServedHttp2() {
        EmbeddedChannel channel = connection();
        ByteBuf preface = Http2CodecUtil.connectionPrefaceBuf();

        while (preface.readableBytes() > 1) {
            channel.writeInbound(preface.readRetainedSlice(1));
            assertThat(channel.pipeline().get(PriorKnowledgeDetector.class)).isNotNull();
        }
        channel.writeInbound(preface.readRetainedSlice(1));

        assertThat(channel.pipeline().get(PriorKnowledgeDetector.class)).isNull();
        assertThat(channel.pipeline().get(Http2FrameCodec.class)).isNotNull();
        ByteBuf settings = channel.readOutbound();
        assertThat(settings.getByte(3)).isEqualTo(SETTINGS);
        settings.release();
        preface.release();
    }
}
