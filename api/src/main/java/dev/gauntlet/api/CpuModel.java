package dev.gauntlet.api;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The machine's CPU model as its kernel names it ({@code model name} in {@code /proc/cpuinfo}): which
 * hardware a figure was measured on, for a process on a node the runner cannot look at itself.
 */
public final class CpuModel {
    /** The line a target prints before its READY line: {@code CPU <model>}. */
    public static final String LINE_PREFIX = "CPU ";

    private CpuModel() {
    }

    /** The model, or {@code unknown} where there is no {@code /proc/cpuinfo} or it names none. */
    public static String read() {
        try (var lines = Files.lines(Path.of("/proc/cpuinfo"))) {
            Optional<String> model = lines.filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim()).findFirst();
            return model.orElse("unknown");
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
