package dev.gauntlet.api;

import com.fasterxml.jackson.annotation.JsonIgnore;

import java.util.List;

/**
 * The machine's capacity on each role's CPUs over a run's measured phase, window by window: the
 * index of hiccup's {@code CapacityLog} (the units a second of a fixed piece of work the CPUs left to
 * the role would run), so a drift of the target's figures can be set beside the machine's.
 *
 * <pre>{@code
 * Capacity.Course target = summary.capacity().target();
 * double secondWindow = target.perWindow().get(1);    // 0: no second of the log fell in it
 * }</pre>
 *
 * @param target    the target's CPUs, from its admin {@code /capacity}; unknown when it does not say
 * @param generator the generator's CPUs, from its own log
 */
public record Capacity(Course target, Course generator) {
    public static final Capacity UNKNOWN = new Capacity(Course.UNKNOWN, Course.UNKNOWN);

    /**
     * Leaves an unknown capacity out of a summary's JSON ({@code @JsonInclude(valueFilter = ...)}): a summary written
     * before capacity was measured writes back as it was.
     */
    public static final class UnknownFilter {
        @Override
        public boolean equals(Object value) {
            return value instanceof Capacity capacity && !capacity.target().known() && !capacity.generator().known();
        }

        @Override
        public int hashCode() {
            return 0;
        }
    }

    public Capacity {
        target = target == null ? Course.UNKNOWN : target;
        generator = generator == null ? Course.UNKNOWN : generator;
    }

    /**
     * One role's course.
     *
     * @param perWindow    the index in each of the measured phase's windows, in order; 0 where no second of the log
     *                     fell in the window
     * @param stolenShare  over the measured phase, the share of the CPUs' time the hypervisor took (0 to 1)
     * @param foreignShare over the measured phase, the share other processes of the machine used (0 to 1)
     */
    public record Course(List<Double> perWindow, double stolenShare, double foreignShare) {
        public static final Course UNKNOWN = new Course(List.of(), 0, 0);

        public Course {
            perWindow = perWindow == null ? List.of() : List.copyOf(perWindow);
        }

        /** Whether any window has an index. */
        @JsonIgnore
        public boolean known() {
            return perWindow.stream().anyMatch(index -> index > 0);
        }
    }
}
