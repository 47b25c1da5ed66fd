package dev.gauntlet.targets.quarkus;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.RequestStats;
import io.smallrye.common.annotation.Blocking;
import io.smallrye.common.annotation.NonBlocking;
import io.smallrye.common.annotation.RunOnVirtualThread;
import io.smallrye.mutiny.Uni;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServerRequest;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.core.HttpHeaders;
import org.jboss.resteasy.reactive.RestResponse;

/**
 * The target contract as Quarkus REST endpoints, one per style, each on its own path because the
 * execution model of an endpoint is fixed at build time; {@link StyleRoute} sends {@code /hello}
 * to the selected one. The wait parameter is read from the raw query, as every target does.
 */
@Path(HelloContract.PATH)
final class HelloResource {
    static final String SYNC = "sync";
    static final String VIRTUAL = "virtual";
    static final String EVENT_LOOP = "event-loop";

    private final Vertx vertx;

    HelloResource(Vertx vertx) {
        this.vertx = vertx;
    }

    /** Sleeps on a thread of Quarkus' worker pool ({@code quarkus.thread-pool.max-threads} = workers). */
    @GET
    @Path(SYNC)
    @Blocking
    public RestResponse<byte[]> sync(HttpServerRequest request) {
        return sleepAndAnswer(request);
    }

    /** Sleeps on a virtual thread of Quarkus' virtual-thread executor, one per request. */
    @GET
    @Path(VIRTUAL)
    @RunOnVirtualThread
    public RestResponse<byte[]> virtual(HttpServerRequest request) {
        return sleepAndAnswer(request);
    }

    /** Runs on the connection's event loop; the wait is a Vert.x timer on that loop. */
    @GET
    @Path(EVENT_LOOP)
    @NonBlocking
    public Uni<RestResponse<byte[]>> eventLoop(HttpServerRequest request) {
        long waitMs = waitMs(request);
        RequestStats stats = QuarkusServer.stats();
        stats.begin();
        if (waitMs == 0) {
            stats.complete();
            return Uni.createFrom().item(hello());
        }
        return Uni.createFrom().emitter(answer -> vertx.setTimer(waitMs, timerId -> {
            stats.complete();
            answer.complete(hello());
        }));
    }

    private static RestResponse<byte[]> sleepAndAnswer(HttpServerRequest request) {
        long waitMs = waitMs(request);
        RequestStats stats = QuarkusServer.stats();
        stats.begin();
        HelloContract.sleep(waitMs);
        stats.complete();
        return hello();
    }

    /**
     * The contract's answer. The content type is set as a plain header: as a produced media type
     * Quarkus REST would add {@code ;charset=UTF-8} to it, as to every textual type.
     */
    private static RestResponse<byte[]> hello() {
        return RestResponse.ResponseBuilder.ok(HelloContract.BODY_BYTES)
                .header(HttpHeaders.CONTENT_TYPE, HelloContract.CONTENT_TYPE)
                .build();
    }

    private static long waitMs(HttpServerRequest request) {
        try {
            return HelloContract.waitMs(request.query());
        } catch (IllegalArgumentException e) {
            throw new BadRequestException(e.getMessage());
        }
    }
}
