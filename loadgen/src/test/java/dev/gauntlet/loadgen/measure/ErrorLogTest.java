package dev.gauntlet.loadgen.measure;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.RunDirectory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ErrorLogTest {
    @Test
    void linesAreWrittenAsTheyComeAndReadBack(@TempDir Path dir) throws Exception {
        Path file = new RunDirectory(dir).errors();
        Locale before = Locale.getDefault();
        // A decimal comma where the default locale has one would break the CSV.
        Locale.setDefault(Locale.GERMANY);
        try (ErrorLog log = new ErrorLog(file, "open loop 100/s -> http://127.0.0.1:1/hello")) {
            log.write(0, 1.0014, Map.of(ErrorClass.RESET, 3L));
            // Flushed line by line: what a run that dies now leaves behind.
            assertThat(Files.readAllLines(file)).hasSize(3).last().asString().startsWith("0.000,1.001,0,0,3,");
            log.write(1.001, 0.9996, Map.of(ErrorClass.BAD_STATUS, 2L, ErrorClass.PROTOCOL, 1L));
        } finally {
            Locale.setDefault(before);
        }

        List<String> lines = Files.readAllLines(file);
        assertThat(lines.get(0)).isEqualTo("# errors per interval of the measured phase, by class; "
                + "open loop 100/s -> http://127.0.0.1:1/hello");
        assertThat(lines.get(1)).startsWith("startSec,lengthSec,REFUSED,CONNECT_TIMEOUT,RESET,RESPONSE_TIMEOUT,BAD_STATUS,")
                .isEqualTo(ErrorLog.HEADER);
        assertThat(lines.get(2).split(",")).hasSize(2 + ErrorClass.values().length);
        assertThat(lines.get(3)).startsWith("1.001,1.000,0,0,0,0,2,0,1,");
        Map<ErrorClass, Long> second = ErrorLog.zeros();
        second.put(ErrorClass.BAD_STATUS, 2L);
        second.put(ErrorClass.PROTOCOL, 1L);
        assertThat(ErrorLog.read(file)).containsExactly(
                new ErrorLog.Interval(0, 1.001, withReset(3)), new ErrorLog.Interval(1.001, 1.0, second));
    }

    @Test
    void aReaderTakesTheColumnsByTheirNamesAndSkipsComments(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(new RunDirectory(dir).errors(), """
                # written by a generator that listed fewer classes, in another order
                startSec,lengthSec,RESET,REFUSED
                # a comment between the lines
                0.000,1.000,4,1
                """);
        Map<ErrorClass, Long> expected = withReset(4);
        expected.put(ErrorClass.REFUSED, 1L);
        assertThat(ErrorLog.read(file)).containsExactly(new ErrorLog.Interval(0, 1, expected));
    }

    @Test
    void noFileIsNoIntervalsAndABrokenLineSaysWhere(@TempDir Path dir) throws Exception {
        assertThat(ErrorLog.read(dir.resolve("absent.csv"))).isEmpty();

        Path shortLine = Files.writeString(dir.resolve("short.csv"), "startSec,lengthSec,RESET\n0.000,1.000\n");
        assertThatThrownBy(() -> ErrorLog.read(shortLine)).isInstanceOf(IOException.class)
                .hasMessage(shortLine + ":2: 2 fields, the header has 3");
        Path unknown = Files.writeString(dir.resolve("unknown.csv"), "startSec,lengthSec,TEAPOT\n");
        assertThatThrownBy(() -> ErrorLog.read(unknown)).isInstanceOf(IOException.class)
                .hasMessage(unknown + ":1: unknown error class TEAPOT");
    }

    private static Map<ErrorClass, Long> withReset(long resets) {
        Map<ErrorClass, Long> errors = ErrorLog.zeros();
        errors.put(ErrorClass.RESET, resets);
        return errors;
    }
}
