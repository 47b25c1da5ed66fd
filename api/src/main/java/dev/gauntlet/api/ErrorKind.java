package dev.gauntlet.api;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * One kind of failure of a run's measured requests, for the report's error table: a class, and for
 * {@link ErrorClass#BAD_STATUS} each status apart, with the first message seen and when it came.
 *
 * <pre>{@code
 * for (ErrorKind kind : summary.errorKinds()) {
 *     System.out.printf("%s %s: %d, seconds %.0f-%.0f%n", kind.errorClass(), kind.message(), kind.count(),
 *             kind.firstSec(), kind.lastSec());
 * }
 * }</pre>
 *
 * @param errorClass the class, as counted in the summary's {@code errors}
 * @param status     the HTTP status of a {@code BAD_STATUS}; null for the other classes
 * @param message    the first failure's message: the exception's, {@code status 503}, or what the built-in engine saw
 *                   (it keeps no exceptions: "no whole response within 2000 ms")
 * @param count      failures of this kind
 * @param firstSec   when the first of them failed, seconds from the measured phase's start
 * @param lastSec    when the last of them failed, likewise
 */
public record ErrorKind(ErrorClass errorClass, @JsonInclude(JsonInclude.Include.NON_NULL) Integer status, String message,
                        long count, double firstSec, double lastSec) {
}
