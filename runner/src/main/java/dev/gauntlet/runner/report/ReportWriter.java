package dev.gauntlet.runner.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.runner.base.UserError;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.Optional;

/**
 * Writes {@code report.html} into a results directory — by {@code ./gauntlet report DIR}, and by
 * {@code ./gauntlet run} at the end of every suite:
 *
 * <pre>
 * Path page = ReportWriter.write(Path.of("results/quick-20261123-172424")); // .../report.html
 * </pre>
 *
 * A directory that is not a results directory is a {@link UserError}. A file in it that does not read (a
 * truncated {@code summary.json}, say) costs the page only what that file held: the page names it, and so does
 * a line on stderr per file.
 */
public final class ReportWriter {
    public static final String FILE_NAME = "report.html";

    private ReportWriter() {
    }

    public static Path write(Path resultsDir) {
        ObjectNode data = ReportData.readWhatItCan(resultsDir);
        for (JsonNode file : data.path("unreadable")) {
            System.err.println("gauntlet: report: cannot read " + resultsDir.resolve(file.path("file").asText()) + " ("
                    + file.path("problem").asText() + "); the page leaves it out and names it");
        }
        data.put("kind", "report");
        data.put("generatedAt", Instant.now().toString());
        String title = "gauntlet report: " + data.path("suite").path("name").asText(resultsDir.getFileName().toString());
        return writePage(resultsDir.resolve(FILE_NAME), HtmlPage.render(title, data));
    }

    /** The report page; a report that cannot be written costs the measured results nothing, and says how to retry. */
    public static Optional<Path> tryWrite(Path resultsDir) {
        try {
            return Optional.of(write(resultsDir));
        } catch (RuntimeException e) {
            System.err.println("gauntlet: the report could not be written (" + e.getMessage() + "); the results are intact:"
                    + " ./gauntlet report " + resultsDir + " tries again");
            return Optional.empty();
        }
    }

    /** Writes via a rename, so a browser never opens half a page. */
    public static Path writePage(Path file, String html) {
        try {
            Path partial = file.resolveSibling(file.getFileName() + ".partial");
            Files.writeString(partial, html, StandardCharsets.UTF_8);
            return Files.move(partial, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UserError("cannot write " + file + ": " + e.getMessage());
        }
    }
}
