package dev.gauntlet.targets;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.FlightRecorder;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.Period;
import jdk.jfr.StackTrace;
import jdk.management.VirtualThreadSchedulerMXBean;

import java.lang.management.ManagementFactory;

/**
 * The virtual-thread scheduler's figures, once a second, into any JFR recording of the target
 * (the runner keeps one): JFR has no event of its own for them, and a virtual-thread style's cost
 * shows here rather than in its platform threads. Costs nothing while no recording runs.
 *
 * <pre>{@code
 * VirtualThreadSchedulerEvent.register();   // at start-up
 * }</pre>
 */
@Name("dev.gauntlet.VirtualThreadScheduler")
@Label("Virtual Thread Scheduler")
@Category("Gauntlet")
@Period("1 s")
@StackTrace(false)
final class VirtualThreadSchedulerEvent extends Event {
    @Label("Parallelism")
    int parallelism;

    @Label("Pool Size")
    @Description("Carrier threads the scheduler has, idle ones included")
    int poolSize;

    @Label("Mounted")
    @Description("Virtual threads mounted on a carrier")
    int mounted;

    @Label("Queued")
    @Description("Virtual threads ready to run and waiting for a carrier")
    long queued;

    private VirtualThreadSchedulerEvent() {
    }

    static void register() {
        VirtualThreadSchedulerMXBean scheduler = ManagementFactory.getPlatformMXBean(VirtualThreadSchedulerMXBean.class);
        FlightRecorder.addPeriodicEvent(VirtualThreadSchedulerEvent.class, () -> {
            VirtualThreadSchedulerEvent event = new VirtualThreadSchedulerEvent();
            event.parallelism = scheduler.getParallelism();
            event.poolSize = scheduler.getPoolSize();
            event.mounted = scheduler.getMountedVirtualThreadCount();
            event.queued = scheduler.getQueuedVirtualThreadCount();
            event.commit();
        });
    }
}
