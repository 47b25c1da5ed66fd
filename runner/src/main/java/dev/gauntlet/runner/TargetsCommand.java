package dev.gauntlet.runner;

import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.api.TargetCatalogue.TargetEntry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;

/** {@code gauntlet targets}: the catalogue as a table. */
@Command(name = "targets", mixinStandardHelpOptions = true,
        description = "List every target: name, technology, version, API, handler style and what it does.",
        footer = {"", "Example:", "  ./gauntlet targets"})
final class TargetsCommand implements Runnable {
    private static final String FORMAT = "%-32s %-10s %-14s %-10s %-15s %s%n";

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        TargetCatalogue catalogue = TargetCatalogue.builtIn();
        List<TargetEntry> targets = catalogue.targets();
        PrintWriter out = spec.commandLine().getOut();
        out.printf(FORMAT, "name", "technology", "version", "api", "style", "description");
        for (TargetEntry t : targets) {
            out.printf(FORMAT, t.name(), t.technology(), catalogue.technology(t.technology()).version(), t.api(),
                    t.style().label(), t.description());
        }
        out.printf("%n%d targets. Start one with: ./gauntlet target NAME%n", targets.size());
    }
}
