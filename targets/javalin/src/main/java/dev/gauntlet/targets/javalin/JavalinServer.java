package dev.gauntlet.targets.javalin;

import dev.gauntlet.targets.DelayedCompletion;
import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import dev.gauntlet.targets.jetty.JettyConnectionFactories;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import org.eclipse.jetty.server.ConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

import java.security.GeneralSecurityException;
import java.util.concurrent.CompletableFuture;

/**
 * The Javalin set-up every style shares: a {@code GET /hello} route, Javalin's Jetty with one
 * connector carrying the target settings and no {@code Server} or {@code Date} header. The connector
 * speaks what the jetty target's does ({@link JettyConnectionFactories}: HTTP/1.1, TLS by JSSE, h2 by
 * ALPN, h2c by prior knowledge); Javalin's servlet serves HTTP/2 streams unchanged. The style
 * ({@link JavalinTargets}) chooses the thread pool and how the wait passes.
 */
final class JavalinServer implements HelloServer {
    /** How long a stop waits for busy threads before interrupting them (sleeps end early then). */
    private static final long STOP_TIMEOUT_MS = 500;

    /** How a style waits {@code waitMs} and then runs {@code respond}, starting on the request's thread. */
    @FunctionalInterface
    interface Wait {
        void start(Context ctx, long waitMs, Runnable respond);
    }

    /**
     * The thread pools of the styles: a Jetty {@code QueuedThreadPool} of up to {@code workers} (BLOCKING) or
     * {@code asyncThreads} (ASYNC) platform threads; VIRTUAL is Javalin's own option ({@code useVirtualThreads}), which
     * gives Jetty a pool that starts a new virtual thread for every task, selectors included.
     */
    enum Threads { BLOCKING, VIRTUAL, ASYNC }

    private final Threads threads;
    private final Wait wait;
    private Javalin app;

    JavalinServer(Threads threads, Wait wait) {
        this.threads = threads;
        this.wait = wait;
    }

    /** sync and virtual: sleeps on the thread that runs the handler. */
    static final Wait SLEEPING = (ctx, waitMs, respond) -> HelloContract.sleepThen(waitMs, respond);

    /**
     * async-fjp, async-queue: the handler returns with an unfinished {@code ctx.future}, which puts
     * the servlet request in async mode; the completion writes the result and completes the future,
     * and Javalin then finishes the response.
     */
    static Wait delayed(DelayedCompletion completion) {
        return (ctx, waitMs, respond) -> {
            CompletableFuture<Void> done = new CompletableFuture<>();
            ctx.future(() -> done);
            completion.submit(waitMs, () -> {
                respond.run();
                done.complete(null);
            });
        };
    }

    @Override
    public int start(TargetSettings settings, RequestStats stats) {
        app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.startup.showOldJavalinVersionWarning = false;
            config.concurrency.useVirtualThreads = threads == Threads.VIRTUAL;
            if (threads != Threads.VIRTUAL) {
                int maxThreads = threads == Threads.BLOCKING ? settings.workers() : settings.asyncThreads();
                QueuedThreadPool pool = new QueuedThreadPool(maxThreads);
                pool.setName("javalin-worker");
                pool.setStopTimeout(STOP_TIMEOUT_MS);
                config.jetty.threadPool = pool;
            }
            config.jetty.modifyServer(server -> server.setStopTimeout(STOP_TIMEOUT_MS));
            config.jetty.modifyHttpConfiguration(http -> {
                http.setSendServerVersion(false);
                http.setSendDateHeader(false);
            });
            // A connector of our own: Javalin's default one knows only host and port.
            config.jetty.addConnector((server, http) -> {
                ServerConnector connector = new ServerConnector(server, 1, settings.ioThreads(), connectionFactories(settings, http));
                connector.setHost(settings.bind());
                connector.setPort(settings.port());
                connector.setAcceptQueueSize(settings.backlog());
                connector.setReuseAddress(settings.reuseAddress());
                connector.setAcceptedTcpNoDelay(settings.tcpNoDelay());
                return connector;
            });
            config.routes.get(HelloContract.PATH, ctx -> hello(ctx, stats));
        }).start();
        return app.port();
    }

    /** The jetty target's factories; Javalin's connector callback can throw no checked exception. */
    private static ConnectionFactory[] connectionFactories(TargetSettings settings, HttpConfiguration http) {
        try {
            return JettyConnectionFactories.of(settings, http);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("TLS context for " + settings.tls().source(), e);
        }
    }

    @Override
    public void stop() {
        if (app != null) {
            app.stop();
        }
    }

    private void hello(Context ctx, RequestStats stats) {
        long waitMs;
        try {
            waitMs = HelloContract.waitMs(ctx.queryString());
        } catch (IllegalArgumentException e) {
            ctx.status(HttpStatus.BAD_REQUEST).result(e.getMessage());
            return;
        }
        stats.begin();
        wait.start(ctx, waitMs, () -> {
            ctx.contentType(HelloContract.CONTENT_TYPE).result(HelloContract.BODY_BYTES);
            stats.complete();
        });
    }
}
