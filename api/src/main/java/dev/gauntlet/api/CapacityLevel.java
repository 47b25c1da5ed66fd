package dev.gauntlet.api;

import java.util.List;
import java.util.Locale;

/**
 * How much one role's CPUs could run over some seconds, as the hiccup module's {@code CapacityLog} measures it in the
 * role's own JVM: each second's index (a fixed probe's units a second at the CPUs' speed then, times the share of their
 * time no other process and no hypervisor took), and what the indexes are made of. Two hosts' levels compare only as
 * measured by the same probe, which the index's unit is.
 *
 * <pre>{@code
 * CapacityLevel target = floor.targetCapacity();   // a calibration's, in suite.json's platform
 * target.mean();                                   // 1890.4: units a second
 * target.describe();                               // 1,890 (±2 %)
 * }</pre>
 *
 * @param indexes           each whole second's index, in order
 * @param mean              their mean
 * @param standardDeviation their standard deviation (of a sample: n − 1); 0 with one second
 * @param seconds           how many seconds: the indexes' count
 * @param probeUs           the probe's median time over the seconds, µs (more: a slower CPU)
 * @param stolenShare       the mean share of the CPUs' time the hypervisor took, 0 to 1
 * @param foreignShare      the mean share other processes of the machine used, 0 to 1
 */
public record CapacityLevel(List<Double> indexes, double mean, double standardDeviation, int seconds, double probeUs,
                            double stolenShare, double foreignShare) {
    public CapacityLevel {
        indexes = List.copyOf(indexes);
    }

    /** The mean with the seconds' spread in percent of it: {@code 1,890 (±2 %)}. */
    public String describe() {
        return String.format(Locale.ROOT, "%,.0f (±%.0f %%)", mean, mean > 0 ? 100 * standardDeviation / mean : 0);
    }
}
