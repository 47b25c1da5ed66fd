package dev.gauntlet.targets.micronaut;

import dev.gauntlet.targets.HelloServer;

/**
 * The Micronaut targets, one factory per style, as the target catalogue names them ({@code MicronautTargets#httpSync}):
 * the same application with the style's controller of {@link HelloControllers}.
 */
public final class MicronautTargets {
    private MicronautTargets() {
    }

    /**
     * {@code micronaut-http-event-loop}: a controller that returns an unfinished {@code CompletableFuture}, completed
     * by a timer on the event loop that runs it; no other threads.
     */
    public static HelloServer httpEventLoop() {
        return MicronautServer.of(HelloControllers.EVENT_LOOP);
    }

    /**
     * {@code micronaut-http-sync}: a blocking controller that sleeps out the wait on a platform worker, up to
     * {@code workers} of them.
     *
     * <p>The workers are {@code PlatformWorkers} under a name the controller's {@code @ExecuteOn} selects, not one of
     * Micronaut's executors: its {@code io} executor is a cached pool with no maximum, a {@code fixed} one starts a
     * thread per task until it is full and never ends them, and {@code blocking} is virtual threads on this JDK.
     */
    public static HelloServer httpSync() {
        return MicronautServer.withWorkers(HelloControllers.SYNC);
    }

    /**
     * {@code micronaut-http-virtual}: the blocking controller of the sync style on Micronaut's {@code virtual}
     * executor, which starts a virtual thread per request with no bound.
     */
    public static HelloServer httpVirtual() {
        return MicronautServer.of(HelloControllers.VIRTUAL);
    }
}
