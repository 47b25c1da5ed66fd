package dev.gauntlet.loadgen;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class SummaryTableTest {

    /** Below a millisecond in µs, from one on in ms like the table's other times, and always as the flag reads it back. */
    @ParameterizedTest
    @CsvSource({"0, 0", "1, 1us", "999, 999us", "1000, 1ms", "1001, 1.001ms", "1500, 1.5ms", "9999, 9.999ms",
            "10000, 10ms"})
    void theAskedWakeGranularityPrintsAsTheFlagTakesItInMsFromOneOn(long us, String text) {
        assertThat(LoadOptions.wakeGranularityText(us)).isEqualTo(text);
        assertThat(LoadOptions.parseWakeGranularityUs(text)).isEqualTo(us);

        LoadSpec spec = LoadSpec.of(URI.create("http://127.0.0.1:1/hello"),
                new LoadModel.OpenLoop(1_000, LoadModel.InterArrival.CONSTANT)).toBuilder().wakeGranularityUs(us).build();
        RunSummary summary = RunSummary.builder().spec(spec).startedAt(Instant.EPOCH).measuredSec(1)
                .generatorCost(new RunSummary.GeneratorCost(1, 1, 1, 1, 0, 1)).evidence(List.of())
                .wakeGranularityMs(Math.max(us, 1) / 1_000.0).build();
        StringWriter out = new StringWriter();
        SummaryTable.print(summary, new PrintWriter(out));

        assertThat(out.toString()).contains("(--wake-granularity " + text + ")");
    }
}
