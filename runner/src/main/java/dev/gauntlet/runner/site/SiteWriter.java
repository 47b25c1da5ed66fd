package dev.gauntlet.runner.site;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.report.HtmlPage;
import dev.gauntlet.runner.report.ReportWriter;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Writes a site into a directory of its own ({@link SitePaths}): the front page, a page per target and per client, a
 * page per 2014–2016 study ({@link SeedStudies}), and
 * each run's report, drawn again beside them so that the site is whole wherever it is copied (a report's raw files stay
 * in its results directory, linked from the copy by their path relative to it). Each page is one offline file, as a
 * report is ({@link HtmlPage}).
 *
 * <p>The directory must be empty or hold a site (its {@value #MARK} file), whose pages are replaced: a site is never
 * written over anything else.
 */
public final class SiteWriter {
    static final String MARK = ".gauntlet-site";

    private SiteWriter() {
    }

    /**
     * Builds the site of {@code resultsDirs} in {@code out}, saying on {@code progress} what it read, left out and
     * wrote; the front page's path. A {@link UserError} when none of them reads.
     */
    public static Path write(List<Path> resultsDirs, Path out, PrintStream progress) {
        progress.println("site: reading " + resultsDirs.size() + " results director" + (resultsDirs.size() == 1 ? "y" : "ies") + " ...");
        SiteInputs inputs = SiteInputs.read(resultsDirs);
        inputs.leftOut().forEach(left -> progress.println("site: left out " + left.line()));
        if (inputs.runs().isEmpty()) {
            throw new UserError("none of the " + resultsDirs.size() + " directories given reads as results (each said why"
                    + " above): give directories ./gauntlet run wrote");
        }
        prepare(out);
        SitePages pages = new SitePages(inputs);
        String generatedAt = Instant.now().toString();
        write(out.resolve(SitePaths.FRONT), "gauntlet: results", pages.front(), generatedAt);
        for (Map.Entry<String, Boolean> entry : pages.entries().entrySet()) {
            write(out.resolve(SitePaths.entry(entry.getValue(), entry.getKey())), "gauntlet: " + entry.getKey(),
                    pages.entry(entry.getKey(), entry.getValue()), generatedAt);
        }
        for (String seed : pages.seeds()) {
            write(out.resolve(SitePaths.seed(seed)), "gauntlet: the " + seed + " study", pages.seed(seed), generatedAt);
        }
        for (StudyRun run : inputs.runs()) {
            Path report = out.resolve(SitePaths.report(run.id()));
            ObjectNode data = run.data().deepCopy();
            data.put("kind", "report");
            data.put("generatedAt", generatedAt);
            data.put("filesBase", report.getParent().toAbsolutePath().relativize(run.dir().toAbsolutePath().normalize()) + "/");
            createDirectories(report.getParent());
            ReportWriter.writePage(report, HtmlPage.render("gauntlet report: " + run.suite() + " at " + run.shortCommit(), data));
        }
        progress.println("site: wrote " + (1 + pages.entries().size() + pages.seeds().size()) + " pages and " + inputs.runs().size()
                + " reports to " + out + (inputs.leftOut().isEmpty() ? "" : "; " + inputs.leftOut().size()
                + " director" + (inputs.leftOut().size() == 1 ? "y" : "ies") + " left out, named on its front page"));
        return out.resolve(SitePaths.FRONT);
    }

    private static void write(Path file, String title, ObjectNode data, String generatedAt) {
        data.put("generatedAt", generatedAt);
        createDirectories(file.getParent());
        ReportWriter.writePage(file, HtmlPage.render(HtmlPage.Template.SITE, title, data));
    }

    /** An empty directory to write into: created, or a site's emptied of its pages; anything else refused. */
    private static void prepare(Path out) {
        if (Files.exists(out) && !Files.isDirectory(out)) {
            throw new UserError(out + " is a file, not a directory: give --out a directory for the site");
        }
        if (Files.isDirectory(out)) {
            try (Stream<Path> entries = Files.list(out)) {
                if (entries.findAny().isPresent() && !Files.exists(out.resolve(MARK))) {
                    throw new UserError(out + " is not empty and holds no site: give --out an empty or new directory,"
                            + " or one a site was written to");
                }
            } catch (IOException e) {
                throw new UserError("cannot read " + out + ": " + e.getMessage());
            }
            try (Stream<Path> old = Files.walk(out)) {
                old.sorted(Comparator.reverseOrder()).filter(path -> !path.equals(out)).forEach(SiteWriter::delete);
            } catch (IOException e) {
                throw new UserError("cannot empty the site in " + out + ": " + e.getMessage());
            }
        }
        createDirectories(out);
        try {
            Files.writeString(out.resolve(MARK), "A site ./gauntlet site wrote; the next one written here replaces it.\n");
        } catch (IOException e) {
            throw new UserError("cannot write into " + out + ": " + e.getMessage());
        }
    }

    private static void delete(Path path) {
        try {
            Files.delete(path);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void createDirectories(Path dir) {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UserError("cannot create " + dir + ": " + e.getMessage());
        }
    }
}
