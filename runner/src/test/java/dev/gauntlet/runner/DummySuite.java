package dev.gauntlet.runner;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The suite file the ITs that run a whole suite through {@code ./gauntlet run} write: the dummy target measured once
 * in one open-loop scenario, {@code open}, with no wait, its generator without the JIT warm-up.
 */
public final class DummySuite {
    private DummySuite() {
    }

    /**
     * Writes the suite to {@code file}, named for the file ({@code tiny.yaml}: suite {@code tiny}).
     *
     * @param heap       both JVMs' {@code -Xmx}, such as {@code 256m}
     * @param ratePerSec the open loop's rate
     * @param warmupMs   its warm-up
     * @param durationMs its measured phase
     */
    public static Path openLoop(Path file, String heap, int ratePerSec, long warmupMs, long durationMs) throws IOException {
        String name = file.getFileName().toString().replaceFirst("\\.yaml$", "");
        return Files.writeString(file, """
                name: %s
                description: the dummy target, one open-loop scenario
                targets: [dummy]
                repetitions: 1
                jvm:
                  target: [-Xmx%s]
                  generator: [-Xmx%s, -Dgauntlet.jitWarmup=false]
                scenarios:
                  - name: open
                    description: %d requests/s for %d ms
                    load: { type: open, ratePerSec: %d }
                    waitMs: 0
                    warmupMs: %d
                    durationMs: %d
                """.formatted(name, heap, heap, ratePerSec, durationMs, ratePerSec, warmupMs, durationMs));
    }
}
