package dev.gauntlet.runner.execution;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A client that is not Gauntlet's (curl, h2load), run to its end within 30 s: its output, asserted to exit 0. */
final class ExternalTool {
    private ExternalTool() {
    }

    static String run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            boolean exited = process.waitFor(30, TimeUnit.SECONDS);
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(exited).as("%s ended within 30 s", command.getFirst()).isTrue();
            assertThat(process.exitValue()).as("%s's exit code: %s", command, output).isZero();
            return output;
        } finally {
            process.destroyForcibly();
        }
    }
}
