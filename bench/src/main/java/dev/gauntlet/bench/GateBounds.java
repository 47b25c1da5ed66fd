package dev.gauntlet.bench;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The gate's bounds, read from the table in docs/benchmarks.md whose header has a {@code gate case} and a
 * {@code bound} column: for each case, the ratio of Gauntlet's CPU per request to its peer's that the generator must
 * not exceed beyond its interval. One place holds them, beside the figures they were set from.
 *
 * <pre>
 * | gate case | Gauntlet | peer | bound | ...
 * |---|---|---|---|
 * | open-10k | ... | wrk2 ... | 1.10 | ...
 * </pre>
 */
final class GateBounds {
    private GateBounds() {
    }

    /** Each case's bound, by name, in the table's order. */
    static Map<String, Double> parse(List<String> markdownLines) {
        for (int i = 0; i < markdownLines.size(); i++) {
            List<String> header = cells(markdownLines.get(i));
            int nameColumn = header.indexOf("gate case");
            int boundColumn = header.indexOf("bound");
            if (nameColumn < 0 || boundColumn < 0) {
                continue;
            }
            Map<String, Double> bounds = new LinkedHashMap<>();
            for (int row = i + 2; row < markdownLines.size() && markdownLines.get(row).trim().startsWith("|"); row++) {
                List<String> cells = cells(markdownLines.get(row));
                try {
                    bounds.put(cells.get(nameColumn), Double.parseDouble(cells.get(boundColumn)));
                } catch (IndexOutOfBoundsException | NumberFormatException e) {
                    throw new IllegalArgumentException("the gate's bounds table has a row without a number for its bound: "
                            + markdownLines.get(row).trim());
                }
            }
            return bounds;
        }
        throw new IllegalArgumentException("no table with a 'gate case' and a 'bound' column");
    }

    private static List<String> cells(String line) {
        String trimmed = line.trim();
        if (!trimmed.startsWith("|")) {
            return List.of();
        }
        return Arrays.stream(trimmed.substring(1).split("\\|")).map(String::trim).toList();
    }
}
