package dev.gauntlet.targets.quarkus;

import dev.gauntlet.targets.HelloServer;

/**
 * The Quarkus REST targets, one factory per style, as the target catalogue names them ({@code QuarkusTargets#restSync}):
 * which endpoint of {@link HelloResource} serves {@code /hello}.
 */
public final class QuarkusTargets {
    private QuarkusTargets() {
    }

    /** {@code quarkus-rest-sync}: a {@code @Blocking} endpoint sleeps on a thread of Quarkus' worker pool, at most {@code workers}. */
    public static HelloServer restSync() {
        return new QuarkusServer(QuarkusServer.Style.SYNC);
    }

    /** {@code quarkus-rest-virtual}: a {@code @RunOnVirtualThread} endpoint sleeps on a virtual thread. */
    public static HelloServer restVirtual() {
        return new QuarkusServer(QuarkusServer.Style.VIRTUAL);
    }

    /**
     * {@code quarkus-rest-event-loop}: a non-blocking endpoint on the connection's event loop returns a {@code Uni}
     * that a Vert.x timer on that loop completes; no thread is held while a request waits.
     */
    public static HelloServer restEventLoop() {
        return new QuarkusServer(QuarkusServer.Style.EVENT_LOOP);
    }
}
