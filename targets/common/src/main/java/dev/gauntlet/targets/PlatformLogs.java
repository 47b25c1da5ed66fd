package dev.gauntlet.targets;

import dev.gauntlet.hiccup.CapacityLog;
import dev.gauntlet.hiccup.HiccupLog;

/**
 * What the platform does to this target, measured from its start and served on the admin port:
 * its hiccups (oversleeps of a 1 ms sleep) and its CPUs' capacity, each second. A reset starts both
 * again with the run's counts.
 *
 * <pre>{@code
 * PlatformLogs platform = PlatformLogs.start();
 * platform.reset();                    // POST /stats/reset
 * platform.hiccups().text(name);       // GET /hiccup
 * platform.capacity().text();          // GET /capacity
 * }</pre>
 */
record PlatformLogs(HiccupLog hiccups, CapacityLog capacity) implements AutoCloseable {
    static PlatformLogs start() {
        return new PlatformLogs(HiccupLog.start(), CapacityLog.start());
    }

    void reset() {
        hiccups.reset();
        capacity.reset();
    }

    @Override
    public void close() {
        hiccups.close();
        capacity.close();
    }
}
