package dev.gauntlet.bench;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GateBoundsTest {

    @Test
    void readsEachCasesBoundFromTheTableWithAGateCaseAndABoundColumn() {
        List<String> doc = List.of("# Benchmarks", "", "| case | bound |", "|---|---|", "| other | 9 |", "",
                "| gate case | peer | bound | set from |", "|---|---|---|---|",
                "| open-10k | wrk2 | 1.05 | x |", "| closed | wrk | 0.80 | y |", "", "after");
        assertThat(GateBounds.parse(doc)).containsExactly(java.util.Map.entry("open-10k", 1.05), java.util.Map.entry("closed", 0.80));
    }

    @Test
    void aRowWithoutANumberOrADocWithoutTheTableIsRefused() {
        assertThatThrownBy(() -> GateBounds.parse(List.of("| gate case | bound |", "|---|---|", "| closed | soon |")))
                .hasMessageContaining("| closed | soon |");
        assertThatThrownBy(() -> GateBounds.parse(List.of("nothing here"))).hasMessageContaining("no table");
    }

    /** The project's own docs/benchmarks.md names a bound for every case the gate runs. */
    @Test
    void theProjectsBenchmarksPageBoundsEveryCase() throws Exception {
        var bounds = GateBounds.parse(Files.readAllLines(Path.of("../docs/benchmarks.md")));
        assertThat(bounds.keySet()).containsExactlyElementsOf(GateCase.ALL.stream().map(GateCase::name).toList());
        assertThat(bounds.values()).allSatisfy(b -> assertThat(b).isPositive());
    }
}
