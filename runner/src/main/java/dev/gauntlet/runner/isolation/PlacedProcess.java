package dev.gauntlet.runner.isolation;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A child process started by {@link RolePlacement#start}, with its cgroups: once it has exited,
 * the kernel's OOM count is read and the groups are removed.
 *
 * <pre>{@code
 * PlacedProcess placed = placement.start(builder);
 * ...   // the process dies
 * placed.memoryKill().ifPresent(why -> note = why);   // "killed by its 256 MB memory limit"
 * }</pre>
 */
public final class PlacedProcess {
    /** How long a stopped process gets between SIGTERM and SIGKILL. */
    public static final Duration STOP_TIMEOUT = Duration.ofSeconds(5);
    private static final long EXIT_HANDLING_TIMEOUT_SEC = 3;

    private final Process process;
    private final long memoryBytes;
    private final CompletableFuture<Boolean> oomKilled;

    private PlacedProcess(Process process, long memoryBytes, CompletableFuture<Boolean> oomKilled) {
        this.process = process;
        this.memoryBytes = memoryBytes;
        this.oomKilled = oomKilled;
    }

    static PlacedProcess of(Process process, CgroupsV1.Group group, long memoryBytes) {
        CompletableFuture<Boolean> oomKilled = group == null ? process.onExit().thenApply(p -> false)
                : process.onExit().thenApply(p -> {
                    // Read before the group goes: the count lives in the group.
                    boolean killed = group.oomKilled();
                    group.remove();
                    return killed;
                });
        return new PlacedProcess(process, memoryBytes, oomKilled);
    }

    public Process process() {
        return process;
    }

    /**
     * For a process that has exited: whether the kernel ended it for its memory limit, in words,
     * such as {@code killed by its 256 MB memory limit}.
     */
    public Optional<String> memoryKill() {
        try {
            if (process.isAlive() || !oomKilled.get(EXIT_HANDLING_TIMEOUT_SEC, TimeUnit.SECONDS)) {
                return Optional.empty();
            }
        } catch (ExecutionException | TimeoutException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
        return Optional.of("killed by its " + (memoryBytes >> 20) + " MB memory limit");
    }

    /** Completes once the process has exited and its cgroups are removed. */
    public CompletableFuture<Boolean> cleanedUp() {
        return oomKilled;
    }
}
