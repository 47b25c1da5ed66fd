package dev.gauntlet.targets.dummy;

import dev.gauntlet.targets.HelloContract;

import java.nio.charset.StandardCharsets;

/** Every response the dummy sends, encoded once: per status, one variant per {@code Connection} header. */
enum Reply {
    HELLO("200 OK", "Content-Type: " + HelloContract.CONTENT_TYPE + "\r\nContent-Length: "
            + HelloContract.BODY.length() + "\r\n", HelloContract.BODY),
    BAD_REQUEST("400 Bad Request", "Content-Length: 0\r\n", ""),
    NOT_FOUND("404 Not Found", "Content-Length: 0\r\n", ""),
    METHOD_NOT_ALLOWED("405 Method Not Allowed", "Allow: GET\r\nContent-Length: 0\r\n", "");

    private final byte[] persistent;
    private final byte[] keepAlive;
    private final byte[] close;

    Reply(String status, String headers, String body) {
        persistent = encode(status, headers, body);
        keepAlive = encode(status, headers + "Connection: keep-alive\r\n", body);
        close = encode(status, headers + "Connection: close\r\n", body);
    }

    /**
     * HTTP/1.1 connections persist unless closed; an HTTP/1.0 client (ab -k) only keeps its
     * connection when the response says so.
     */
    byte[] bytes(RequestHead head) {
        if (!head.keepAlive()) {
            return close;
        }
        return head.http10() ? keepAlive : persistent;
    }

    private static byte[] encode(String status, String headers, String body) {
        return ("HTTP/1.1 " + status + "\r\n" + headers + "\r\n" + body).getBytes(StandardCharsets.US_ASCII);
    }
}
