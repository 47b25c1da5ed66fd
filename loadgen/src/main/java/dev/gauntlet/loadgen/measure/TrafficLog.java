package dev.gauntlet.loadgen.measure;


import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * A run's traffic second by second ({@code traffic.csv}), warm-up included: the requests in flight and the
 * connections open at each interval's end, the bytes sent and received in it. One line per tick of the interval
 * thread, each flushed as it is written, so a run that dies keeps what it measured.
 *
 * <pre>{@code
 * try (TrafficLog log = TrafficLog.create(new RunDirectory(dir).traffic(), description)) {
 *     log.write(new TrafficLog.Interval(0.0, 1.0, 12, 16L, 4_310L, 9_120L));   // interval thread, once a second
 * }
 * List<TrafficLog.Interval> intervals = TrafficLog.read(file);                 // empty when there is no file
 * TrafficLog.merge(childFiles, mergedFile, "merged from 2 generator processes");
 * }</pre>
 *
 * <p>The format, which the report reads:
 * <pre>
 * # traffic per interval of the run, warm-up included; DESCRIPTION
 * runSec,lengthSec,inFlight,connectionsOpen,bytesSent,bytesReceived
 * 0.000,1.000,12,16,4310,9120
 * 1.000,1.000,9,,,                 a client library's engine: its connections and bytes are not known
 * </pre>
 * {@code runSec} is from the run's start (the warm-up's) to the interval's start, with three decimals; the measured
 * phase starts at the run's warm-up length ({@code summary.json}'s {@code steadiness.warmupMs}, else the spec's).
 */
public final class TrafficLog implements AutoCloseable {
    private static final String COMMENT_PREFIX = "# traffic per interval of the run, warm-up included; ";
    static final String HEADER = "runSec,lengthSec,inFlight,connectionsOpen,bytesSent,bytesReceived";
    private static final int COLUMNS = 6;

    /**
     * One line. {@code connectionsOpen}, {@code bytesSent} and {@code bytesReceived} are null where the engine does not
     * see its sockets.
     */
    public record Interval(double runSec, double lengthSec, long inFlight, Long connectionsOpen, Long bytesSent,
                           Long bytesReceived) {
    }

    private final CsvLog file;

    private TrafficLog(CsvLog file) {
        this.file = file;
    }

    public static TrafficLog create(Path file, String description) {
        return new TrafficLog(new CsvLog(file, COMMENT_PREFIX + description, HEADER));
    }

    public void write(Interval interval) {
        file.writeLine(String.format(Locale.ROOT, "%.3f,%.3f,%d,%s,%s,%s", interval.runSec(), interval.lengthSec(),
                interval.inFlight(), field(interval.connectionsOpen()), field(interval.bytesSent()),
                field(interval.bytesReceived())));
    }

    @Override
    public void close() {
        file.close();
    }

    /** The intervals of {@code file} in order; none when there is no such file (a generator older than this log). */
    public static List<Interval> read(Path file) throws IOException {
        List<Interval> intervals = new ArrayList<>();
        boolean headerSeen = false;
        for (CsvLog.Line csvLine : CsvLog.lines(file)) {
            String line = csvLine.text();
            String where = csvLine.where();
            if (!headerSeen) {
                if (!line.equals(HEADER)) {
                    throw new IOException(where + ": expected the header " + HEADER + ", got " + line);
                }
                headerSeen = true;
                continue;
            }
            String[] fields = line.split(",", -1);
            if (fields.length != COLUMNS) {
                throw new IOException(where + ": " + fields.length + " fields, the header has " + COLUMNS);
            }
            try {
                intervals.add(new Interval(Double.parseDouble(fields[0]), Double.parseDouble(fields[1]),
                        Long.parseLong(fields[2]), parsed(fields[3]), parsed(fields[4]), parsed(fields[5])));
            } catch (NumberFormatException e) {
                throw new IOException(where + ": not a number: " + e.getMessage());
            }
        }
        return intervals;
    }

    /**
     * Line k of {@code merged} is the sum of line k of every file, its times those of the first file that has a line
     * k; a figure one of them does not know is not known in the sum. A missing file adds nothing.
     */
    public static void merge(List<Path> files, Path merged, String description) throws IOException {
        try (TrafficLog log = create(merged, description)) {
            for (Interval sum : LineByLine.sum(files, TrafficLog::read, (sum, each) -> new Interval(sum.runSec(), sum.lengthSec(),
                    sum.inFlight() + each.inFlight(), plus(sum.connectionsOpen(), each.connectionsOpen()),
                    plus(sum.bytesSent(), each.bytesSent()), plus(sum.bytesReceived(), each.bytesReceived())))) {
                log.write(sum);
            }
        }
    }

    private static Long plus(Long a, Long b) {
        return a == null || b == null ? null : a + b;
    }

    private static String field(Long value) {
        return value == null ? "" : value.toString();
    }

    private static Long parsed(String field) {
        return field.isEmpty() ? null : Long.parseLong(field);
    }
}
