package dev.gauntlet.targets;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class WithStyleThreadsTest {

    @Test
    void theStylesThreadsAreCreatedAtStartAndEndedAfterTheServerStops() throws Exception {
        List<String> events = new ArrayList<>();
        AtomicReference<ExecutorService> given = new AtomicReference<>();
        HelloServer target = WithStyleThreads.executing(settings -> {
            events.add("threads for " + settings.workers() + " workers");
            return Executors.newVirtualThreadPerTaskExecutor();
        }, threads -> {
            given.set(threads);
            return new Recording(events, false);
        });
        assertThat(events).as("nothing before the start").isEmpty();

        assertThat(target.start(TargetSettings.defaults(), new RequestStats())).isEqualTo(8080);
        assertThat(given.get().isShutdown()).isFalse();
        target.stop();

        assertThat(events).containsExactly("threads for " + TargetSettings.DEFAULT_WORKERS + " workers", "start", "stop");
        assertThat(given.get().isShutdown()).as("ended after the server's stop").isTrue();
    }

    @Test
    void aCompletionIsClosedEvenWhenTheServersStopThrows() throws Exception {
        List<String> events = new ArrayList<>();
        AtomicReference<DelayedCompletion> given = new AtomicReference<>();
        HelloServer target = WithStyleThreads.completing(DelayedCompletion::viaTimer, completion -> {
            given.set(completion);
            return new Recording(events, true);
        });
        target.start(TargetSettings.defaults(), new RequestStats());

        assertThatThrownBy(target::stop).hasMessage("stop failed");
        // A closed timer refuses new work.
        assertThatThrownBy(() -> given.get().submit(1, () -> { })).isNotNull();
    }

    /** A server that records its start and stop; its stop throws when told to. */
    private record Recording(List<String> events, boolean stopThrows) implements HelloServer {
        @Override
        public int start(TargetSettings settings, RequestStats stats) {
            events.add("start");
            return 8080;
        }

        @Override
        public void stop() {
            events.add("stop");
            if (stopThrows) {
                throw new IllegalStateException("stop failed");
            }
        }
    }
}
