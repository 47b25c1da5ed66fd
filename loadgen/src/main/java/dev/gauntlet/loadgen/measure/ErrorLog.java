package dev.gauntlet.loadgen.measure;

import dev.gauntlet.api.ErrorClass;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * A run's errors per interval of the measured phase, by class ({@code errors.csv}), one line per
 * interval at the tick that writes the HdrHistogram interval logs, each line flushed as it is
 * written, so a run that dies keeps what it measured.
 *
 * <pre>{@code
 * try (ErrorLog log = new ErrorLog(new RunDirectory(dir).errors(), description)) {
 *     log.write(0.0, 1.001, intervalErrors);                   // interval thread, once a second
 * }
 * List<ErrorLog.Interval> intervals = ErrorLog.read(file);     // empty when there is no file
 * ErrorLog.merge(childFiles, mergedFile, "merged from 2 generator processes");
 * }</pre>
 *
 * <p>The format, which the report reads:
 * <pre>
 * # errors per interval of the measured phase, by class; DESCRIPTION
 * startSec,lengthSec,REFUSED,CONNECT_TIMEOUT,...        every ErrorClass, in declaration order
 * 0.000,1.001,0,0,3,0,0,0,0,0,0
 * </pre>
 * {@code startSec} is from the start of the measured phase (the interval logs' start time) to the
 * interval's start; both times have three decimals. Lines starting with {@code #} are comments.
 * One writer at a time: the interval thread, then the thread that ends the run.
 */
public final class ErrorLog implements AutoCloseable {
    private static final String COMMENT_PREFIX = "# errors per interval of the measured phase, by class; ";
    static final String HEADER = "startSec,lengthSec,"
            + Arrays.stream(ErrorClass.values()).map(ErrorClass::name).collect(Collectors.joining(","));
    private static final int TIME_COLUMNS = 2;

    /** One line: an interval and the errors counted in it, every class present (0 when not given). */
    public record Interval(double startSec, double lengthSec, Map<ErrorClass, Long> errors) {
        public Interval {
            Map<ErrorClass, Long> all = zeros();
            all.putAll(errors);
            errors = Collections.unmodifiableMap(all);
        }
    }

    private final CsvLog file;

    ErrorLog(Path file, String description) {
        this.file = new CsvLog(file, COMMENT_PREFIX + description, HEADER);
    }

    /** One interval's line; a class missing from {@code errors} is written as 0. */
    void write(double startSec, double lengthSec, Map<ErrorClass, Long> errors) {
        StringBuilder line = new StringBuilder(64).append(String.format(Locale.ROOT, "%.3f,%.3f", startSec, lengthSec));
        for (ErrorClass errorClass : ErrorClass.values()) {
            line.append(',').append(errors.getOrDefault(errorClass, 0L));
        }
        file.writeLine(line.toString());
    }

    @Override
    public void close() {
        file.close();
    }

    /** The intervals of {@code file} in order; none when there is no such file (a generator older than this log). */
    public static List<Interval> read(Path file) throws IOException {
        List<Interval> intervals = new ArrayList<>();
        ErrorClass[] columns = null;
        for (CsvLog.Line line : CsvLog.lines(file)) {
            String where = line.where();
            String[] fields = line.text().split(",", -1);
            if (columns == null) {
                columns = columns(fields, where);
                continue;
            }
            if (fields.length != TIME_COLUMNS + columns.length) {
                throw new IOException(where + ": " + fields.length + " fields, the header has " + (TIME_COLUMNS + columns.length));
            }
            try {
                Map<ErrorClass, Long> errors = zeros();
                for (int c = 0; c < columns.length; c++) {
                    errors.put(columns[c], Long.parseLong(fields[TIME_COLUMNS + c]));
                }
                intervals.add(new Interval(Double.parseDouble(fields[0]), Double.parseDouble(fields[1]), errors));
            } catch (NumberFormatException e) {
                throw new IOException(where + ": not a number: " + e.getMessage());
            }
        }
        return intervals;
    }

    /**
     * Line k of {@code merged} is the sum of line k of every file, its times those of the first
     * file that has a line k; a missing file adds nothing.
     */
    public static void merge(List<Path> files, Path merged, String description) throws IOException {
        try (ErrorLog log = new ErrorLog(merged, description)) {
            for (Interval sum : LineByLine.sum(files, ErrorLog::read, (sum, each) -> {
                Map<ErrorClass, Long> errors = new EnumMap<>(sum.errors());
                each.errors().forEach((errorClass, count) -> errors.merge(errorClass, count, Long::sum));
                return new Interval(sum.startSec(), sum.lengthSec(), errors);
            })) {
                log.write(sum.startSec(), sum.lengthSec(), sum.errors());
            }
        }
    }

    /** Every class at 0, in declaration order. */
    public static Map<ErrorClass, Long> zeros() {
        Map<ErrorClass, Long> zeros = new EnumMap<>(ErrorClass.class);
        for (ErrorClass errorClass : ErrorClass.values()) {
            zeros.put(errorClass, 0L);
        }
        return zeros;
    }

    /** The error classes the header names, in its order; a file may name them in another order than this build. */
    private static ErrorClass[] columns(String[] header, String where) throws IOException {
        if (header.length < TIME_COLUMNS || !header[0].equals("startSec") || !header[1].equals("lengthSec")) {
            throw new IOException(where + ": expected the header startSec,lengthSec,<error classes>, got " + String.join(",", header));
        }
        ErrorClass[] columns = new ErrorClass[header.length - TIME_COLUMNS];
        for (int c = 0; c < columns.length; c++) {
            try {
                columns[c] = ErrorClass.valueOf(header[TIME_COLUMNS + c]);
            } catch (IllegalArgumentException e) {
                throw new IOException(where + ": unknown error class " + header[TIME_COLUMNS + c]);
            }
        }
        return columns;
    }
}
