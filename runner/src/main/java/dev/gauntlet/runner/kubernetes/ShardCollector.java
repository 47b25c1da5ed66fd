package dev.gauntlet.runner.kubernetes;

import dev.gauntlet.loadgen.failure.GeneratorException;
import dev.gauntlet.loadgen.split.ResultsServer;
import dev.gauntlet.loadgen.split.ShardArchive;
import io.fabric8.kubernetes.api.model.Pod;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Copies the shards' results out of their pods while they run, from each one's {@link ResultsServer}
 * at its node's address (the pods use host networking) and the port its log names:
 *
 * <pre>{@code
 * try (ShardCollector collector = new ShardCollector(ShardCollector.UNREACHABLE_GRACE_MS)) {
 *     ShardCollector.Shard shard = collector.shard(pod, log);   // once the pod is Ready: its log names the port
 *     switch (shard.fetch(dir)) { ... }                          // until Collected or Failed
 * }
 * }</pre>
 *
 * <p>A shard answers 503 until its run is done, and is asked once a second at most. One that cannot be
 * reached is tried again for a grace ({@value #UNREACHABLE_GRACE_MS} ms: a node busy at the run's end, a
 * transfer cut short); past that, it fails: the runner cannot reach the load nodes' addresses.
 */
final class ShardCollector implements AutoCloseable {
    /** How long a shard may not be reached before it fails. */
    static final long UNREACHABLE_GRACE_MS = 30_000;
    /** The line {@code ShardMain} prints before it reports ready. */
    private static final Pattern PORT_LINE = Pattern.compile("gauntlet shard \\d+: results at port (\\d+)");
    static final long FETCH_EVERY_MS = 1_000;
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(2);
    /** Until the answer's headers: the shard zips its files as it sends them. */
    private static final Duration ANSWER_TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(CONNECT_TIMEOUT).build();
    private final long unreachableGraceMs;

    /** @param unreachableGraceMs how long a shard may not be reached before it fails ({@link #UNREACHABLE_GRACE_MS}) */
    ShardCollector(long unreachableGraceMs) {
        this.unreachableGraceMs = unreachableGraceMs;
    }

    /** What one fetch came to. */
    sealed interface Outcome {
        /** Still running (503), not asked yet, or not reached within the grace yet. */
        record Running() implements Outcome {
        }

        /** Its files are in the directory. */
        record Collected(long bytes) implements Outcome {
        }

        /** It cannot be collected; {@code reason} completes "shard 1 of 3 (pod ...)". */
        record Failed(String reason) implements Outcome {
        }
    }

    private static final Outcome RUNNING = new Outcome.Running();

    /** The shard {@code pod} runs, at the port its {@code log} names. */
    Shard shard(Pod pod, String log) {
        Matcher port = PORT_LINE.matcher(log);
        String host = Objects.requireNonNullElse(pod.getStatus().getHostIP(), pod.getStatus().getPodIP());
        if (!port.find()) {
            return new Shard(null, "names no results port in its log (an image older than the runner?)");
        }
        if (host == null) {
            return new Shard(null, "has no address in its status, neither its node's nor its own");
        }
        String address = host.contains(":") ? "[" + host + "]" : host;
        return new Shard(URI.create("http://" + address + ":" + port.group(1) + ResultsServer.PATH), null);
    }

    @Override
    public void close() {
        http.close();
    }

    private static String seconds(long ms) {
        return ms >= 10_000 ? ms / 1_000 + " s" : ms + " ms";
    }

    /** One shard's results: where they are served, and how its fetches went. */
    final class Shard {
        private final URI results;
        private final String unservable;
        private long nextFetchEpochMs;
        private long unreachableSinceEpochMs = -1;

        private Shard(URI results, String unservable) {
            this.results = results;
            this.unservable = unservable;
        }

        /** Asks for the shard's results, if it is time to, and writes them into {@code dir} when they come. */
        Outcome fetch(Path dir) {
            if (unservable != null) {
                return new Outcome.Failed(unservable);
            }
            long now = System.currentTimeMillis();
            if (now < nextFetchEpochMs) {
                return RUNNING;
            }
            nextFetchEpochMs = now + FETCH_EVERY_MS;
            HttpResponse<byte[]> answer;
            try {
                answer = http.send(HttpRequest.newBuilder(results).timeout(ANSWER_TIMEOUT).GET().build(),
                        HttpResponse.BodyHandlers.ofByteArray());
            } catch (IOException e) {
                if (unreachableSinceEpochMs < 0) {
                    unreachableSinceEpochMs = now;
                }
                return now - unreachableSinceEpochMs < unreachableGraceMs ? RUNNING
                        : new Outcome.Failed("cannot be reached at " + results + " for " + seconds(now - unreachableSinceEpochMs)
                        + " (" + Objects.requireNonNullElse(e.getMessage(), e.getClass().getSimpleName())
                        + "): the runner must reach the load nodes' addresses at the shards' results ports "
                        + "(docs/distributed.md)");
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new GeneratorException("interrupted while copying the shards' results; their Job is deleted");
            }
            unreachableSinceEpochMs = -1;
            if (answer.statusCode() == 503) {
                return RUNNING;
            }
            if (answer.statusCode() != 200) {
                return new Outcome.Failed("answered " + answer.statusCode() + " at " + results);
            }
            try {
                ShardArchive.extract(answer.body(), dir);
                return new Outcome.Collected(answer.body().length);
            } catch (ShardArchive.Unreadable e) {
                return new Outcome.Failed("served results that cannot be read: " + e.getMessage());
            } catch (IOException e) {
                throw new GeneratorException("cannot write " + dir + ": " + e.getMessage());
            }
        }
    }
}
