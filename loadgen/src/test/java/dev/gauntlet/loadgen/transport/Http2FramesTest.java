package dev.gauntlet.loadgen.transport;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The request's header blocks as a real server's HPACK decoder (Netty's) reads them, one decoder per connection as a
 * server keeps it (no socket: the URL is only encoded): inserted once, referred to after, a lower table size taken,
 * spelt out when the table has no room.
 */
class Http2FramesTest {
    private static final Http2Frames.RequestFrames FRAMES = Http2Frames.requestFrames(
            LoadSpec.of(URI.create("http://target.invalid:4711/hello?wait=10"), new LoadModel.ClosedLoop(1)));

    @Test
    void aConnectionsFirstRequestPutsItsFieldsInTheTableAndTheLaterOnesReferToThem() throws Exception {
        Http2Session session = new Http2Session(null, null, 1, false);
        DefaultHttp2HeadersDecoder server = new DefaultHttp2HeadersDecoder(true);

        byte[] first = session.requestFrame(FRAMES);
        byte[] second = session.requestFrame(FRAMES);

        assertThat(first).isEqualTo(FRAMES.inserting());
        assertThat(second).isEqualTo(FRAMES.indexed()).isEqualTo(session.requestFrame(FRAMES));
        assertRequest(decode(server, first));
        assertRequest(decode(server, second));
        assertRequest(decode(server, second));
        // :method and :scheme from the static table, the three fields from the dynamic one: a byte each.
        assertThat(second.length - Http2Frames.FRAME_HEADER_BYTES).isEqualTo(5);
    }

    @Test
    void anIndexedBlockOnAConnectionWhoseTableLacksTheFieldsBreaksIt() {
        // What the session's state guards against: a server that never saw the insertion cannot decode a reference.
        assertThatThrownBy(() -> decode(new DefaultHttp2HeadersDecoder(true), FRAMES.indexed())).isInstanceOf(Http2Exception.class);
    }

    @Test
    void aLowerTableSizeIsTakenByTheNextBlockAndTheFieldsSpeltOutWhenTheyNoLongerFit() throws Exception {
        Http2Session session = new Http2Session(null, null, 1, false);
        DefaultHttp2HeadersDecoder server = new DefaultHttp2HeadersDecoder(true);
        assertRequest(decode(server, session.requestFrame(FRAMES)));

        // Room still for the three fields: a size update, then the references, still valid.
        server.configuration().maxHeaderTableSize(1_024);
        session.serverTableSize(1_024);
        byte[] smaller = session.requestFrame(FRAMES);
        assertThat(smaller).isNotEqualTo(FRAMES.indexed());
        assertRequest(decode(server, smaller));
        assertThat(session.requestFrame(FRAMES)).isEqualTo(FRAMES.indexed());

        // No room: a size update, then literals from now on (Netty fails a block that omits the update).
        server.configuration().maxHeaderTableSize(0);
        session.serverTableSize(0);
        assertRequest(decode(server, session.requestFrame(FRAMES)));
        byte[] after = session.requestFrame(FRAMES);
        assertThat(after).isEqualTo(FRAMES.literal());
        assertRequest(decode(server, after));
    }

    @Test
    void aBlockAfterALowerTableSizeWithoutTheSizeUpdateBreaksTheConnection() throws Exception {
        // Why the session leads its next block with the update: a strict decoder fails the block without it.
        DefaultHttp2HeadersDecoder server = new DefaultHttp2HeadersDecoder(true);
        decode(server, FRAMES.inserting());
        server.configuration().maxHeaderTableSize(0);

        assertThatThrownBy(() -> decode(server, FRAMES.literal())).isInstanceOf(Http2Exception.class);
    }

    @Test
    void aServerWithoutRoomFromItsFirstSettingsGetsLiteralsAfterTheSizeUpdate() throws Exception {
        Http2Session session = new Http2Session(null, null, 1, false);
        DefaultHttp2HeadersDecoder server = new DefaultHttp2HeadersDecoder(true);
        server.configuration().maxHeaderTableSize(64);
        session.serverTableSize(64);

        assertRequest(decode(server, session.requestFrame(FRAMES)));
        assertThat(session.requestFrame(FRAMES)).isEqualTo(FRAMES.literal());
        assertThat(FRAMES.tableBytes()).isGreaterThan(64);
    }

    @Test
    void aLargerTableSizeChangesNothing() {
        Http2Session session = new Http2Session(null, null, 1, false);
        session.serverTableSize(65_536);

        assertThat(session.requestFrame(FRAMES)).isEqualTo(FRAMES.inserting());
        assertThat(session.requestFrame(FRAMES)).isEqualTo(FRAMES.indexed());
    }

    private static Http2Headers decode(DefaultHttp2HeadersDecoder decoder, byte[] frame) throws Http2Exception {
        byte[] block = Arrays.copyOfRange(frame, Http2Frames.FRAME_HEADER_BYTES, frame.length);
        return decoder.decodeHeaders(1, Unpooled.wrappedBuffer(block));
    }

    private static void assertRequest(Http2Headers headers) {
        assertThat(headers.method()).hasToString("GET");
        assertThat(headers.scheme()).hasToString("http");
        assertThat(headers.path()).hasToString("/hello?wait=10");
        assertThat(headers.authority()).hasToString("target.invalid:4711");
        assertThat(headers.get("user-agent")).hasToString("gauntlet");
        assertThat(headers.size()).isEqualTo(5);
    }
}
