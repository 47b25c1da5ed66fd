package dev.gauntlet.runner.suite;

import java.nio.charset.StandardCharsets;

/** The suite the loader's tests parse from {@code my.yaml}: {@code mine}, of the dummy target and one scenario, s. */
final class OneScenarioSuite {
    private OneScenarioSuite() {
    }

    /** Scenario s of {@code load} measured 1 s, and set up by {@code fields}, one a line. */
    static Suite of(String load, String... fields) {
        return parse("""
                name: mine
                targets: [dummy]
                scenarios:
                  - name: s
                    load: %s
                    durationMs: 1000
                    %s
                """.formatted(load, String.join("\n    ", fields)));
    }

    static Suite parse(String yaml) {
        return SuiteLoader.parse(yaml.getBytes(StandardCharsets.UTF_8), "my.yaml");
    }
}
