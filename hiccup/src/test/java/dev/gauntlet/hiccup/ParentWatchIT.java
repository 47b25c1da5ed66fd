package dev.gauntlet.hiccup;

import org.junit.jupiter.api.Test;

import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A child JVM whose open files are all used up (a target holding 19,000 connections) keeps running while its
 * parent runs, and still ends when the parent ends. The "parent" is a {@code sleep} named on the child's command
 * line as the runner names itself: what the watch follows is that identity, not the kernel's parent.
 */
class ParentWatchIT {

    /** The child: watches, opens files until none is left, says so, then lives {@code args[0]} ms and ends well. */
    public static final class FullChild {
        public static void main(String[] args) throws Exception {
            ParentWatch.start();
            List<InputStream> held = new ArrayList<>();
            try {
                while (true) {
                    held.add(new FileInputStream("/dev/null"));
                }
            } catch (IOException full) {
                System.out.println("FULL " + held.size());
            }
            Thread.sleep(Long.parseLong(args[0]));
            System.out.println("ALIVE");
        }
    }

    @Test
    void aChildWithNoFileLeftToOpenLivesOnWhileItsParentRuns() throws Exception {
        Process parent = new ProcessBuilder("sleep", "60").start();
        try {
            Process child = child(parent, 3_000);

            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
            String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(child.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(out).as("stderr: %s", err).contains("FULL").contains("ALIVE");
            assertThat(err).doesNotContain("has ended");
            assertThat(child.exitValue()).isZero();
        } finally {
            parent.destroyForcibly().waitFor();
        }
    }

    @Test
    void aChildWithNoFileLeftToOpenStillEndsWithItsParent() throws Exception {
        Process parent = new ProcessBuilder("sleep", "60").start();
        Process child = child(parent, 60_000);
        try {
            // Once the child has filled its table, end the parent: the child must follow within a few polls.
            String first = new String(child.getInputStream().readNBytes(5), StandardCharsets.UTF_8);
            assertThat(first).isEqualTo("FULL ");
            parent.destroyForcibly().waitFor();

            assertThat(child.waitFor(10, TimeUnit.SECONDS)).as("the orphan ended").isTrue();
            assertThat(child.exitValue()).isEqualTo(1);
            assertThat(new String(child.getErrorStream().readAllBytes(), StandardCharsets.UTF_8)).contains("has ended; exiting");
        } finally {
            child.destroyForcibly().waitFor();
            parent.destroyForcibly().waitFor();
        }
    }

    /** A {@link FullChild} JVM that names {@code parent} as the process that started it. */
    private static Process child(Process parent, long liveMs) throws IOException {
        ProcessHandle handle = parent.toHandle();
        String identity = handle.pid() + handle.info().startInstant().map(s -> ":" + s.toEpochMilli()).orElse("");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        return new ProcessBuilder(java, "-Xmx64m", "-D" + ParentWatch.PROPERTY + "=" + identity, "-cp",
                System.getProperty("java.class.path"), FullChild.class.getName(), Long.toString(liveMs)).start();
    }
}
