package dev.gauntlet.runner.results;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.isolation.Isolation;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * Where a suite ran, recorded in {@code suite.json} so that figures can be compared fairly later:
 * JDK, CPUs, kernel, the open-files limit, the checkout's commit, and the isolation planned
 * ({@link Isolation#describe()}; what each target got is read back into its {@code isolation.json}).
 *
 * @param gitCommit the checkout's HEAD; {@code <HEAD>+dirty-<hash>} when its tracked files differ from HEAD or it
 *                  has untracked ones, the hash over that difference, so two different edits of one commit differ
 */
public record Environment(
        Instant startedAt,
        String jdk,
        int cpus,
        String os,
        String kernel,
        String openFilesLimit,
        String gitCommit,
        Map<String, Object> isolation) {

    /** What a run measures depends on, as a JSON pointer into a recorded environment and its words for a message. */
    private record Aspect(String pointer, String words) {
    }

    private static final List<Aspect> MEASURED_WITH = List.of(
            new Aspect("/jdk", "the JDK"),
            new Aspect("/cpus", "the number of CPUs"),
            new Aspect("/os", "the OS"),
            new Aspect("/kernel", "the kernel"),
            new Aspect("/openFilesLimit", "the open-files limit"),
            new Aspect("/isolation/network/mode", "the network (--network)"),
            new Aspect("/isolation/target", "the target's placement"),
            new Aspect("/isolation/generator", "the generator's placement"));

    /** @param isolation where each role runs: {@link Isolation#describe()}, or a cluster's placement */
    public static Environment capture(GauntletHome home, Map<String, Object> isolation) {
        return new Environment(Instant.now(),
                System.getProperty("java.vm.vendor") + " " + System.getProperty("java.runtime.version"),
                Runtime.getRuntime().availableProcessors(),
                System.getProperty("os.name") + " " + System.getProperty("os.arch"),
                System.getProperty("os.version"),
                readOpenFilesLimit(),
                readGitCommit(home.root()),
                isolation);
    }

    /**
     * How {@code now} differs from {@code recorded} (an environment as {@code suite.json} holds it) in what a run
     * measures, in words such as {@code the JDK was Eclipse Adoptium 25+36, now Oracle 25.0.1+8}; empty when in
     * nothing. The time and the commit are not compared: they are the caller's to judge. What an older results
     * directory did not record is not compared either.
     */
    Optional<String> differenceFrom(JsonNode recorded) {
        JsonNode current;
        try {
            // Written and read back, so that numbers compare as the recorded ones were read (an int is not a long).
            current = Json.json().readTree(Json.json().writeValueAsString(this));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (Aspect aspect : MEASURED_WITH) {
            JsonNode was = recorded.at(aspect.pointer());
            JsonNode is = current.at(aspect.pointer());
            if (!was.isMissingNode() && !was.equals(is)) {
                return Optional.of(aspect.words() + " was " + text(was) + ", now " + text(is));
            }
        }
        return Optional.empty();
    }

    private static String text(JsonNode node) {
        return node.isValueNode() ? node.asText() : node.toString();
    }

    /** The soft limit from /proc/self/limits, as the kernel states it ("unknown" off Linux). */
    private static String readOpenFilesLimit() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/limits"), StandardCharsets.US_ASCII)) {
                if (line.startsWith("Max open files")) {
                    return line.substring("Max open files".length()).trim().split("\\s+")[0];
                }
            }
        } catch (IOException e) {
            // not Linux: reported as unknown
        }
        return "unknown";
    }

    private static String readGitCommit(Path checkout) {
        Optional<String> head = git(checkout, "rev-parse", "HEAD");
        if (head.isEmpty()) {
            return "unknown";
        }
        String changes = git(checkout, "diff", "--no-color", "--no-ext-diff", "HEAD").orElse("")
                + git(checkout, "ls-files", "--others", "--exclude-standard").orElse("");
        return changes.isEmpty() ? head.get().trim() : head.get().trim() + "+dirty-" + sha256(changes).substring(0, 12);
    }

    /** What {@code git args} printed; empty when git is missing or failed. */
    private static Optional<String> git(Path checkout, String... args) {
        List<String> command = new ArrayList<>(List.of("git", "-C", checkout.toString()));
        command.addAll(List.of(args));
        try {
            Process git = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out = new String(git.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            return git.waitFor(5, TimeUnit.SECONDS) && git.exitValue() == 0 ? Optional.of(out) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
