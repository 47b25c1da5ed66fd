package dev.gauntlet.targets.jdk;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.PlatformWorkers;
import dev.gauntlet.targets.WithStyleThreads;

import java.util.concurrent.Executors;

/**
 * The {@code com.sun.net.httpserver} targets, one factory per style, as the target catalogue names them
 * ({@code JdkTargets#httpserverSync}): the executor every exchange runs on, reading its request, then the handler and
 * its sleep.
 */
public final class JdkTargets {
    private JdkTargets() {
    }

    /** {@code jdk-httpserver-sync}: the handler sleeps on a pool of up to {@code workers} platform threads. */
    public static HelloServer httpserverSync() {
        return WithStyleThreads.executing(settings -> PlatformWorkers.upTo(settings.workers(), "jdk-worker-"),
                JdkServer::new);
    }

    /** {@code jdk-httpserver-virtual}: every exchange runs on a new virtual thread. */
    public static HelloServer httpserverVirtual() {
        return WithStyleThreads.executing(
                settings -> Executors.newThreadPerTaskExecutor(Thread.ofVirtual().name("jdk-virtual-", 0).factory()),
                JdkServer::new);
    }
}
