package dev.gauntlet.targets.pekko;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.HelloServer;
import dev.gauntlet.targets.RequestStats;
import dev.gauntlet.targets.TargetSettings;
import org.apache.pekko.actor.typed.javadsl.AskPattern;
import org.apache.pekko.http.javadsl.model.HttpResponse;

import java.time.Duration;

/**
 * {@code pekko-http-actor}: Pekko HTTP hands each {@code /hello} request to an actor of its own
 * ({@link HelloSessions}) by {@code ask}ing the guardian actor; the wait is a timer message to that
 * actor, which then replies with the response. No thread is held while a request waits.
 */
public final class PekkoHttpActor implements HelloServer {
    /**
     * Longer than the longest wait, so an ask never times out before its session replies. Each ask
     * schedules this timeout on Pekko's scheduler and cancels it when the reply comes.
     */
    private static final Duration ASK_TIMEOUT = Duration.ofMillis(HelloContract.MAX_WAIT_MS).plusMinutes(1);

    private PekkoServer server;

    @Override
    public int start(TargetSettings settings, RequestStats stats) throws Exception {
        server = PekkoServer.start(settings, stats, HelloSessions.guardian(stats),
                system -> waitMs -> AskPattern.<HelloSessions.Hello, HttpResponse>ask(system,
                        replyTo -> new HelloSessions.Hello(waitMs, replyTo), ASK_TIMEOUT, system.scheduler()));
        return server.port();
    }

    @Override
    public void stop() throws Exception {
        server.stop();
    }
}
