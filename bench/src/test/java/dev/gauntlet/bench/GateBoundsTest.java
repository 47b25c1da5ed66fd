package dev.gauntlet.bench;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GateBoundsTest {

    private static final List<String> DOC = List.of("# Benchmarks", "", "| case | bound |", "|---|---|", "| other | 9 |", "",
            "| cpu | gate case | peer | bound | set from |", "|---|---|---|---|---|",
            "| EPYC | open-10k | wrk2 | 1.05 | x |", "| EPYC | closed | wrk | 0.80 | y |",
            "| Xeon | open-10k | wrk2 | 0.95 | x |", "| Xeon | closed | wrk | 1.05 | y |", "", "after");

    @Test
    void readsEachCasesBoundForThisCpuFromTheTableWithACpuAGateCaseAndABoundColumn() {
        assertThat(GateBounds.parse(DOC, "AMD EPYC 7B13")).containsExactly(Map.entry("open-10k", 1.05), Map.entry("closed", 0.80));
        assertThat(GateBounds.parse(DOC, "Intel(R) Xeon(R) Processor")).containsExactly(Map.entry("open-10k", 0.95),
                Map.entry("closed", 1.05));
        assertThat(GateBounds.parse(DOC, "Apple M4")).isEmpty();
    }

    @Test
    void aRowWithoutANumberOrADocWithoutTheTableIsRefused() {
        assertThatThrownBy(() -> GateBounds.parse(List.of("| cpu | gate case | bound |", "|---|---|---|",
                "| EPYC | closed | soon |"), "EPYC")).hasMessageContaining("| EPYC | closed | soon |");
        assertThatThrownBy(() -> GateBounds.parse(List.of("nothing here"), "EPYC")).hasMessageContaining("no table");
    }

    /** The project's own docs/benchmarks.md names a bound for every case the gate runs, on each CPU it names. */
    @Test
    void theProjectsBenchmarksPageBoundsEveryCaseOnEachCpu() throws Exception {
        List<String> doc = Files.readAllLines(Path.of("../docs/benchmarks.md"));
        for (String cpu : List.of("AMD EPYC 7B13", "Intel(R) Xeon(R) Processor")) {
            var bounds = GateBounds.parse(doc, cpu);
            assertThat(bounds.keySet()).as(cpu).containsExactlyElementsOf(GateCase.ALL.stream().map(GateCase::name).toList());
            assertThat(bounds.values()).allSatisfy(b -> assertThat(b).isPositive());
        }
    }
}
