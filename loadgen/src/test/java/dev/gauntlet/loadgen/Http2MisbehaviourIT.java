package dev.gauntlet.loadgen;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.loadgen.run.Generator;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an HTTP/2 server does to streams lands in its own error class, each request counted once, the run on time:
 * against {@link ScriptedHttp2Server}, in clear with prior knowledge.
 */
@Tag("alone") // asserts how long a run took
@Timeout(60)
class Http2MisbehaviourIT {
    /** Constant 100/s for 500 ms: exactly 50 intended starts, 10 ms apart. */
    private static final int REQUESTS = 50;
    private static final long DURATION_MS = 500;
    private static final long RESPONSE_TIMEOUT_MS = 2_000;

    @Test
    void everyFifthStreamResetIsAStreamResetAndTheRestComplete() throws Exception {
        ScriptedHttp2Server.Script resetEveryFifth = (exchange, streamId) -> {
            // The server's request count: every fifth request of the run, whichever connection carries it.
            if (exchange.runRequest % 5 == 0) {
                exchange.reset(streamId, ScriptedHttp2Server.REFUSED_STREAM);
            } else {
                exchange.answer(streamId);
            }
        };
        try (ScriptedHttp2Server server = new ScriptedHttp2Server(null, resetEveryFifth)) {
            Run run = run(server, 10);

            assertCountedOnce(run.summary);
            assertThat(server.requests.get()).as("each request reached the server once").isEqualTo(REQUESTS);
            assertThat(errorsSeen(run.summary)).isEqualTo(Map.of(ErrorClass.STREAM_RESET, (long) REQUESTS / 5));
            assertThat(run.summary.completed()).isEqualTo(REQUESTS - REQUESTS / 5);
            assertOnTime(run);
        }
    }

    @Test
    void aGoawayBelowTheStreamsInFlightFailsThemAsGoaway() throws Exception {
        // On each connection: three requests answered, then two held; at the second held one, GOAWAY naming the last
        // answered stream (below both held ones), and the connection closed. The next requests open another.
        ScriptedHttp2Server.Script goAwayAfterThree = holdingScript(exchange -> exchange.goAwayAndClose(exchange.lastAnswered));
        try (ScriptedHttp2Server server = new ScriptedHttp2Server(null, goAwayAfterThree)) {
            Run run = run(server, 10);

            assertCountedOnce(run.summary);
            assertThat(errorsSeen(run.summary).keySet()).as("%s", errorsSeen(run.summary)).containsOnly(ErrorClass.GOAWAY);
            assertThat(run.summary.completed()).isEqualTo(server.answered.get()).isPositive();
            // Held by the server when it went away; a request written before the GOAWAY was read also counts as one.
            assertThat(run.summary.errors().get(ErrorClass.GOAWAY)).isGreaterThanOrEqualTo(server.goneAway.get());
            assertThat(server.goneAway.get()).isPositive();
            assertThat(server.connections.get()).as("a new connection after each GOAWAY").isGreaterThan(2);
            assertOnTime(run);
        }
    }

    @Test
    void aConnectionClosedAfterGoawayFailsTheStreamsItLeftAsGoaway() throws Exception {
        // The GOAWAY names the held streams as processed, then the server closes without answering them: the close
        // after GOAWAY, not the GOAWAY itself, ends them.
        ScriptedHttp2Server.Script goAwayCoveringHeld = holdingScript(exchange -> exchange.goAwayAndClose(exchange.held.getLast()));
        try (ScriptedHttp2Server server = new ScriptedHttp2Server(null, goAwayCoveringHeld)) {
            Run run = run(server, 10);

            assertGoawayEndedWhatWasNotAnswered(run, server);
        }
    }

