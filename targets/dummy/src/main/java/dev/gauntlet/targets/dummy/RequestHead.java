package dev.gauntlet.targets.dummy;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A request line and headers, parsed just enough to answer: the reply, the query, whether the
 * connection persists and how many body bytes follow.
 *
 * @param endIndex      index just past the blank line that ends the head
 * @param rawQuery      the query of a {@code /hello} request, null when it has none
 * @param contentLength body bytes the connection must skip before the next request
 */
record RequestHead(int endIndex, Reply reply, String rawQuery, boolean keepAlive, boolean http10, long contentLength) {

    /** The head of a request that breaks the grammar; the connection closes after the answer. */
    static final RequestHead MALFORMED = new RequestHead(0, Reply.BAD_REQUEST, null, false, false, 0);

    private static final byte[] HELLO_PATH = "/hello".getBytes(StandardCharsets.US_ASCII);

    /**
     * Parses the head in {@code bytes[from, to)}; null while the blank line that ends it has not
     * arrived. Lines may end in CRLF or a bare LF.
     */
    static RequestHead parse(byte[] bytes, int from, int to) {
        int lineStart = from;
        while (lineStart < to && (bytes[lineStart] == '\r' || bytes[lineStart] == '\n')) {
            lineStart++;
        }
        int eol = indexOf(bytes, '\n', lineStart, to);
        if (eol < 0) {
            return null;
        }
        int requestLineStart = lineStart;
        int requestLineEnd = trimCr(bytes, lineStart, eol);
        boolean keepAliveToken = false;
        boolean closeToken = false;
        long contentLength = 0;
        boolean malformed = false;
        while (true) {
            lineStart = eol + 1;
            eol = indexOf(bytes, '\n', lineStart, to);
            if (eol < 0) {
                return null;
            }
            int lineEnd = trimCr(bytes, lineStart, eol);
            if (lineEnd == lineStart) {
                break;
            }
            int colon = indexOf(bytes, ':', lineStart, lineEnd);
            if (colon <= lineStart || bytes[colon - 1] == ' ') {
                malformed = true;
            } else if (nameIs(bytes, lineStart, colon, "connection")) {
                closeToken |= contains(bytes, colon + 1, lineEnd, "close");
                keepAliveToken |= contains(bytes, colon + 1, lineEnd, "keep-alive");
            } else if (nameIs(bytes, lineStart, colon, "content-length")) {
                contentLength = digits(bytes, colon + 1, lineEnd);
                malformed |= contentLength < 0;
            } else if (nameIs(bytes, lineStart, colon, "transfer-encoding")) {
                malformed = true; // a GET benchmark never sends chunked bodies; refusing them keeps framing simple
            }
        }
        int endIndex = eol + 1;
        int sp1 = indexOf(bytes, ' ', requestLineStart, requestLineEnd);
        int sp2 = sp1 < 0 ? -1 : indexOf(bytes, ' ', sp1 + 1, requestLineEnd);
        if (malformed || sp1 <= requestLineStart || sp2 < 0 || !isMethod(bytes, requestLineStart, sp1)
                || !isTarget(bytes, sp1 + 1, sp2) || !isVersion(bytes, sp2 + 1, requestLineEnd)) {
            return MALFORMED;
        }
        boolean http10 = bytes[requestLineEnd - 1] == '0';
        boolean keepAlive = http10 ? keepAliveToken && !closeToken : !closeToken;
        int queryAt = indexOf(bytes, '?', sp1 + 1, sp2);
        int pathEnd = queryAt < 0 ? sp2 : queryAt;
        if (!Arrays.equals(bytes, sp1 + 1, pathEnd, HELLO_PATH, 0, HELLO_PATH.length)) {
            return new RequestHead(endIndex, Reply.NOT_FOUND, null, keepAlive, http10, contentLength);
        }
        if (sp1 - requestLineStart != 3 || bytes[requestLineStart] != 'G' || bytes[requestLineStart + 1] != 'E'
                || bytes[requestLineStart + 2] != 'T') {
            return new RequestHead(endIndex, Reply.METHOD_NOT_ALLOWED, null, keepAlive, http10, contentLength);
        }
        String rawQuery = queryAt < 0 ? null : new String(bytes, queryAt + 1, sp2 - queryAt - 1, StandardCharsets.ISO_8859_1);
        return new RequestHead(endIndex, Reply.HELLO, rawQuery, keepAlive, http10, contentLength);
    }

    private static int indexOf(byte[] bytes, char c, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] == c) {
                return i;
            }
        }
        return -1;
    }

    private static int trimCr(byte[] bytes, int from, int eol) {
        return eol > from && bytes[eol - 1] == '\r' ? eol - 1 : eol;
    }

    private static boolean isMethod(byte[] bytes, int from, int to) {
        for (int i = from; i < to; i++) {
            if (bytes[i] < 'A' || bytes[i] > 'Z') {
                return false;
            }
        }
        return true;
    }

    private static boolean isTarget(byte[] bytes, int from, int to) {
        if (to <= from || bytes[from] != '/') {
            return false;
        }
        for (int i = from; i < to; i++) {
            if (bytes[i] <= ' ' || bytes[i] == 0x7f) {
                return false;
            }
        }
        return true;
    }

    private static boolean isVersion(byte[] bytes, int from, int to) {
        return to - from == 8 && regionMatches(bytes, from, "HTTP/1.") && (bytes[to - 1] == '1' || bytes[to - 1] == '0');
    }

    private static boolean nameIs(byte[] bytes, int from, int to, String lowerName) {
        return to - from == lowerName.length() && regionMatches(bytes, from, lowerName);
    }

    /** Case-insensitive for letters; {@code text} is lower case. */
    private static boolean regionMatches(byte[] bytes, int from, String text) {
        for (int i = 0; i < text.length(); i++) {
            if ((bytes[from + i] | 0x20) != (text.charAt(i) | 0x20)) {
                return false;
            }
        }
        return true;
    }

    private static boolean contains(byte[] bytes, int from, int to, String lowerToken) {
        for (int i = from; i + lowerToken.length() <= to; i++) {
            if (regionMatches(bytes, i, lowerToken)) {
                return true;
            }
        }
        return false;
    }

    /** A header value of digits (surrounding spaces allowed); -1 when it is anything else. */
    private static long digits(byte[] bytes, int from, int to) {
        long value = 0;
        int count = 0;
        for (int i = from; i < to; i++) {
            byte b = bytes[i];
            if (b >= '0' && b <= '9' && count < 18) {
                value = value * 10 + (b - '0');
                count++;
            } else if (b != ' ' && b != '\t') {
                return -1;
            }
        }
        return count == 0 ? -1 : value;
    }
}
