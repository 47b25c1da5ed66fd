package dev.gauntlet.loadgen;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import picocli.CommandLine;

import java.math.BigDecimal;
import java.net.URI;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How {@code gauntlet load}'s option values are read (durations, connection policies, inter-arrivals, granularities),
 * and a granularity written back as the flag takes it.
 */
final class LoadOptions {
    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m)");
    private static final Pattern GRANULARITY = Pattern.compile("(\\d{1,9})(us|µs)|(\\d{1,9}(?:\\.\\d{1,3})?)ms");

    private LoadOptions() {
    }

    /** {@code 500ms}, {@code 10s} or {@code 2m} in ms, up to {@link LoadSpec#MAX_DURATION_MS}. */
    static long parseDurationMs(String text) {
        Matcher matcher = DURATION.matcher(text.trim());
        if (!matcher.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a duration; use e.g. 500ms, 10s or 2m");
        }
        long unitMs = switch (matcher.group(2)) {
            case "ms" -> 1;
            case "s" -> 1_000;
            default -> 60_000;
        };
        // Digits only, so a number too long for a long is past the limit too.
        String digits = matcher.group(1);
        long valueMs = digits.length() > 18 ? Long.MAX_VALUE : Long.parseLong(digits);
        if (valueMs > LoadSpec.MAX_DURATION_MS / unitMs) {
            throw new IllegalArgumentException("'" + text + "' is longer than 7 days, the longest a duration may be: give "
                    + "0ms to " + LoadSpec.MAX_DURATION_MS / 60_000 + "m");
        }
        return valueMs * unitMs;
    }

    static final class DurationConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return parseDurationMs(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    static final class PolicyChoice extends EnumChoice<LoadModel.ConnectionPolicy> {
        PolicyChoice() {
            super(LoadModel.ConnectionPolicy.class);
        }
    }

    static final class InterArrivalConverter implements CommandLine.ITypeConverter<LoadModel.InterArrival> {
        @Override
        public LoadModel.InterArrival convert(String value) {
            return switch (value.toLowerCase(Locale.ROOT)) {
                case "exponential", "exp", "poisson" -> LoadModel.InterArrival.EXPONENTIAL;
                case "constant", "const" -> LoadModel.InterArrival.CONSTANT;
                default -> throw new CommandLine.TypeConversionException("'" + value + "' is not exponential or constant");
            };
        }
    }

    /**
     * {@code auto}: null, chosen as the run goes; {@code 0}, {@code 250us}, {@code 1ms} or {@code 1.5ms} in µs, up to
     * {@link LoadSpec#MAX_WAKE_GRANULARITY_US}.
     */
    static Long parseWakeGranularityUs(String text) {
        String trimmed = text.trim();
        if (trimmed.equals("auto")) {
            return null;
        }
        if (trimmed.equals("0")) {
            return 0L;
        }
        Matcher matcher = GRANULARITY.matcher(trimmed);
        if (!matcher.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a wake granularity; use auto, 0, e.g. 250us or 1ms");
        }
        long us = matcher.group(1) != null ? Long.parseLong(matcher.group(1))
                : new BigDecimal(matcher.group(3)).movePointRight(3).longValueExact();
        if (us > LoadSpec.MAX_WAKE_GRANULARITY_US) {
            throw new IllegalArgumentException("--wake-granularity " + text + " is coarser than "
                    + LoadSpec.MAX_WAKE_GRANULARITY_US / 1_000 + "ms, the most it may be");
        }
        return us;
    }

    /**
     * A granularity of {@code us} as {@code --wake-granularity} takes it: below a millisecond in µs ({@code 250us}),
     * from one on in ms, up to three decimals ({@code 1ms}, {@code 1.5ms}), as the table's other times are.
     */
    static String wakeGranularityText(long us) {
        if (us == 0) {
            return "0";
        }
        return us < 1_000 ? us + "us" : BigDecimal.valueOf(us).movePointLeft(3).stripTrailingZeros().toPlainString() + "ms";
    }

    /** What is wrong with asking for {@code --http2}, {@code --http3} and {@code --streams} of {@code url}; null: nothing. */
    static String protocolProblem(URI url, boolean http2, boolean http3, long streams) {
        if (streams != 1 && !http2 && !http3) {
            return "--streams puts several requests on one connection, which is HTTP/2's and HTTP/3's: add --http2 or --http3";
        }
        if (http3 && http2) {
            return "--http2 or --http3, not both";
        }
        if (http3 && !"https".equals(url.getScheme())) {
            return "--http3 needs an https:// URL: QUIC is always encrypted (a target started with --tls --http3 serves h3 "
                    + "on its TLS port's number)";
        }
        return null;
    }
}