    @Test
    void aConnectionResetAfterGoawayFailsTheStreamsItLeftAsGoaway() throws Exception {
        // As above, but the server ends the connection with a TCP reset once the client has handled the GOAWAY (its
        // PING, sent after the GOAWAY, acknowledged): what a server closing with unread bytes does. The streams it
        // left were ended by its going away all the same.
        ScriptedHttp2Server.Script goAwayThenReset = holdingScript(exchange -> {
            exchange.goAway(exchange.held.getLast());
            exchange.pingAndAwaitAck();
            exchange.abort();
        });
        try (ScriptedHttp2Server server = new ScriptedHttp2Server(null, goAwayThenReset)) {
            Run run = run(server, 10);

            assertGoawayEndedWhatWasNotAnswered(run, server);
        }
    }

    @Test
    void aGoawayUnderAClosedLoopsConcurrentStreamsFailsOnlyThoseAboveItsLastId() throws Exception {
        // One connection of four streams, each slot sending again as soon as it is answered. The server answers what
        // it holds once the client is quiet for 20 ms, or when all four streams are in flight; from the ninth request
        // on, a batch of four gets a GOAWAY naming its second stream instead: the first two are answered after it, the
        // two above it are left, and the connection closes.
        ScriptedHttp2Server.Script batches = ScriptedHttp2Server.batchesOf(4, exchange -> {
            if (exchange.held.isEmpty()) {
                return;
            }
            if (exchange.requests < 9 || exchange.held.size() < 4) {
                for (int id : exchange.held) {
                    exchange.answer(id);
                }
                exchange.held.clear();
                return;
            }
            List<Integer> ids = List.copyOf(exchange.held);
            exchange.goAway(ids.get(1));
            exchange.answer(ids.get(0));
            exchange.answer(ids.get(1));
            exchange.held.removeAll(ids.subList(0, 2));
            exchange.closeNow();
        });
        try (ScriptedHttp2Server server = new ScriptedHttp2Server(null, batches)) {
            LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.ClosedLoop(1)).toBuilder()
                    .http2(true, 4).warmupMs(0).durationMs(1_000).responseTimeoutMs(RESPONSE_TIMEOUT_MS).build();
            Run run = run(spec);

            assertCountedOnce(run.summary);
            assertThat(errorsSeen(run.summary).keySet()).as("%s", errorsSeen(run.summary)).containsOnly(ErrorClass.GOAWAY);
            // The two streams at or below the GOAWAY's last id were answered after it, and count as completed.
            assertThat(run.summary.completed()).isEqualTo(server.answered.get());
            assertThat(run.summary.errors().get(ErrorClass.GOAWAY)).isGreaterThanOrEqualTo(server.goneAway.get());
            assertThat(server.goneAway.get()).isPositive();
            assertThat(run.elapsedMs).isLessThan(1_000 + RESPONSE_TIMEOUT_MS);
            assertThat(run.summary.hardCapReached()).isFalse();
        }
    }

    @Test
    void responsesWhoseFieldsTheServerIndexesAndHuffmanCodesAreRead() throws Exception {
        // What Helidon, Netty and nghttpd do: fields put in the connection's dynamic table, referred to afterwards.
        try (ScriptedHttp2Server server = new ScriptedHttp2Server(null, new IndexingResponses())) {
            Run run = run(server, 10);

            assertCountedOnce(run.summary);
            assertThat(errorsSeen(run.summary)).isEmpty();
            assertThat(run.summary.completed()).isEqualTo(REQUESTS);
            assertThat(server.answered.get()).isEqualTo(REQUESTS);
            assertOnTime(run);
        }
    }

    @Test
    void aResponseReferringToADynamicEntryNeverInsertedIsAProtocolError() throws Exception {
        // Index 62: the first dynamic entry, on a connection whose server never inserted one.
        ScriptedHttp2Server.Script dynamicIndex = (exchange, streamId) -> exchange.frame(ScriptedHttp2Server.HEADERS,
                ScriptedHttp2Server.END_HEADERS | ScriptedHttp2Server.END_STREAM, streamId, new byte[]{(byte) 0xBE});
        try (ScriptedHttp2Server server = new ScriptedHttp2Server(null, dynamicIndex)) {
            Run run = run(server, 10);

            assertCountedOnce(run.summary);
            assertThat(errorsSeen(run.summary)).isEqualTo(Map.of(ErrorClass.PROTOCOL, (long) REQUESTS));
            assertThat(run.summary.completed()).isZero();
            assertOnTime(run);
        }
    }

    private record Run(RunSummary summary, long elapsedMs) {
    }

    private interface GoAway {
        void send(ScriptedHttp2Server.Exchange exchange) throws IOException;
    }

    /**
     * On each connection: three requests answered, then the next ones held; at the second held one, {@code goAway}.
     * A request held while the client is quiet for 100 ms (the schedule ended, or the loop fell behind) is answered,
     * so that none waits for a second one that never comes.
     */
    private static ScriptedHttp2Server.Script holdingScript(GoAway goAway) {
        return new ScriptedHttp2Server.Script() {
            @Override
            public void onRequest(ScriptedHttp2Server.Exchange exchange, int streamId) throws IOException {
                exchange.idleAfter(100);
                if (exchange.requests <= 3) {
                    exchange.answer(streamId);
                    return;
                }
                exchange.held.add(streamId);
                if (exchange.held.size() == 2) {
                    goAway.send(exchange);
                }
            }

            @Override
            public void onIdle(ScriptedHttp2Server.Exchange exchange) throws IOException {
                for (int id : exchange.held) {
                    exchange.answer(id);
                }
                exchange.held.clear();
            }
        };
    }

    private static Run run(ScriptedHttp2Server server, int streams) {
        LoadSpec spec = LoadSpec.of(server.uri("/hello"), new LoadModel.OpenLoop(100, LoadModel.InterArrival.CONSTANT))
                .toBuilder().http2(true, streams).warmupMs(0).durationMs(DURATION_MS)
                .responseTimeoutMs(RESPONSE_TIMEOUT_MS).build();
        return run(spec);
    }

    private static Run run(LoadSpec spec) {
        long startNs = System.nanoTime();
        RunSummary summary = Generator.run(spec, null, new PrintStream(new ByteArrayOutputStream()));
        return new Run(summary, (System.nanoTime() - startNs) / 1_000_000);
    }

    /** Each request sent is answered or failed, once: none lost, none counted twice, none left waiting. */
    private static void assertCountedOnce(RunSummary summary) {
        assertThat(summary.completed() + summary.errorCount()).as("%s", errorsSeen(summary)).isEqualTo(summary.sent());
        assertThat(errorsSeen(summary)).doesNotContainKey(ErrorClass.RESPONSE_TIMEOUT);
    }

    /** The error classes that occurred: the summary lists every class, most at 0. */
    static Map<ErrorClass, Long> errorsSeen(RunSummary summary) {
        Map<ErrorClass, Long> seen = new EnumMap<>(ErrorClass.class);
        summary.errors().forEach((errorClass, count) -> {
            if (count > 0) {
                seen.put(errorClass, count);
            }
        });
        return seen;
    }

    private static void assertOnTime(Run run) {
        assertThat(run.summary.sent()).isEqualTo(REQUESTS);
        assertThat(run.summary.hardCapReached()).isFalse();
        // Every answer, reset or GOAWAY comes at once: the run ends with its schedule, not at a timeout.
        assertThat(run.elapsedMs).isLessThan(DURATION_MS + RESPONSE_TIMEOUT_MS);
    }

    /** Every request counted once, the answered ones completed, the rest ended by the GOAWAY alone, on time. */
    private static void assertGoawayEndedWhatWasNotAnswered(Run run, ScriptedHttp2Server server) {
        assertCountedOnce(run.summary);
        assertThat(errorsSeen(run.summary).keySet()).as("%s", errorsSeen(run.summary)).containsOnly(ErrorClass.GOAWAY);
        assertThat(run.summary.completed()).isEqualTo(server.answered.get()).isPositive();
        assertThat(run.summary.errors().get(ErrorClass.GOAWAY)).isGreaterThanOrEqualTo(server.goneAway.get());
        assertOnTime(run);
    }
}