package dev.gauntlet.targets.micronaut;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.RequestStats;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.netty.channel.EventLoopGroup;
import io.netty.util.concurrent.EventExecutor;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * {@code micronaut-http-event-loop}: a controller that returns an unfinished
 * {@link CompletableFuture}, completed by a timer on the event loop that runs it; no other threads.
 * Micronaut runs a controller with an asynchronous result on the connection's event loop (its
 * default thread selection), and writes the response when the future completes.
 */
public final class MicronautHttpEventLoop extends MicronautTarget {
    private static final String STYLE = "event-loop";

    public MicronautHttpEventLoop() {
        super(MicronautServer.of(STYLE));
    }

    /** {@code GET /hello}, run on the connection's event loop. */
    @Controller
    @Requires(property = MicronautServer.STYLE_PROPERTY, value = STYLE)
    static final class Hello {
        private final RequestStats stats;
        private final EventLoopGroup eventLoops;

        Hello(RequestStats stats, EventLoopGroup eventLoops) {
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
}
