package dev.gauntlet.loadgen.transport;

import dev.gauntlet.loadgen.transport.ResponseParser.Result;
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

    @Test
    void identicalContentLengthsAreOneAndConflictingOnesAProtocolError() {
        assertThat(parser.parse(ascii("HTTP/1.1 200 OK\r\nContent-Length: 5\r\ncontent-length: 5\r\n\r\nhello")))
                .isEqualTo(Result.COMPLETE);
        assertThat(parser.bodyMatches()).isTrue();
        parser.reset();
        assertThat(parser.parse(ascii("HTTP/1.1 200 OK\r\nContent-Length: 5 , 5\r\n\r\nhello"))).isEqualTo(Result.COMPLETE);
        parser.reset();
        assertThat(parser.parse(ascii("HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nhello")))
                .isEqualTo(Result.MALFORMED);
        for (String value : new String[] {"5, 7", "5,", ",5", "", "5 5", "-5", "0x5"}) {
            ResponseParser fresh = new ResponseParser(null);
            assertThat(fresh.parse(ascii("HTTP/1.1 200 OK\r\nContent-Length: " + value + "\r\n\r\nhello")))
                    .as("Content-Length: %s", value).isEqualTo(Result.MALFORMED);
        }
    }

    @Test
    void transferEncodingIsAListWhoseLastCodingMustBeChunkedToBeChunked() {
        String chunkedHello = "\r\n\r\n5\r\nhello\r\n0\r\n\r\n";
        for (String value : new String[] {"chunked", "CHUNKED", " chunked ", "gzip, chunked", "identity,chunked",
                "gzip\r\nTransfer-Encoding: chunked", ", chunked"}) {
            ResponseParser fresh = new ResponseParser(null);
            assertThat(fresh.parse(ascii("HTTP/1.1 200 OK\r\nTransfer-Encoding: " + value + chunkedHello)))
                    .as("Transfer-Encoding: %s", value).isEqualTo(Result.COMPLETE);
        }
        // Not chunked: the body is what comes until the server closes.
        for (String value : new String[] {"notchunked", "chunkedx", "gzip"}) {
            ResponseParser fresh = new ResponseParser("hello".getBytes(StandardCharsets.US_ASCII));
            assertThat(fresh.parse(ascii("HTTP/1.1 200 OK\r\nTransfer-Encoding: " + value + "\r\n\r\nhello")))
                    .as("Transfer-Encoding: %s", value).isEqualTo(Result.NEED_MORE);
            assertThat(fresh.onEndOfStream()).isEqualTo(Result.COMPLETE);
            assertThat(fresh.closeAfter()).isTrue();
            assertThat(fresh.bodyMatches()).isTrue();
        }
        // A coding over the chunked framing, chunked twice, or a length beside the codings: no framing to trust.
        for (String value : new String[] {"chunked, gzip", "chunked, chunked", "chunked\r\nTransfer-Encoding: gzip",
                "chunked\r\nContent-Length: 5"}) {
            ResponseParser fresh = new ResponseParser(null);
            assertThat(fresh.parse(ascii("HTTP/1.1 200 OK\r\nTransfer-Encoding: " + value + chunkedHello)))
                    .as("Transfer-Encoding: %s", value).isEqualTo(Result.MALFORMED);
        }
    }

    @Test
    void connectionCloseIsAToken() {
        assertThat(parser.parse(ascii("HTTP/1.1 200 OK\r\nConnection: keep-alive, CLOSE\r\nContent-Length: 5\r\n\r\nhello")))
                .isEqualTo(Result.COMPLETE);
        assertThat(parser.closeAfter()).isTrue();
        parser.reset();
        assertThat(parser.parse(ascii("HTTP/1.1 200 OK\r\nConnection: notclose\r\nContent-Length: 5\r\n\r\nhello")))
                .isEqualTo(Result.COMPLETE);
        assertThat(parser.closeAfter()).isFalse();
    }

    @Test
    void headerLinesAndHeadBytesAreCapped() {
        String line = "X-Filler: " + "a".repeat(100) + "\r\n";
        String atTheCap = "HTTP/1.1 200 OK\r\n" + line.repeat(ResponseParser.MAX_FIELD_LINES - 1) + "Content-Length: 5\r\n\r\nhello";
        assertThat(parser.parse(ascii(atTheCap))).isEqualTo(Result.COMPLETE);
        parser.reset();
        assertThat(parser.parse(ascii("HTTP/1.1 200 OK\r\n" + line.repeat(ResponseParser.MAX_FIELD_LINES)
                + "Content-Length: 5\r\n\r\nhello"))).isEqualTo(Result.MALFORMED);

        String longLine = "X-Filler: " + "a".repeat(8_000) + "\r\n";
        int linesOverTheBytes = ResponseParser.MAX_HEAD_BYTES / longLine.length() + 1;
        ResponseParser fresh = new ResponseParser(null);
        assertThat(fresh.parse(ascii("HTTP/1.1 200 OK\r\n" + longLine.repeat(linesOverTheBytes)
                + "Content-Length: 5\r\n\r\nhello"))).isEqualTo(Result.MALFORMED);
    }

    @Test
    void interimResponsesAreSkippedAndTheFinalOneCounts() {
        ByteBuffer buffer = ascii("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 103 Early Hints\r\nLink: </style.css>; rel=preload\r\n"
                + "Content-Length: 9\r\n\r\n" + HELLO);
        assertThat(parser.parse(buffer)).isEqualTo(Result.COMPLETE);
        assertThat(buffer.hasRemaining()).isFalse();
        assertThat(parser.status()).isEqualTo(200);
        assertThat(parser.bodyMatches()).isTrue();

        byte[] bytes = ("HTTP/1.1 100 Continue\r\n\r\n" + HELLO).getBytes(StandardCharsets.US_ASCII);
        parser.reset();
        for (int i = 0; i < bytes.length - 1; i++) {
            assertThat(parser.parse(ByteBuffer.wrap(bytes, i, 1))).isEqualTo(Result.NEED_MORE);
        }
        assertThat(parser.parse(ByteBuffer.wrap(bytes, bytes.length - 1, 1))).isEqualTo(Result.COMPLETE);
        assertThat(parser.status()).isEqualTo(200);
    }

    @Test
    void anInterimResponseAloneIsNoResponseAndEndlessOnesEnd() {
        assertThat(parser.parse(ascii("HTTP/1.1 100 Continue\r\n\r\n"))).isEqualTo(Result.NEED_MORE);
        assertThat(parser.onEndOfStream()).isEqualTo(Result.MALFORMED);
        parser.reset();
        assertThat(parser.parse(ascii("HTTP/1.1 100 Continue\r\n\r\n".repeat(ResponseParser.MAX_HEAD_BYTES / 20))))
                .isEqualTo(Result.MALFORMED);
    }

    @Test
    void switchingProtocolsIsAProtocolErrorForAClientThatNeverAskedToUpgrade() {
        assertThat(parser.parse(ascii("HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n\r\n")))
                .isEqualTo(Result.MALFORMED);
    }

    private static ByteBuffer ascii(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
    }
}
