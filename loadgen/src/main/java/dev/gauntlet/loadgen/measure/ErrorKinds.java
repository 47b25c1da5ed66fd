package dev.gauntlet.loadgen.measure;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.ErrorKind;
import dev.gauntlet.api.LoadSpec;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The measured failures of one engine by kind — a class, and a bad status by its status — each with its count, its
 * first and last time, and its first failure for the message: the report's error table. Arrays indexed by class and
 * status, so a failure costs a few stores and no allocation. Single writer (the engine's loop); read once its thread
 * has ended.
 *
 * <pre>{@code
 * kinds.failed(ErrorClass.RESET, endNs, exception);       // exception null: the built-in engine keeps none
 * kinds.badStatus(503, endNs);
 * List<ErrorKind> table = ErrorKinds.summary(all, measureStartNs, spec);
 * }</pre>
 */
public final class ErrorKinds {
    /** Statuses are three digits; anything else a parser let through is counted as 0. */
    private static final int STATUSES = 1000;
    private static final ErrorClass[] CLASSES = ErrorClass.values();

    private final long[] classCount = new long[CLASSES.length];
    private final long[] classFirstNs = new long[CLASSES.length];
    private final long[] classLastNs = new long[CLASSES.length];
    private final Throwable[] classFirstFailure = new Throwable[CLASSES.length];
    private final long[] statusCount = new long[STATUSES];
    private final long[] statusFirstNs = new long[STATUSES];
    private final long[] statusLastNs = new long[STATUSES];

    /** A measured request failed as {@code errorClass} at {@code endNs}; {@code failure}: its exception, if it had one. */
    void failed(ErrorClass errorClass, long endNs, Throwable failure) {
        int i = errorClass.ordinal();
        if (classCount[i]++ == 0) {
            classFirstNs[i] = endNs;
            classFirstFailure[i] = failure;
        }
        classLastNs[i] = endNs;
    }

    /** A measured request answered with {@code status}, not the expected one, at {@code endNs}. */
    void badStatus(int status, long endNs) {
        int i = status >= 0 && status < STATUSES ? status : 0;
        if (statusCount[i]++ == 0) {
            statusFirstNs[i] = endNs;
        }
        statusLastNs[i] = endNs;
    }

    /**
     * Every engine's kinds as one table, by class in declaration order (bad statuses by status), times in seconds from
     * {@code measureStartNs}; a kind several engines saw takes the message of the one that saw it first.
     */
    public static List<ErrorKind> summary(List<ErrorKinds> all, long measureStartNs, LoadSpec spec) {
        List<ErrorKind> kinds = new ArrayList<>();
        for (ErrorClass errorClass : CLASSES) {
            int i = errorClass.ordinal();
            List<ErrorKinds> saw = all.stream().filter(k -> k.classCount[i] > 0).toList();
            if (errorClass == ErrorClass.BAD_STATUS) {
                for (int status = 0; status < STATUSES; status++) {
                    int s = status;
                    List<ErrorKinds> sawStatus = all.stream().filter(k -> k.statusCount[s] > 0).toList();
                    if (!sawStatus.isEmpty()) {
                        kinds.add(new ErrorKind(errorClass, status, "status " + status,
                                sawStatus.stream().mapToLong(k -> k.statusCount[s]).sum(),
                                sec(sawStatus.stream().mapToLong(k -> k.statusFirstNs[s]).min().orElseThrow(), measureStartNs),
                                sec(sawStatus.stream().mapToLong(k -> k.statusLastNs[s]).max().orElseThrow(), measureStartNs)));
                    }
                }
            } else if (!saw.isEmpty()) {
                ErrorKinds first = saw.stream().min(Comparator.comparingLong(k -> k.classFirstNs[i])).orElseThrow();
                kinds.add(new ErrorKind(errorClass, null, message(first.classFirstFailure[i], errorClass, spec),
                        saw.stream().mapToLong(k -> k.classCount[i]).sum(), sec(first.classFirstNs[i], measureStartNs),
                        sec(saw.stream().mapToLong(k -> k.classLastNs[i]).max().orElseThrow(), measureStartNs)));
            }
        }
        return List.copyOf(kinds);
    }

    /**
     * Several generator processes' tables as one: a kind's counts added, its first time the earliest (with that
     * process's message), its last the latest. Null when no process recorded its kinds (written before they were).
     */
    public static List<ErrorKind> merge(List<List<ErrorKind>> perProcess) {
        if (perProcess.stream().allMatch(Objects::isNull)) {
            return null;
        }
        Map<String, ErrorKind> merged = new TreeMap<>();
        perProcess.stream().filter(Objects::nonNull).flatMap(List::stream).forEach(kind -> merged.merge(
                String.format(Locale.ROOT, "%03d %03d", kind.errorClass().ordinal(), kind.status() == null ? 0 : kind.status()),
                kind, (a, b) -> {
                    ErrorKind first = a.firstSec() <= b.firstSec() ? a : b;
                    return new ErrorKind(a.errorClass(), a.status(), first.message(), a.count() + b.count(), first.firstSec(),
                            Math.max(a.lastSec(), b.lastSec()));
                }));
        return List.copyOf(merged.values());
    }

    private static double sec(long ns, long measureStartNs) {
        return Math.round((ns - measureStartNs) / 1e6) / 1e3;
    }

    /** The exception's own words, its type first; without one, what the built-in engine saw as this class. */
    private static String message(Throwable failure, ErrorClass errorClass, LoadSpec spec) {
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t.getMessage() != null && !t.getMessage().isBlank()) {
                return t.getClass().getSimpleName() + ": " + t.getMessage().lines().findFirst().orElse("");
            }
        }
        if (failure != null) {
            return failure.getClass().getSimpleName();
        }
        return switch (errorClass) {
            case REFUSED -> "connection refused";
            case CONNECT_TIMEOUT -> "not connected within " + spec.connectTimeoutMs() + " ms (the connect timeout)";
            case RESET -> "the connection was reset or closed before a whole response arrived";
            case RESPONSE_TIMEOUT -> "no whole response within " + spec.responseTimeoutMs() + " ms (the response timeout)";
            case BAD_STATUS -> "a status other than " + spec.expectedStatus();
            case BAD_BODY -> "a body other than the expected one";
            case PROTOCOL -> "a response that breaks HTTP's framing, or on another HTTP version than asked";
            case NO_THREAD -> "no thread could be started for the request";
            case CLIENT -> "the client library failed the request on its own side";
            case TLS -> "the TLS handshake failed";
            case STREAM_RESET -> "the server reset the request's stream (RST_STREAM)";
            case GOAWAY -> "the server's GOAWAY left the request's stream unprocessed";
        };
    }
}
