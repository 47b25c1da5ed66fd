package dev.gauntlet.runner.cli;

import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.api.TargetCatalogue.TargetEntry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;

/** {@code gauntlet targets}: the catalogue as a table. */
@Command(name = "targets", mixinStandardHelpOptions = true,
        description = "List every target: name, technology, version, API, handler style, what bounds the"
                + " requests it holds at once (its concurrency cap) and what it does.",
        footer = {"", "Example:", "  ./gauntlet targets"})
final class TargetsCommand implements Runnable {
    /** The cap column when only the machine (open files, ports, CPU, memory) bounds the held requests. */
    private static final String MACHINE = "the machine";

    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        TargetCatalogue catalogue = TargetCatalogue.builtIn();
        List<TargetEntry> targets = catalogue.targets();
        PrintWriter out = spec.commandLine().getOut();
        int capWidth = targets.stream().mapToInt(t -> cap(t).length()).max().orElse(0);
        int technologyWidth = targets.stream().mapToInt(t -> t.technology().length()).max().orElse(0);
        String format = "%-32s %-" + Math.max(10, technologyWidth) + "s %-14s %-10s %-15s %-" + capWidth + "s %s%n";
        out.printf(format, "name", "technology", "version", "api", "style", "concurrency cap", "description");
        for (TargetEntry t : targets) {
            out.printf(format, t.name(), t.technology(), catalogue.technology(t.technology()).version(), t.api(),
                    t.style().label(), cap(t), t.description());
        }
        out.printf("%n%d targets. Start one with: ./gauntlet target NAME%n", targets.size());
    }

    private static String cap(TargetEntry target) {
        return target.concurrencyCap() == null ? MACHINE : target.concurrencyCap();
    }
}
