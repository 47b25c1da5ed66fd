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

/**
 * {@code micronaut-http-virtual}: the blocking controller of the sync style on Micronaut's
 * {@code virtual} executor, which starts a virtual thread per request with no bound.
 */
public final class MicronautHttpVirtual extends MicronautTarget {
    private static final String STYLE = "virtual";

    public MicronautHttpVirtual() {
        super(MicronautServer.of(STYLE));
    }

    /** {@code GET /hello}, run on a new virtual thread. */
    @Controller
    @Requires(property = MicronautServer.STYLE_PROPERTY, value = STYLE)
    static final class Hello {
        private final RequestStats stats;

        Hello(RequestStats stats) {
            this.stats = stats;
        }

        @Get(HelloContract.PATH)
        @ExecuteOn(TaskExecutors.VIRTUAL)
        HttpResponse<byte[]> hello(HttpRequest<?> request) {
            return MicronautServer.sleepThenHello(request, stats);
        }
    }
}
