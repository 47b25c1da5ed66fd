package dev.gauntlet.runner.cli;

import dev.gauntlet.runner.report.ReportWriter;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.nio.file.Path;

/** {@code gauntlet report DIR}: (re)writes a results directory's {@code report.html}. */
@Command(name = "report", mixinStandardHelpOptions = true,
        description = "Write DIR/report.html: one offline page with the suite's charts (rebuilds the page ./gauntlet run writes).",
        footer = {"", "Example:", "  ./gauntlet report results/quick-20261123-172424"})
final class ReportCommand implements Runnable {
    @Parameters(paramLabel = "DIR", description = "a results directory that ./gauntlet run wrote, complete or interrupted")
    Path resultsDir;

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().getOut().println(ReportWriter.write(resultsDir));
    }
}
