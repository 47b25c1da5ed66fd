package dev.gauntlet.hiccup;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * A {@link CapacityLog}'s seconds as the calibration's {@code RESULT} line carries them: every second's index, for the
 * runner to test one host's seconds against another's, and what the index is made of over all of them.
 *
 * <pre>{@code
 * CapacityJson.of(log.seconds());
 * // {"indexes":[1893.2,1901.7],"probeUs":526.1,"stolenShare":0.0000,"foreignShare":0.0120}
 * }</pre>
 *
 * <p>{@code probeUs} is the seconds' median, as each second's is the median of its units: a second that a
 * preemption lengthened does not move it. The shares are the means, since each second's share is of its own
 * ticks and the seconds are about as long. No seconds: an empty list and zeros.
 */
final class CapacityJson {
    private CapacityJson() {
    }

    static String of(List<CapacityLog.Second> seconds) {
        String indexes = seconds.stream().map(s -> String.format(Locale.ROOT, "%.1f", s.index()))
                .collect(Collectors.joining(",", "[", "]"));
        double[] probeUs = seconds.stream().mapToDouble(CapacityLog.Second::probeUs).sorted().toArray();
        return String.format(Locale.ROOT, "{\"indexes\":%s,\"probeUs\":%.1f,\"stolenShare\":%.4f,\"foreignShare\":%.4f}",
                indexes, probeUs.length == 0 ? 0 : probeUs[probeUs.length / 2],
                seconds.stream().mapToDouble(CapacityLog.Second::stolenShare).average().orElse(0),
                seconds.stream().mapToDouble(CapacityLog.Second::foreignShare).average().orElse(0));
    }
}
