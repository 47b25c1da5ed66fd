package dev.gauntlet.runner;

import dev.gauntlet.api.TargetCatalogue;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code ./gauntlet} launcher as a user runs it: exit codes and one-line errors. */
class LauncherIT {

    record Outcome(int exitCode, List<String> stdout, List<String> stderr) {
    }

    @Test
    void aWrongFlagExitsWithCodeTwoAndOneLine() throws Exception {
        Outcome outcome = gauntlet("run", "--no-such-flag");

        assertThat(outcome.exitCode()).isEqualTo(2);
        assertThat(outcome.stderr()).hasSize(1);
        assertThat(outcome.stderr().getFirst()).contains("--no-such-flag").contains("gauntlet run --help");
    }

    @Test
    void anUnknownTargetIsRefusedBeforeAnythingStarts() throws Exception {
        Outcome outcome = gauntlet("run", "--targets", "no-such-target", "--results", "/nonexistent/dir");

        assertThat(outcome.exitCode()).isEqualTo(2);
        assertThat(outcome.stderr()).containsExactly(
                "gauntlet: unknown target 'no-such-target': ./gauntlet targets lists the names");
    }

    @Test
    void targetsListsTheWholeCatalogue() throws Exception {
        Outcome outcome = gauntlet("targets");

        assertThat(outcome.exitCode()).isZero();
        TargetCatalogue.builtIn().targets().forEach(t ->
                assertThat(outcome.stdout()).anyMatch(line -> line.startsWith(t.name() + " ")));
    }

    @Test
    void everyCommandHasHelpWithAnExample() throws Exception {
        for (String command : List.of("run", "load", "target", "targets")) {
            Outcome outcome = gauntlet(command, "--help");
            assertThat(outcome.exitCode()).as(command).isZero();
            assertThat(String.join("\n", outcome.stdout())).as(command).contains("Example").containsPattern("(?m)gauntlet " + command + "( |$)");
        }
    }

    static Outcome gauntlet(String... args) throws IOException, InterruptedException {
        Path home = GauntletHome.fromSystemProperty().root();
        List<String> command = new java.util.ArrayList<>(List.of(home.resolve("gauntlet").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("GAUNTLET_NO_BUILD", "1");
        Process process = builder.start();
        process.getOutputStream().close();
        var stdout = process.getInputStream();
        var stderr = process.getErrorStream();
        String out = new String(stdout.readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(stderr.readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("gauntlet %s finished", List.of(args)).isTrue();
        return new Outcome(process.exitValue(), out.lines().toList(), err.lines().toList());
    }
}
