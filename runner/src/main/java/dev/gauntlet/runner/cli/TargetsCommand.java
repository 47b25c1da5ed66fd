package dev.gauntlet.runner.cli;

import dev.gauntlet.api.Protocol;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.api.TargetCatalogue.TargetEntry;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;

/** {@code gauntlet targets}: the catalogue as a table. */
@Command(name = "targets", mixinStandardHelpOptions = true,
        description = "List every target: name, technology, version, API, handler style, the protocols it serves and"
                + " its TLS provider, what bounds the requests it holds at once (its concurrency cap) and what it does.",
        footer = {"", "Example:", "  ./gauntlet targets", "",
                "Protocols: http1 (cleartext HTTP/1.1), https1 (./gauntlet target NAME --tls self-signed), h2 (--tls"
                        + " self-signed --http2: HTTP/2 by ALPN), h2c (--http2: HTTP/2 with prior knowledge). A suite's"
                        + " protocols run each target as NAME@PROTOCOL."})
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
        int tlsWidth = targets.stream().mapToInt(t -> tls(catalogue, t).length()).max().orElse(0);
        String format = "%-32s %-" + Math.max(10, technologyWidth) + "s %-14s %-10s %-15s %-22s %-" + tlsWidth + "s %-"
                + capWidth + "s %s%n";
        out.printf(format, "name", "technology", "version", "api", "style", "protocols", "tls", "concurrency cap",
                "description");
        for (TargetEntry t : targets) {
            out.printf(format, t.name(), t.technology(), catalogue.technology(t.technology()).version(), t.api(),
                    t.style().label(), Protocol.labels(t.protocols()),
                    tls(catalogue, t), cap(t), t.description());
        }
        out.printf("%n%d targets. Start one with: ./gauntlet target NAME%n", targets.size());
    }

    /** The TLS provider, its first words (the catalogue's note after ';' is for the docs); {@code -} without TLS. */
    private static String tls(TargetCatalogue catalogue, TargetEntry target) {
        String provider = catalogue.technology(target.technology()).tlsProvider();
        return provider == null || !target.serves(Protocol.HTTPS1) ? "-" : provider.split(";")[0].trim();
    }

    private static String cap(TargetEntry target) {
        return target.concurrencyCap() == null ? MACHINE : target.concurrencyCap();
    }
}
