package dev.gauntlet.runner.execution;

import dev.gauntlet.api.AdminToken;
import dev.gauntlet.api.Protocol;
import dev.gauntlet.api.HandlerStyle;
import dev.gauntlet.api.TargetCatalogue.TargetEntry;
import dev.gauntlet.loadgen.split.JavaCommand;
import dev.gauntlet.runner.isolation.RolePlacement;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The wait between two runs, against a real target JVM ({@link QueueingTargetStandIn}) whose
 * {@code /stats} say nothing is in flight while its {@code /hello} answers late: the probe after
 * {@code inFlight} 0 waits for that answer, up to the previous run's wait + 5 s, and the note says
 * how long it took, or that it did not come.
 */
@Tag("alone") // asserts how long drains wait
class TargetDrainIT {
    private static final Pattern ANSWERED_LATE =
            Pattern.compile("the target took (\\d+) ms to answer a probe after the previous run");
    private static final Pattern NOT_ANSWERED =
            Pattern.compile("the target did not answer a probe within (\\d+) ms after the previous run");

    @TempDir
    Path logs;

    @Test
    void aTargetThatAnswersAtOnceLeavesNothingToSay() {
        try (TargetProcess target = start(0)) {
            assertThat(TargetDrain.afterRun(target, 0)).isNull();
        }
    }

    @Test
    void aProbeAnsweredBehindAQueueIsWaitedForAndTheRowSaysHowLong() {
        long answerAfterMs = 2_000;
        try (TargetProcess target = start(answerAfterMs)) {
            String note = TargetDrain.afterRun(target, 0);

            assertThat(note).matches(ANSWERED_LATE);
            Matcher took = ANSWERED_LATE.matcher(note);
            assertThat(took.matches()).isTrue();
            assertThat(Long.parseLong(took.group(1))).as("ms the probe took, waited for rather than given up after 1 s")
                    .isBetween(answerAfterMs, TargetDrain.MARGIN.toMillis());
        }
    }

    @Test
    void aProbeUnansweredByThePreviousWaitPlusTheMarginIsSaid() {
        long previousWaitMs = 1_000;
        try (TargetProcess target = start(60_000)) {
            long startNs = System.nanoTime();
            String note = TargetDrain.afterRun(target, previousWaitMs);
            long waitedMs = Duration.ofNanos(System.nanoTime() - startNs).toMillis();

            assertThat(note).matches(NOT_ANSWERED);
            long deadlineMs = previousWaitMs + TargetDrain.MARGIN.toMillis();
            assertThat(waitedMs).as("the wait ends at the deadline").isBetween(deadlineMs - 500,
                    deadlineMs + TargetDrain.PROMPT_ANSWER.toMillis());
        }
    }

    /** The stand-in target, its {@code /hello} answering after {@code answerAfterMs}; closing it stops its JVM. */
    private TargetProcess start(long answerAfterMs) {
        TargetEntry entry = new TargetEntry("queueing-stand-in", "test", "jdk-httpserver", HandlerStyle.SYNC,
                QueueingTargetStandIn.class.getName(), "answers /hello late, says inFlight 0", null, null, null, null);
        String classpath;
        try {
            classpath = Path.of(QueueingTargetStandIn.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
        JavaCommand command = new JavaCommand(List.of("-Xmx64m"), classpath, QueueingTargetStandIn.class.getName(),
                List.of(Long.toString(answerAfterMs)));
        return TargetProcess.start(command, AdminToken.fresh(), RolePlacement.unplaced("target"), entry, Protocol.HTTP1,
                logs.resolve("stand-in-" + answerAfterMs + ".log"), Duration.ofSeconds(20));
    }
}
