package dev.gauntlet.targets.quarkus;

import dev.gauntlet.targets.HelloContract;
import io.vertx.ext.web.Router;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Singleton;

/**
 * Sends {@code GET /hello} to the selected style's endpoint: a Vert.x route, ordered before Quarkus
 * REST's, reroutes the request to {@link QuarkusServer.Style#path} with its query. The style is
 * chosen at run time because the three targets share one augmented application; the cost is one
 * more pass through the router per request.
 */
@Singleton
final class StyleRoute {

    void register(@Observes Router router) {
        String target = QuarkusServer.style().path;
        router.get(HelloContract.PATH).order(Integer.MIN_VALUE).handler(context -> {
            String query = context.request().query();
            context.reroute(query == null ? target : target + '?' + query);
        });
    }
}
