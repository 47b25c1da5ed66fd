package dev.gauntlet.targets.pekko;

import dev.gauntlet.targets.RequestStats;
import org.apache.pekko.actor.typed.ActorRef;
import org.apache.pekko.actor.typed.Behavior;
import org.apache.pekko.actor.typed.javadsl.Behaviors;
import org.apache.pekko.http.javadsl.model.HttpResponse;

import java.time.Duration;

/**
 * The actors of {@code pekko-http-actor}, Erlang style: one actor per request. The guardian
 * receives each {@link Hello} and spawns a session actor for it; the session starts a timer that
 * sends it {@link WaitOver} when the wait is over, then replies with the response and stops.
 *
 * <pre>{@code
 * ActorSystem<Hello> system = ActorSystem.create(HelloSessions.guardian(stats), "gauntlet", config);
 * CompletionStage<HttpResponse> response = AskPattern.ask(system, replyTo -> new Hello(waitMs, replyTo), timeout, system.scheduler());
 * }</pre>
 */
final class HelloSessions {

    /** A {@code /hello} request to answer after {@code waitMs}. */
    record Hello(long waitMs, ActorRef<HttpResponse> replyTo) {
    }

    /** The session's own timer message. */
    enum WaitOver { INSTANCE }

    private HelloSessions() {
    }

    /** The root actor: spawns one session per request and keeps no state of its own. */
    static Behavior<Hello> guardian(RequestStats stats) {
        return Behaviors.receive((context, hello) -> {
            context.spawnAnonymous(session(hello, stats));
            return Behaviors.same();
        });
    }

    /** One request's actor. It holds no thread while the timer runs; wait 0 answers at once. */
    private static Behavior<WaitOver> session(Hello hello, RequestStats stats) {
        if (hello.waitMs() == 0) {
            return Behaviors.setup(context -> reply(hello, stats));
        }
        return Behaviors.withTimers(timers -> {
            timers.startSingleTimer(WaitOver.INSTANCE, Duration.ofMillis(hello.waitMs()));
            return Behaviors.receiveMessage(over -> reply(hello, stats));
        });
    }

    private static Behavior<WaitOver> reply(Hello hello, RequestStats stats) {
        stats.complete();
        hello.replyTo().tell(PekkoServer.HELLO);
        return Behaviors.stopped();
    }
}
