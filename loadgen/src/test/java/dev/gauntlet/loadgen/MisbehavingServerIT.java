package dev.gauntlet.loadgen;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.TestServer.Behaviour;
import dev.gauntlet.loadgen.run.Generator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Each way a server can misbehave lands in its own error class; every request is counted once; the run ends on time. */
@Tag("alone") // asserts how long a run took
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
            "CONFLICTING_LENGTHS, PROTOCOL",
            "SWITCHING_PROTOCOLS, PROTOCOL",
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

    @Test
    void interimResponsesBeforeEachAnswerAreSkipped() throws Exception {
        try (TestServer server = new TestServer(Behaviour.INTERIM_THEN_HELLO)) {
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.OpenLoop(100, LoadModel.InterArrival.CONSTANT))
                    .toBuilder().warmupMs(0).durationMs(500).responseTimeoutMs(2_000).build();
            RunSummary summary = Generator.run(spec, null, new PrintStream(new ByteArrayOutputStream()));

            assertThat(summary.completed()).as("%s", summary.errors()).isEqualTo(REQUESTS);
            assertThat(summary.errorCount()).isZero();
            // Kept alive: the interim responses did not unsettle the framing of the next answer.
            assertThat(summary.connectionsOpened()).isLessThan(REQUESTS);
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
