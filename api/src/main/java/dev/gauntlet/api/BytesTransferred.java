package dev.gauntlet.api;

import java.util.List;

/**
 * The bytes a run's generator wrote to its sockets and read from them, TLS records and HTTP/2 frames as they are on
 * the wire, from the measured phase's start to the end of its requests (those in flight at its end included, as
 * their times are): what k6 calls {@code data_sent} and {@code data_received}.
 *
 * @param sent           bytes written
 * @param received       bytes read
 * @param sentPerSec     {@code sent} per second of the measured phase
 * @param receivedPerSec {@code received} per second of the measured phase
 */
public record BytesTransferred(long sent, long received, double sentPerSec, double receivedPerSec) {

    /** {@code sent} and {@code received} bytes over a measured phase of {@code measuredSec}. */
    public static BytesTransferred over(long sent, long received, double measuredSec) {
        double sec = Math.max(measuredSec, 1e-9);
        return new BytesTransferred(sent, received, sent / sec, received / sec);
    }

    /** The sum of several generator processes' bytes, over the longest of their measured phases. */
    public static BytesTransferred sum(List<BytesTransferred> parts, double measuredSec) {
        return over(parts.stream().mapToLong(BytesTransferred::sent).sum(),
                parts.stream().mapToLong(BytesTransferred::received).sum(), measuredSec);
    }
}
