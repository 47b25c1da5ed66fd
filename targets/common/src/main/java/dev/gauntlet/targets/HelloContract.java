package dev.gauntlet.targets;

import java.nio.charset.StandardCharsets;

/**
 * The bytes and the query every target shares, so that all targets answer identically.
 *
 * <pre>{@code
 * long waitMs = HelloContract.waitMs(request.getQueryString());   // IllegalArgumentException -> 400
 * HelloContract.sleep(waitMs);                                      // blocking styles
 * response.write(HelloContract.BODY_BYTES);
 * }</pre>
 */
public final class HelloContract {
    public static final String PATH = "/hello";
    public static final String BODY = "hello";
    public static final byte[] BODY_BYTES = BODY.getBytes(StandardCharsets.US_ASCII);
    public static final String CONTENT_TYPE = "text/plain";
    /** The longest wait a request may ask for: one hour, so a typo cannot park a thread for ever. */
    public static final long MAX_WAIT_MS = 3_600_000;

    private HelloContract() {
    }

    /**
     * The {@code wait} parameter of a raw query string ({@code a=1&wait=100}); 0 when absent.
     *
     * @throws IllegalArgumentException when the value is not a whole number from 0 to
     *                                  {@link #MAX_WAIT_MS}: the server answers 400
     */
    public static long waitMs(String rawQuery) {
        if (rawQuery == null || rawQuery.isEmpty()) {
            return 0;
        }
        int from = 0;
        while (from <= rawQuery.length()) {
            int end = rawQuery.indexOf('&', from);
            if (end < 0) {
                end = rawQuery.length();
            }
            if (rawQuery.startsWith("wait=", from)) {
                return parseWait(rawQuery.substring(from + 5, end));
            }
            from = end + 1;
        }
        return 0;
    }

    private static long parseWait(String value) {
        if (value.isEmpty() || value.length() > 7) {
            throw new IllegalArgumentException("wait must be 0.." + MAX_WAIT_MS + " ms: " + value);
        }
        long waitMs = 0;
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException("wait must be a whole number of ms: " + value);
            }
            waitMs = waitMs * 10 + (c - '0');
        }
        if (waitMs > MAX_WAIT_MS) {
            throw new IllegalArgumentException("wait must be 0.." + MAX_WAIT_MS + " ms: " + value);
        }
        return waitMs;
    }

    /** The blocking styles' wait on the thread that runs the handler, then {@code respond}. */
    public static void sleepThen(long waitMs, Runnable respond) {
        sleep(waitMs);
        respond.run();
    }

    /** The blocking wait of the sync and virtual styles; an interrupt (shutdown) ends it early. */
    public static void sleep(long waitMs) {
        if (waitMs <= 0) {
            return;
        }
        try {
            Thread.sleep(waitMs);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
