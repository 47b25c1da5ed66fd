package dev.gauntlet.targets.dummy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

class RequestHeadTest {

    private static RequestHead parse(String head) {
        byte[] bytes = head.getBytes(StandardCharsets.ISO_8859_1);
        return RequestHead.parse(bytes, 0, bytes.length);
    }

    @Test
    void aHelloRequestKeepsItsQueryAndItsConnection() {
        RequestHead head = parse("GET /hello?wait=100 HTTP/1.1\r\nHost: x\r\n\r\n");

        assertThat(head).isEqualTo(new RequestHead(41, Reply.HELLO, "wait=100", true, false, 0));
    }

    @Test
    void aHeadIsIncompleteUntilItsBlankLine() {
        assertThat(parse("GET /hello HTTP/1.1\r\nHost: x\r\n")).isNull();
        assertThat(parse("GET /hel")).isNull();
    }

    @Test
    void pipelinedRequestsAreParsedOneHeadAtATime() {
        RequestHead first = parse("GET /hello HTTP/1.1\n\nGET /other HTTP/1.1\r\n\r\n");

        assertThat(first.endIndex()).isEqualTo(21);
        assertThat(first.reply()).isEqualTo(Reply.HELLO);
    }

    @Test
    void connectionHeadersDecideKeepAlive() {
        assertThat(parse("GET /hello HTTP/1.1\r\nConnection: Close\r\n\r\n").keepAlive()).isFalse();
        assertThat(parse("GET /hello HTTP/1.0\r\n\r\n").keepAlive()).isFalse();
        RequestHead ab = parse("GET /hello HTTP/1.0\r\nconnection: keep-alive\r\n\r\n");
        assertThat(ab.keepAlive()).isTrue();
        assertThat(ab.http10()).isTrue();
    }

    @Test
    void otherPathsAndMethodsAreRefused() {
        assertThat(parse("GET /hello/x HTTP/1.1\r\n\r\n").reply()).isEqualTo(Reply.NOT_FOUND);
        assertThat(parse("GET /hell HTTP/1.1\r\n\r\n").reply()).isEqualTo(Reply.NOT_FOUND);
        assertThat(parse("POST /hello HTTP/1.1\r\nContent-Length: 3\r\n\r\n"))
                .extracting(RequestHead::reply, RequestHead::contentLength)
                .containsExactly(Reply.METHOD_NOT_ALLOWED, 3L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"GARBAGE\r\n\r\n", "GARBAGE\u0001 \r\n\r\n", "GET hello HTTP/1.1\r\n\r\n",
            "GET /hello HTTP/2.0\r\n\r\n", "get /hello HTTP/1.1\r\n\r\n", "GET /hello HTTP/1.1\r\nNoColon\r\n\r\n",
            "GET /hello HTTP/1.1\r\nContent-Length: x\r\n\r\n", "GET /hello HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"})
    void malformedHeadsCloseTheConnection(String head) {
        assertThat(parse(head)).isSameAs(RequestHead.MALFORMED);
        assertThat(RequestHead.MALFORMED.keepAlive()).isFalse();
    }
}
