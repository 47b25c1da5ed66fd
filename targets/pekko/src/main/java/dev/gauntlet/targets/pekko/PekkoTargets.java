package dev.gauntlet.targets.pekko;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import org.apache.pekko.actor.typed.ActorSystem;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.http.javadsl.model.HttpResponse;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The Pekko HTTP targets, one factory per style, as the target catalogue names them ({@code PekkoTargets#httpActor}):
 * the same server with an actor per request or none. No thread is held while a request waits in either.
 */
public final class PekkoTargets {
    /**
     * Longer than the longest wait, so an ask never times out before its session replies. Each ask
     * schedules this timeout on Pekko's scheduler and cancels it when the reply comes.
     */
    private static final Duration ASK_TIMEOUT = Duration.ofMillis(HelloContract.MAX_WAIT_MS).plusMinutes(1);

    private PekkoTargets() {
    }

    /**
     * {@code pekko-http-actor}: Pekko HTTP hands each {@code /hello} request to an actor of its own
     * ({@link HelloSessions}) by {@code ask}ing the guardian actor; the wait is a timer message to that
     * actor, which then replies with the response.
     */
    public static HelloServer httpActor() {
        return new PekkoServer<>(HelloSessions::guardian, (system, stats) -> waitMs -> AskPattern.<HelloSessions.Hello, HttpResponse>ask(
                system, replyTo -> new HelloSessions.Hello(waitMs, replyTo), ASK_TIMEOUT, system.scheduler()));
    }

    /**
     * {@code pekko-http-event-loop}: the same server with no actor of ours. The handler returns a
     * {@code CompletableFuture} that a task on Pekko's scheduler completes when the wait is over (on
     * the dispatcher, Pekko's event loop); wait 0 is answered at once. Beside {@code pekko-http-actor},
     * it shows what the actor per request costs.
     */
    public static HelloServer httpEventLoop() {
        return new PekkoServer<>(stats -> Behaviors.empty(), (system, stats) -> waitMs -> respondAfter(system, waitMs, stats));
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
