package dev.gauntlet.targets.micronaut;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.RequestStats;
import io.micronaut.context.annotation.Requires;
import io.micronaut.http.HttpRequest;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.scheduling.annotation.ExecuteOn;

/**
 * {@code micronaut-http-sync}: a blocking controller that sleeps out the wait on a platform worker,
 * up to {@code workers} of them.
 *
 * <p>The workers are {@code PlatformWorkers} under a name the controller's {@code @ExecuteOn}
 * selects, not one of Micronaut's executors: its {@code io} executor is a cached pool with no
 * maximum, a {@code fixed} one starts a thread per task until it is full and never ends them,
 * and {@code blocking} is virtual threads on this JDK.
 */
public final class MicronautHttpSync extends MicronautTarget {
    private static final String STYLE = "sync";

    public MicronautHttpSync() {
        super(MicronautServer.withWorkers(STYLE));
    }

    /** {@code GET /hello}, run on the workers. */
    @Controller
    @Requires(property = MicronautServer.STYLE_PROPERTY, value = STYLE)
    static final class Hello {
        private final RequestStats stats;

        Hello(RequestStats stats) {
            this.stats = stats;
        }

        @Get(HelloContract.PATH)
        @ExecuteOn(MicronautServer.WORKERS)
        HttpResponse<byte[]> hello(HttpRequest<?> request) {
            return MicronautServer.sleepThenHello(request, stats);
        }
    }
}
