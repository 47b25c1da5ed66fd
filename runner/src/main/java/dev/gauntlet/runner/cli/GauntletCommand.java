package dev.gauntlet.runner.cli;

import dev.gauntlet.loadgen.LoadCommand;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

/** The top-level command: lists the subcommands. */
@Command(name = "gauntlet", mixinStandardHelpOptions = true, usageHelpAutoWidth = true, version = "gauntlet 0.1.0",
        description = "Fair, reproducible benchmarks of JVM HTTP servers and clients under high concurrency.",
        subcommands = {RunCommand.class, SuitesCommand.class, ReportCommand.class, CompareCommand.class, ContrastCommand.class, LoadCommand.class,
                SiteCommand.class, TargetCommand.class, TargetsCommand.class, ClientsCommand.class},
        footer = {"", "Examples:", "  ./gauntlet run                                  the quick suite: a table and a results directory",
                "  ./gauntlet suites                               the study suites and their times here",
                "  ./gauntlet report results/quick-...             its report.html",
                "  ./gauntlet compare BASE NEW --fail-on p99=+10%%  exit 3 if worse",
                "  ./gauntlet contrast DIR --scenario slow A B     whether A and B differ, over forks",
                "  ./gauntlet site results/quick-* --out site      one offline site of many runs, their histories",
                "  ./gauntlet load http://127.0.0.1:8080/hello --rate 1000 --duration 10s",
                "  ./gauntlet load http://127.0.0.1:8080/hello --rate 1000 --client okhttp-virtual",
                "  ./gauntlet target jetty-handler-virtual         start one target by hand",
                "  ./gauntlet targets                              list every target",
                "  ./gauntlet clients                              list every client library engine"})
public final class GauntletCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }
}
