package dev.gauntlet.loadgen.measure;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TrafficLogTest {

    @Test
    void linesReadBackAsWrittenAFigureNotKnownStayingUnknown(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("traffic.csv");
        List<TrafficLog.Interval> written = List.of(new TrafficLog.Interval(0, 1.001, 12, 16L, 4_310L, 9_120L),
                new TrafficLog.Interval(1.001, 0.999, 9, null, null, null));
        try (TrafficLog log = TrafficLog.create(file, "open loop 200/s http://127.0.0.1:1/hello")) {
            written.forEach(log::write);
        }

        assertThat(Files.readAllLines(file, StandardCharsets.UTF_8)).containsExactly(
                "# traffic per interval of the run, warm-up included; open loop 200/s http://127.0.0.1:1/hello",
                "runSec,lengthSec,inFlight,connectionsOpen,bytesSent,bytesReceived",
                "0.000,1.001,12,16,4310,9120", "1.001,0.999,9,,,");
        assertThat(TrafficLog.read(file)).isEqualTo(written);
        assertThat(TrafficLog.read(dir.resolve("missing.csv"))).as("a generator older than the log").isEmpty();
    }

    @Test
    void mergedLineKIsTheSumOfEveryFilesLineK(@TempDir Path dir) throws IOException {
        Path first = dir.resolve("p1.csv");
        Path second = dir.resolve("p2.csv");
        try (TrafficLog log = TrafficLog.create(first, "p1")) {
            log.write(new TrafficLog.Interval(0, 1, 3, 4L, 100L, 200L));
            log.write(new TrafficLog.Interval(1, 1, 2, 4L, 50L, 60L));
        }
        try (TrafficLog log = TrafficLog.create(second, "p2")) {
            log.write(new TrafficLog.Interval(0.002, 0.998, 5, 6L, 10L, 20L));
        }

        TrafficLog.merge(List.of(first, second, dir.resolve("p3.csv")), dir.resolve("traffic.csv"), "merged");

        assertThat(TrafficLog.read(dir.resolve("traffic.csv"))).containsExactly(
                new TrafficLog.Interval(0, 1, 8, 10L, 110L, 220L), new TrafficLog.Interval(1, 1, 2, 4L, 50L, 60L));
    }

    @Test
    void aBrokenLineNamesItsFileAndLine(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("traffic.csv"),
                "runSec,lengthSec,inFlight,connectionsOpen,bytesSent,bytesReceived\n0.000,1.000,x,1,2,3\n");
        assertThatThrownBy(() -> TrafficLog.read(file)).isInstanceOf(IOException.class).hasMessageContaining("traffic.csv:2");
    }
}
