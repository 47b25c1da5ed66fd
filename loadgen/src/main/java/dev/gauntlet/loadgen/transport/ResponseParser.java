package dev.gauntlet.loadgen.transport;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An incremental HTTP/1.1 response parser that does only what validation and framing need: the
 * status, {@code Content-Length}, chunked transfer coding, {@code Connection: close}, and a
 * byte-by-byte comparison of the body with the expected one. One per connection; it allocates
 * nothing after construction.
 *
 * <p>Framing is RFC 9112's, and what it leaves ambiguous is a protocol error rather than a guess,
 * since a guess would misframe every later response on the connection: {@code Content-Length}
 * values (several lines, or a list) that disagree; a {@code Transfer-Encoding} (a list of codings,
 * case-insensitive) whose {@code chunked} is not the last coding or comes twice, or that comes with
 * a {@code Content-Length}; more than {@link #MAX_FIELD_LINES} header lines or
 * {@link #MAX_HEAD_BYTES} bytes of head (a line is {@link #MAX_LINE_BYTES} at most). Interim
 * {@code 1xx} responses are skipped (their lines count towards the limits, so an endless stream of
 * them ends too); {@code 101 Switching Protocols} is an error, as this client never asks to upgrade.
 */
final class ResponseParser {
    enum Result { NEED_MORE, COMPLETE, MALFORMED }

    private static final int STATUS_LINE = 0;
    private static final int HEADER_LINE = 1;
    private static final int BODY = 2;
    private static final int CHUNK_SIZE_LINE = 3;
    private static final int CHUNK_DATA = 4;
    private static final int CHUNK_DATA_END = 5;
    private static final int TRAILER_LINE = 6;
    private static final int BODY_UNTIL_CLOSE = 7;
    private static final int DONE = 8;

    private static final byte[] CONTENT_LENGTH = ascii("content-length");
    private static final byte[] TRANSFER_ENCODING = ascii("transfer-encoding");
    private static final byte[] CONNECTION = ascii("connection");
    private static final byte[] CHUNKED = ascii("chunked");
    private static final byte[] CLOSE = ascii("close");
    private static final int MAX_LINE_BYTES = 8192;
    /** Header and trailer lines of one response at most, interim responses included (Apache httpd's default for requests). */
    static final int MAX_FIELD_LINES = 100;
    /** Bytes of status, header and trailer lines of one response at most, interim responses included. */
    static final int MAX_HEAD_BYTES = 64 * 1024;

    private final byte[] expectedBody;
    /** Grows up to {@link #MAX_LINE_BYTES} on the first long line; small, since 19k connections each hold one. */
    private byte[] line = new byte[128];
    private int lineLength;
    private int state;
    private int status;
    private long contentLength;
    /** A {@code Transfer-Encoding} was given: the body is chunked if its last coding is, else it ends at the close. */
    private boolean transferEncoded;
    private boolean chunked;
    private int fieldLines;
    private int headBytes;
    private boolean closeAfter;
    private long remaining;
    private long bodyBytes;
    private boolean bodyMismatch;

    /** @param expectedBody the body a valid response carries; null to accept any */
    ResponseParser(byte[] expectedBody) {
        this.expectedBody = expectedBody;
        reset();
    }

    void reset() {
        fieldLines = 0;
        headBytes = 0;
        startMessage();
    }

    /** Ready for a response's status line; the head limits keep counting, as interim responses share them. */
    private void startMessage() {
        lineLength = 0;
        state = STATUS_LINE;
        status = 0;
        contentLength = -1;
        transferEncoded = false;
        chunked = false;
        closeAfter = false;
        remaining = 0;
        bodyBytes = 0;
        bodyMismatch = false;
    }

    int status() {
        return status;
    }

    boolean bodyMatches() {
        return expectedBody == null || (!bodyMismatch && bodyBytes == expectedBody.length);
    }

    /** The server asked to close the connection after this response, or framed the body by closing. */
    boolean closeAfter() {
        return closeAfter;
    }

    /** Consumes bytes from {@code buffer} up to the end of one response at most. */
    Result parse(ByteBuffer buffer) {
        int position = buffer.position();
        int limit = buffer.limit();
        Result result = Result.NEED_MORE;
        while (position < limit && result == Result.NEED_MORE) {
            switch (state) {
                case BODY, CHUNK_DATA -> {
                    int n = (int) Math.min(remaining, limit - position);
                    checkBody(buffer, position, n);
                    position += n;
                    remaining -= n;
                    if (remaining == 0) {
                        state = state == BODY ? DONE : CHUNK_DATA_END;
                        result = state == DONE ? Result.COMPLETE : Result.NEED_MORE;
                    }
                }
                case BODY_UNTIL_CLOSE -> {
                    checkBody(buffer, position, limit - position);
                    position = limit;
                }
                default -> {
                    byte b = buffer.get(position++);
                    if (b != '\n') {
                        if (lineLength == line.length && !growLine()) {
                            result = Result.MALFORMED;
                        } else {
                            line[lineLength++] = b;
                        }
                    } else {
                        int length = lineLength > 0 && line[lineLength - 1] == '\r' ? lineLength - 1 : lineLength;
                        int rawLength = lineLength + 1;
                        lineLength = 0;
                        if (!onLine(length, rawLength)) {
                            result = Result.MALFORMED;
                        } else if (state == DONE) {
                            result = Result.COMPLETE;
                        }
                    }
                }
            }
        }
        buffer.position(position);
        return result;
    }

    /** The peer closed the connection: completes a body framed by the close, else the response is cut. */
    Result onEndOfStream() {
        if (state == BODY_UNTIL_CLOSE) {
            state = DONE;
            return Result.COMPLETE;
        }
        return Result.MALFORMED;
    }

    private boolean growLine() {
        if (line.length >= MAX_LINE_BYTES) {
            return false;
        }
        line = Arrays.copyOf(line, Math.min(line.length * 4, MAX_LINE_BYTES));
        return true;
    }

    private void checkBody(ByteBuffer buffer, int position, int length) {
        if (expectedBody != null && !bodyMismatch) {
            for (int i = 0; i < length; i++) {
                long index = bodyBytes + i;
                if (index >= expectedBody.length || expectedBody[(int) index] != buffer.get(position + i)) {
                    bodyMismatch = true;
                    break;
                }
            }
        }
        bodyBytes += length;
    }

    /** @param length the line's length without its CR LF, {@code rawLength} with them */
    private boolean onLine(int length, int rawLength) {
        if ((state == STATUS_LINE || state == HEADER_LINE || state == TRAILER_LINE) && !withinHeadLimits(length, rawLength)) {
            return false;
        }
        return switch (state) {
            case STATUS_LINE -> onStatusLine(length);
            case HEADER_LINE -> length == 0 ? onEndOfHeaders() : onHeader(length);
            case CHUNK_SIZE_LINE -> onChunkSize(length);
            case CHUNK_DATA_END -> {
                state = CHUNK_SIZE_LINE;
                yield length == 0;
            }
            case TRAILER_LINE -> {
                if (length == 0) {
                    state = DONE;
                }
                yield true;
            }
            default -> false;
        };
    }

    private boolean withinHeadLimits(int length, int rawLength) {
        headBytes += rawLength;
        if (length > 0 && state != STATUS_LINE) {
            fieldLines++;
        }
        return headBytes <= MAX_HEAD_BYTES && fieldLines <= MAX_FIELD_LINES;
    }

    private boolean onStatusLine(int length) {
        // "HTTP/1.1 200" at least, optionally followed by " reason".
        if (length < 12 || line[0] != 'H' || line[1] != 'T' || line[2] != 'T' || line[3] != 'P'
                || line[4] != '/' || line[5] != '1' || line[6] != '.' || !digit(line[7]) || line[8] != ' '
                || !digit(line[9]) || !digit(line[10]) || !digit(line[11]) || (length > 12 && line[12] != ' ')) {
            return false;
        }
        status = (line[9] - '0') * 100 + (line[10] - '0') * 10 + (line[11] - '0');
        closeAfter = line[7] == '0';
        state = HEADER_LINE;
        return true;
    }

    private boolean onHeader(int length) {
        int colon = indexOf(':', 0, length);
        if (colon <= 0) {
            return false;
        }
        int valueStart = colon + 1;
        while (valueStart < length && (line[valueStart] == ' ' || line[valueStart] == '\t')) {
            valueStart++;
        }
        int valueEnd = length;
        while (valueEnd > valueStart && (line[valueEnd - 1] == ' ' || line[valueEnd - 1] == '\t')) {
            valueEnd--;
        }
        if (nameIs(CONTENT_LENGTH, colon)) {
            return onContentLength(valueStart, valueEnd);
        } else if (nameIs(TRANSFER_ENCODING, colon)) {
            return onTransferEncoding(valueStart, valueEnd);
        } else if (nameIs(CONNECTION, colon)) {
            closeAfter |= hasToken(CLOSE, valueStart, valueEnd);
        }
        return true;
    }

    /**
     * One value, or a list of them, each the same as every other the response gave. RFC 9110 §8.6 lets a
     * recipient take identical duplicates as one (a proxy that merged two copies of a header sends
     * {@code 5, 5}); different ones leave the body's length unknown, and a guess would misframe the
     * connection's later responses.
     */
    private boolean onContentLength(int from, int to) {
        for (int start = from; ; ) {
            int end = elementEnd(start, to);
            int valueStart = skipSpace(start, end);
            int valueEnd = trimSpace(valueStart, end);
            if (valueStart == valueEnd || valueEnd - valueStart > 18) {
                return false;
            }
            long value = 0;
            for (int i = valueStart; i < valueEnd; i++) {
                if (!digit(line[i])) {
                    return false;
                }
                value = value * 10 + (line[i] - '0');
            }
            if (contentLength >= 0 && contentLength != value) {
                return false;
            }
            contentLength = value;
            if (end == to) {
                return true;
            }
            start = end + 1;
        }
    }

    /**
     * The codings in the order they were applied, over one line or several (RFC 9112 §6.1). The body is
     * chunked when the last one is; a coding after {@code chunked}, or {@code chunked} twice, was applied
     * over the chunked framing, which this client cannot undo.
     */
    private boolean onTransferEncoding(int from, int to) {
        for (int start = from; start <= to; ) {
            int end = elementEnd(start, to);
            int tokenStart = skipSpace(start, end);
            int tokenEnd = tokenStart;
            while (tokenEnd < end && line[tokenEnd] != ';' && line[tokenEnd] != ' ' && line[tokenEnd] != '\t') {
                tokenEnd++;
            }
            // Empty elements ("gzip, , chunked") are allowed and mean nothing (RFC 9110 §5.6.1).
            if (tokenEnd > tokenStart) {
                if (chunked) {
                    return false;
                }
                transferEncoded = true;
                chunked = equalsIgnoreCase(CHUNKED, tokenStart, tokenEnd);
            }
            start = end + 1;
        }
        return true;
    }

    private boolean onEndOfHeaders() {
        if (status < 100 || status == 101) {
            return false;
        }
        if (status < 200) {
            // An interim response (100 Continue, 103 Early Hints): the final one follows on the same connection.
            startMessage();
            return true;
        }
        if (transferEncoded && contentLength >= 0) {
            // RFC 9112 §6.3: a sign of response splitting, "ought to be handled as an error".
            return false;
        }
        if (status == 204 || status == 304) {
            state = DONE;
        } else if (chunked) {
            state = CHUNK_SIZE_LINE;
        } else if (contentLength >= 0 && !transferEncoded) {
            remaining = contentLength;
            state = contentLength == 0 ? DONE : BODY;
        } else {
            // No length, or codings that end in another than chunked: the body ends at the close (RFC 9112 §6.3).
            closeAfter = true;
            state = BODY_UNTIL_CLOSE;
        }
        return true;
    }

    private boolean onChunkSize(int length) {
        long size = 0;
        int digits = 0;
        for (int i = 0; i < length && line[i] != ';' && line[i] != ' '; i++, digits++) {
            int value = Character.digit(line[i], 16);
            if (value < 0 || digits == 15) {
                return false;
            }
            size = size * 16 + value;
        }
        if (digits == 0) {
            return false;
        }
        remaining = size;
        state = size == 0 ? TRAILER_LINE : CHUNK_DATA;
        return true;
    }

    private boolean nameIs(byte[] lowerCaseName, int nameLength) {
        if (nameLength != lowerCaseName.length) {
            return false;
        }
        for (int i = 0; i < nameLength; i++) {
            if ((line[i] | 0x20) != lowerCaseName[i] && line[i] != lowerCaseName[i]) {
                return false;
            }
        }
        return true;
    }

    /** Whether the comma-separated list in {@code [from, to)} has {@code lowerCaseToken} as one of its elements. */
    private boolean hasToken(byte[] lowerCaseToken, int from, int to) {
        for (int start = from; start <= to; ) {
            int end = elementEnd(start, to);
            int tokenStart = skipSpace(start, end);
            if (equalsIgnoreCase(lowerCaseToken, tokenStart, trimSpace(tokenStart, end))) {
                return true;
            }
            start = end + 1;
        }
        return false;
    }

    /** Where the list element starting at {@code from} ends: at the next comma, or at {@code to}. */
    private int elementEnd(int from, int to) {
        int comma = indexOf(',', from, to);
        return comma < 0 ? to : comma;
    }

    private int skipSpace(int from, int to) {
        while (from < to && (line[from] == ' ' || line[from] == '\t')) {
            from++;
        }
        return from;
    }

    private int trimSpace(int from, int to) {
        while (to > from && (line[to - 1] == ' ' || line[to - 1] == '\t')) {
            to--;
        }
        return to;
    }

    private boolean equalsIgnoreCase(byte[] lowerCaseWord, int from, int to) {
        if (to - from != lowerCaseWord.length) {
            return false;
        }
        for (int i = 0; i < lowerCaseWord.length; i++) {
            if ((line[from + i] | 0x20) != lowerCaseWord[i]) {
                return false;
            }
        }
        return true;
    }

    private int indexOf(char c, int from, int to) {
        for (int i = from; i < to; i++) {
            if (line[i] == c) {
                return i;
            }
        }
        return -1;
    }

    private static boolean digit(byte b) {
        return b >= '0' && b <= '9';
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }
}
