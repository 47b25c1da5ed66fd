package dev.gauntlet.runner.results;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/** Results directories of runs of one suite started within the same second. */
class ResultsStoreTest {
    @TempDir
    Path results;

    @Test
    void aNameTakenWithinTheSameSecondGetsTheNextSuffix() {
        assertThat(ResultsStore.newDirectory(results, "quick-20261126-153000")).isEqualTo(results.resolve("quick-20261126-153000"));
        assertThat(ResultsStore.newDirectory(results, "quick-20261126-153000")).isEqualTo(results.resolve("quick-20261126-153000-2"));
        assertThat(ResultsStore.newDirectory(results, "quick-20261126-153000")).isEqualTo(results.resolve("quick-20261126-153000-3"));
        assertThat(results.resolve("quick-20261126-153000-3").resolve("runs")).isDirectory();
    }

    @Test
    void runsThatTryTheSameNameAtOnceEachGetTheirOwnDirectory() throws Exception {
        int runs = 8;
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService threads = Executors.newFixedThreadPool(runs)) {
            Callable<Path> create = () -> {
                start.await();
                return ResultsStore.newDirectory(results, "quick-20261126-153000");
            };
            List<Future<Path>> created = IntStream.range(0, runs).mapToObj(i -> threads.submit(create)).toList();
            start.countDown();
            List<Path> dirs = created.stream().map(f -> {
                try {
                    return f.get();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }).toList();
            assertThat(dirs).doesNotHaveDuplicates().hasSize(runs);
        }
    }
}
