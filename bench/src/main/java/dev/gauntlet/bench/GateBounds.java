package dev.gauntlet.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The gate's bounds, read from the table in docs/benchmarks.md whose header has a {@code cpu}, a {@code gate case} and a
 * {@code bound} column: for each case on a CPU, the ratio of Gauntlet's CPU per request to its peer's that the
 * generator must not exceed beyond its interval. One place holds them, beside the figures they were set from.
 *
 * <p>A bound holds for the CPU it was measured on: the two clients run different instructions (a JVM's and a C
 * program's, other system calls), so their ratio differs from one processor to another (closed loop 0.94–0.98 on AMD
 * EPYC, 1.02–1.04 on Intel Xeon, the same build). A row applies where the machine's model name contains its
 * {@code cpu} cell.
 *
 * <pre>
 * | cpu | gate case | Gauntlet | peer | bound | ...
 * |---|---|---|---|---|
 * | EPYC | open-10k | ... | wrk2 ... | 1.10 | ...
 * </pre>
 */
final class GateBounds {
    private GateBounds() {
    }

    /**
     * Each case's bound on the CPU named {@code cpuModel}, by name, in the table's order; empty when no row is for that
     * CPU.
     */
    static Map<String, Double> parse(List<String> markdownLines, String cpuModel) {
        for (int i = 0; i < markdownLines.size(); i++) {
            List<String> header = cells(markdownLines.get(i));
            int cpuColumn = header.indexOf("cpu");
            int nameColumn = header.indexOf("gate case");
            int boundColumn = header.indexOf("bound");
            if (cpuColumn < 0 || nameColumn < 0 || boundColumn < 0) {
                continue;
            }
            Map<String, Double> bounds = new LinkedHashMap<>();
            for (int row = i + 2; row < markdownLines.size() && markdownLines.get(row).trim().startsWith("|"); row++) {
                List<String> cells = cells(markdownLines.get(row));
                double bound;
                try {
                    bound = Double.parseDouble(cells.get(boundColumn));
                } catch (IndexOutOfBoundsException | NumberFormatException e) {
                    throw new IllegalArgumentException("the gate's bounds table has a row without a number for its bound: "
                            + markdownLines.get(row).trim());
                }
                if (!cells.get(cpuColumn).isEmpty() && cpuModel.contains(cells.get(cpuColumn))) {
                    bounds.put(cells.get(nameColumn), bound);
                }
            }
            return bounds;
        }
        throw new IllegalArgumentException("no table with a 'cpu', a 'gate case' and a 'bound' column");
    }

    private static List<String> cells(String line) {
        String trimmed = line.trim();
        if (!trimmed.startsWith("|")) {
            return List.of();
        }
        return Arrays.stream(trimmed.substring(1).split("\\|")).map(String::trim).toList();
    }
}
