package dev.gauntlet.loadgen;

import dev.gauntlet.loadgen.ResponseParser.Result;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class ResponseParserTest {
    private static final String HELLO = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello";

    private final ResponseParser parser = new ResponseParser("hello".getBytes(StandardCharsets.UTF_8));

    @Test
    void parsesAContentLengthResponse() {
        ByteBuffer buffer = ascii(HELLO);
        assertThat(parser.parse(buffer)).isEqualTo(Result.COMPLETE);
        assertThat(buffer.hasRemaining()).isFalse();
        assertThat(parser.status()).isEqualTo(200);
        assertThat(parser.bodyMatches()).isTrue();
        assertThat(parser.closeAfter()).isFalse();
    }

    @Test
    void parsesAResponseArrivingOneByteAtATime() {
        byte[] bytes = HELLO.getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < bytes.length - 1; i++) {
            assertThat(parser.parse(ByteBuffer.wrap(bytes, i, 1))).isEqualTo(Result.NEED_MORE);
        }
        assertThat(parser.parse(ByteBuffer.wrap(bytes, bytes.length - 1, 1))).isEqualTo(Result.COMPLETE);
        assertThat(parser.bodyMatches()).isTrue();
    }

    @Test
    void stopsAtTheEndOfOneResponseAndParsesTheNextAfterReset() {
        ByteBuffer buffer = ascii(HELLO + HELLO);
        assertThat(parser.parse(buffer)).isEqualTo(Result.COMPLETE);
        assertThat(buffer.remaining()).isEqualTo(HELLO.length());
        parser.reset();
        assertThat(parser.parse(buffer)).isEqualTo(Result.COMPLETE);
        assertThat(buffer.hasRemaining()).isFalse();
    }

    @Test
    void parsesChunkedBodies() {
        ByteBuffer buffer = ascii("HTTP/1.1 200 OK\r\ntransfer-encoding: Chunked\r\n\r\n2;ext=1\r\nhe\r\n3\r\nllo\r\n0\r\nX-Trailer: 1\r\n\r\n");
        assertThat(parser.parse(buffer)).isEqualTo(Result.COMPLETE);
        assertThat(parser.bodyMatches()).isTrue();
        assertThat(buffer.hasRemaining()).isFalse();
    }

    @Test
    void headerNamesAreCaseInsensitive() {
        assertThat(parser.parse(ascii("HTTP/1.1 200 OK\r\nCONTENT-LENGTH: 5\r\nconnection: Close\r\n\r\nhello")))
                .isEqualTo(Result.COMPLETE);
        assertThat(parser.closeAfter()).isTrue();
    }

    @Test
    void reportsAnotherBody() {
        assertThat(parser.parse(ascii("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhellx"))).isEqualTo(Result.COMPLETE);
        assertThat(parser.bodyMatches()).isFalse();
        parser.reset();
        assertThat(parser.parse(ascii("HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nhello!"))).isEqualTo(Result.COMPLETE);
        assertThat(parser.bodyMatches()).isFalse();
        parser.reset();
        assertThat(parser.parse(ascii("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nhell"))).isEqualTo(Result.COMPLETE);
        assertThat(parser.bodyMatches()).isFalse();
    }

    @Test
    void reportsTheStatus() {
        assertThat(parser.parse(ascii("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n"))).isEqualTo(Result.COMPLETE);
        assertThat(parser.status()).isEqualTo(503);
    }

    @Test
    void rejectsGarbage() {
        assertThat(parser.parse(ascii("FOO BAR\r\n\r\n"))).isEqualTo(Result.MALFORMED);
        parser.reset();
        assertThat(parser.parse(ascii("HTTP/1.1 200 OK\r\nno colon here\r\n\r\n"))).isEqualTo(Result.MALFORMED);
        parser.reset();
        assertThat(parser.parse(ascii("HTTP/1.1 200 OK\r\nContent-Length: x5\r\n\r\n"))).isEqualTo(Result.MALFORMED);
        parser.reset();
        assertThat(parser.parse(ascii("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"))).isEqualTo(Result.MALFORMED);
    }

    @Test
    void aBodyFramedByTheCloseCompletesAtEndOfStreamAndACutOneDoesNot() {
        assertThat(parser.parse(ascii("HTTP/1.1 200 OK\r\n\r\nhello"))).isEqualTo(Result.NEED_MORE);
        assertThat(parser.onEndOfStream()).isEqualTo(Result.COMPLETE);
        assertThat(parser.bodyMatches()).isTrue();
        parser.reset();
        assertThat(parser.parse(ascii("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhe"))).isEqualTo(Result.NEED_MORE);
        assertThat(parser.onEndOfStream()).isEqualTo(Result.MALFORMED);
    }

    @Test
    void anyBodyIsAcceptedWithoutAnExpectedOne() {
        ResponseParser lenient = new ResponseParser(null);
        assertThat(lenient.parse(ascii("HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabc"))).isEqualTo(Result.COMPLETE);
        assertThat(lenient.bodyMatches()).isTrue();
    }

    private static ByteBuffer ascii(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
    }
}
