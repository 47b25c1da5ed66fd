package dev.gauntlet.loadgen;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.TestServer.Behaviour;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Each way a server can misbehave lands in its own error class; every request is counted once; the run ends on time. */
@Timeout(60)
class MisbehavingServerIT {
    private static final int REQUESTS = 50;

    @ParameterizedTest
    @CsvSource({
            "REFUSE,         REFUSED",
            "NEVER_ACCEPT,   CONNECT_TIMEOUT",
            "RESET,          RESET",
            "CLOSE_MID_BODY, RESET",
            "GARBAGE,        PROTOCOL",
            "WRONG_STATUS,   BAD_STATUS",
            "WRONG_BODY,     BAD_BODY",
            "NEVER_ANSWER,   RESPONSE_TIMEOUT"})
    void eachMisbehaviourLandsInItsClass(Behaviour behaviour, ErrorClass expected) throws Exception {
        try (TestServer server = new TestServer(behaviour)) {
            // Constant 100/s for 500 ms: exactly 50 intended starts, each answered or counted once.
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.OpenLoop(100, LoadModel.InterArrival.CONSTANT))
                    .toBuilder().warmupMs(0).durationMs(500).connectTimeoutMs(300).responseTimeoutMs(300).build();
            long startNs = System.nanoTime();
            RunSummary summary = Generator.run(spec, null, new PrintStream(new ByteArrayOutputStream()));
            long elapsedMs = (System.nanoTime() - startNs) / 1_000_000;

            assertThat(summary.completed()).isZero();
            assertThat(summary.errorCount()).isEqualTo(REQUESTS);
            assertThat(summary.errors().get(expected))
                    .as("%s: %s", behaviour, summary.errors())
                    .isGreaterThanOrEqualTo(racesTheStart(behaviour) ? REQUESTS - 5 : REQUESTS);
            assertThat(summary.hardCapReached()).isFalse();
            assertThat(elapsedMs).isLessThan(500 + 300 + 2_000);
        }
    }

    /**
     * The first connections may get in before the server turns refusing (it closes its listening
     * socket after the reachability check, resetting what is queued) or fill the backlog that a
     * server that never accepts still has.
     */
    private static boolean racesTheStart(Behaviour behaviour) {
        return behaviour == Behaviour.REFUSE || behaviour == Behaviour.NEVER_ACCEPT;
    }
}
