package dev.gauntlet.runner.cli;

import dev.gauntlet.runner.site.SiteWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;
import java.util.List;

/** {@code gauntlet site RESULTS... --out DIR}: one offline site of many results directories, and their histories. */
@Command(name = "site", mixinStandardHelpOptions = true,
        description = "Build one offline site from results directories: each study's answer first, a page per target and"
                + " per client with its figures over commits and versions, changes beyond the noise marked.",
        footer = {"", "The site is static: open DIR/index.html in a browser, no server and no network.",
                "A directory that is not results, was written in a later format, or repeats a run",
                "given before is left out with one line, and the site names it; exit 2 only when",
                "none of them reads. DIR must be empty, new, or a site written before (replaced).",
                "A change is marked where a figure moved beyond the noise of the runs before it and",
                "the next run stayed there (its interval over forks excludes no change); a last",
                "run beyond it is a latest change, to be confirmed. Runs of one fork decide a",
                "change only with two runs on each side: run with --forks 3 or more.",
                "", "Examples:",
                "  ./gauntlet site results/quick-* --out site",
                "  ./gauntlet site results/server-20261206-162059 results/server-20261207-* --out /tmp/server-site"})
final class SiteCommand implements Runnable {
    @Parameters(paramLabel = "RESULTS", arity = "1..*", description = "results directories that ./gauntlet run wrote, any suites, any commits")
    List<Path> resultsDirs;

    @Option(names = "--out", paramLabel = "DIR", defaultValue = "site", description = "where the site is written (default: ${DEFAULT-VALUE})")
    Path out;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().getOut().println(SiteWriter.write(resultsDirs, out, System.err));
    }
}
