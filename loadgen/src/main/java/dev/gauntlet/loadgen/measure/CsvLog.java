package dev.gauntlet.loadgen.measure;

import dev.gauntlet.loadgen.failure.GeneratorException;

import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The file under a per-interval log of this package ({@link ErrorLog}'s {@code errors.csv}, {@link TrafficLog}'s
 * {@code traffic.csv}): a comment line, a header line, then a line an interval, each written with '\n' whatever the
 * platform and flushed at once, so the file is what a run that dies leaves behind. Read back, lines starting with
 * {@code #} and blank lines are skipped.
 */
final class CsvLog implements AutoCloseable {
    private final PrintStream out;

    /** A line of a file as read: its text and where it stands ({@code file:line}), for an error that names it. */
    record Line(String text, String where) {
    }

    /** Creates {@code file} with {@code comment} (a whole line, its {@code #} included) and {@code header}. */
    CsvLog(Path file, String comment, String header) {
        try {
            out = new PrintStream(new FileOutputStream(file.toFile()), false, StandardCharsets.UTF_8);
        } catch (FileNotFoundException e) {
            throw new GeneratorException("cannot write " + file + ": " + e.getMessage());
        }
        writeLine(comment);
        writeLine(header);
    }

    void writeLine(String line) {
        out.print(line);
        out.print('\n');
        out.flush();
    }

    @Override
    public void close() {
        out.close();
    }

    /** The lines of {@code file} that are neither comments nor blank, header first; none when there is no such file. */
    static List<Line> lines(Path file) throws IOException {
        if (!Files.exists(file)) {
            return List.of();
        }
        List<Line> lines = new ArrayList<>();
        List<String> all = Files.readAllLines(file, StandardCharsets.UTF_8);
        for (int i = 0; i < all.size(); i++) {
            String line = all.get(i);
            if (!line.startsWith("#") && !line.isBlank()) {
                lines.add(new Line(line, file + ":" + (i + 1)));
            }
        }
        return lines;
    }
}
