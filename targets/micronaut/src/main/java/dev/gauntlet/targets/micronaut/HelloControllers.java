package dev.gauntlet.targets.micronaut;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.RequestStats;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The {@code GET /hello} controllers, one per style. Each {@code @Requires} its style as the value of
 * {@link MicronautServer#STYLE_PROPERTY}, so Micronaut creates only the started style's. Where a request runs is an
 * annotation of the controller method ({@code @ExecuteOn}), fixed when Micronaut processes it at build time, so the
 * two blocking styles are two controllers that differ in it alone.
 */
final class HelloControllers {
    static final String EVENT_LOOP = "event-loop";
    static final String SYNC = "sync";
    static final String VIRTUAL = "virtual";

    private HelloControllers() {
    }

    /**
     * Returns an unfinished {@link CompletableFuture}, completed by a timer on the event loop that runs it. Micronaut
     * runs a controller with an asynchronous result on the connection's event loop (its default thread selection), and
     * writes the response when the future completes.
     */
    @Controller
    @Requires(property = MicronautServer.STYLE_PROPERTY, value = EVENT_LOOP)
    static final class OnEventLoop {
        private final RequestStats stats;
        private final EventLoopGroup eventLoops;

        OnEventLoop(RequestStats stats, EventLoopGroup eventLoops) {
            this.stats = stats;
            this.eventLoops = eventLoops;
        }

        @Get(HelloContract.PATH)
        CompletableFuture<HttpResponse<byte[]>> hello(HttpRequest<?> request) {
            long waitMs;
            try {
                waitMs = HelloContract.waitMs(request.getUri().getRawQuery());
            } catch (IllegalArgumentException e) {
                return CompletableFuture.completedFuture(HttpResponse.badRequest());
            }
            stats.begin();
            CompletableFuture<HttpResponse<byte[]>> response = new CompletableFuture<>();
            Runnable respond = () -> {
                response.complete(MicronautServer.hello());
                stats.complete();
            };
            if (waitMs == 0) {
                respond.run();
            } else {
                currentEventLoop().schedule(respond, waitMs, TimeUnit.MILLISECONDS);
            }
            return response;
        }

        /**
         * The event loop running this controller, the connection's. Found among the server's loops
         * ({@code ioThreads} of them) because Micronaut offers a controller no public handle on its
         * channel: its request class is internal.
         */
        private EventExecutor currentEventLoop() {
            for (EventExecutor eventLoop : eventLoops) {
                if (eventLoop.inEventLoop()) {
                    return eventLoop;
                }
            }
            throw new IllegalStateException("not on an event loop: " + Thread.currentThread());
        }
    }

    /** Sleeps out the wait on the sync style's platform workers ({@link MicronautServer#WORKERS}). */
    @Controller
    @Requires(property = MicronautServer.STYLE_PROPERTY, value = SYNC)
    static final class OnWorkers {
        private final RequestStats stats;

        OnWorkers(RequestStats stats) {
            this.stats = stats;
        }

        @Get(HelloContract.PATH)
        @ExecuteOn(MicronautServer.WORKERS)
        HttpResponse<byte[]> hello(HttpRequest<?> request) {
            return MicronautServer.sleepThenHello(request, stats);
        }
    }

    /** Sleeps out the wait on Micronaut's {@code virtual} executor, which starts a virtual thread per request with no bound. */
    @Controller
    @Requires(property = MicronautServer.STYLE_PROPERTY, value = VIRTUAL)
    static final class OnVirtualThreads {
        private final RequestStats stats;

        OnVirtualThreads(RequestStats stats) {
            this.stats = stats;
        }

        @Get(HelloContract.PATH)
        @ExecuteOn(TaskExecutors.VIRTUAL)
        HttpResponse<byte[]> hello(HttpRequest<?> request) {
            return MicronautServer.sleepThenHello(request, stats);
        }
    }
}
