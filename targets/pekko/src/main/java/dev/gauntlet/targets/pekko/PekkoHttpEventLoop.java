package dev.gauntlet.targets.pekko;

import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.http.javadsl.model.HttpResponse;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * {@code pekko-http-event-loop}: the same server with no actor of ours. The handler returns a
 * {@code CompletableFuture} that a task on Pekko's scheduler completes when the wait is over (on
 * the dispatcher, Pekko's event loop); wait 0 is answered at once. Beside {@code pekko-http-actor},
 * it shows what the actor per request costs.
 */
public final class PekkoHttpEventLoop implements HelloServer {
    private PekkoServer server;

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        server = PekkoServer.start(settings, stats, Behaviors.empty(), system -> waitMs -> respondAfter(system, waitMs, stats));
        return server.port();
    }

    @Override
    public void stop() throws Exception {
        server.stop();
    }

    private static CompletionStage<HttpResponse> respondAfter(ActorSystem<?> system, long waitMs, RequestStats stats) {
        if (waitMs == 0) {
            stats.complete();
            return CompletableFuture.completedFuture(PekkoServer.HELLO);
        }
        CompletableFuture<HttpResponse> response = new CompletableFuture<>();
        system.scheduler().scheduleOnce(Duration.ofMillis(waitMs), () -> {
            stats.complete();
            response.complete(PekkoServer.HELLO);
        }, system.executionContext());
        return response;
    }
}
