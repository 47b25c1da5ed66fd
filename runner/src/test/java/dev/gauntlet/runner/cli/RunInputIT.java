package dev.gauntlet.runner.cli;

import dev.gauntlet.runner.Cli.Result;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static dev.gauntlet.runner.Cli.cli;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code gauntlet run} with numbers and names it cannot run, as a user types them: one line naming the flag or field,
 * the value and the range, exit code 2, and nothing started (no results directory). An IT for the checkout the runner
 * needs to know before it reads its options.
 */
class RunInputIT {
    @TempDir
    Path work;

    @Test
    void anOutOfRangeFlagOrSuiteFieldIsOneLineAndNothingStarts() throws Exception {
        String scenario = """
                name: %s
                targets: [dummy]
                scenarios:
                  - name: s
                    load: { type: closed, connections: 1 }
                    durationMs: %s
                """;
        Path overflowing = write("overflow.yaml", scenario.formatted("mine", "999999999999"));
        Path dotDot = write("dots.yaml", scenario.formatted("..", "1000"));

        expectOneLine(List.of("--suite", overflowing.toString()),
                "gauntlet: " + overflowing + " line 7: scenario s: durationMs must be 1 to 604800000, got 999999999999");
        expectOneLine(List.of("--suite", dotDot.toString()),
                "gauntlet: " + dotDot + " line 7: name must be letters, digits, '.', '_' or '-' (not . or ..), got ..");
        expectOneLine(List.of("--repetitions", "-1"), "gauntlet: --repetitions must be 1 to 100, got -1");
        expectOneLine(List.of("--kubernetes", "--shards", "0"), "gauntlet: --shards must be 1 to 64, got 0");
        expectOneLine(List.of("--kubernetes", "--namespace", "Load_1"), "gauntlet: --namespace must be a Kubernetes name"
                + " (lower-case letters, digits and '-'), got 'Load_1'");
        expectOneLine(List.of("--shards", "2"), "gauntlet: --shards says how a suite uses a cluster: add --kubernetes, or drop --shards");
        expectOneLine(List.of("--repetitions", "99999999999"),
                "gauntlet: Invalid value for option '--repetitions': '99999999999' is not an int (see 'gauntlet run --help')");
    }

    /**
     * A client library engine runs from one driver thread: engine threads with a client are one line, in the suite's
     * clients or in the scenario's own (LauncherIT has {@code load --client --threads}).
     */
    @Test
    void engineThreadsWithAClientAreOneLineAndNothingStarts() throws Exception {
        Path suiteClients = write("clients.yaml", """
                name: threaded
                targets: [dummy]
                clients: [jdk-async]
                scenarios:
                  - name: s
                    load: { type: closed, connections: 2 }
                    generator: { threads: 2 }
                    durationMs: 1000
                """);
        Path scenarioClient = write("client.yaml", """
                name: threaded
                targets: [dummy]
                scenarios:
                  - name: s
                    load: { type: closed, connections: 2 }
                    generator: { client: jdk-async, threads: 2 }
                    durationMs: 1000
                """);
        String problem = "a client library engine runs from one driver thread, got 2 threads: engine threads (--threads, "
                + "generator.threads) are the built-in engine's; drop them, or split a client's load with processes";

        expectOneLine(List.of("--suite", suiteClients.toString()), "gauntlet: scenario s with client jdk-async: " + problem);
        expectOneLine(List.of("--suite", scenarioClient.toString()), "gauntlet: " + scenarioClient + " line 8: scenario s: "
                + problem);
    }

    private void expectOneLine(List<String> flags, String line) {
        Path results = work.resolve("results");
        List<String> args = new ArrayList<>(List.of("run", "--no-calibration", "--results", results.toString()));
        args.addAll(flags);

        Result result = cli(args.toArray(String[]::new));

        assertThat(result.code()).as(String.join(" ", flags)).isEqualTo(2);
        assertThat(result.err().strip()).isEqualTo(line);
        assertThat(results).as("no results directory: nothing ran").doesNotExist();
    }

    private Path write(String name, String yaml) throws Exception {
        return Files.writeString(work.resolve(name), yaml);
    }
}
