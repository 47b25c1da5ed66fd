package dev.gauntlet.runner.cli;

import dev.gauntlet.api.ClientCatalogue.ClientEntry;
import dev.gauntlet.api.Protocol;
import dev.gauntlet.runner.execution.ClientModules;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

import java.io.PrintWriter;
import java.util.List;

/** {@code gauntlet clients}: the client catalogue as a table. */
@Command(name = "clients", mixinStandardHelpOptions = true,
        description = "List every client library engine of the generator: name, library, version, mode (platform: "
                + "its blocking call on a platform thread per request; virtual: on a virtual thread per request; "
                + "async: its own async API), the protocols it speaks (http1, https1, h2, h2c) and the API used.",
        footer = {"", "Examples:", "  ./gauntlet clients",
                "  ./gauntlet load http://127.0.0.1:8080/hello?wait=100 --rate 1000 --client okhttp-virtual",
                "  ./gauntlet load https://127.0.0.1:8443/hello --http2 --insecure --rate 1000 --client jetty-async",
                "  ./gauntlet run --suite client --clients jdk-platform,jdk-virtual,jdk-async"})
final class ClientsCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Override
    public void run() {
        List<ClientEntry> clients = ClientModules.all();
        PrintWriter out = spec.commandLine().getOut();
        String format = "%-19s %-28s %-8s %-9s %-22s %s%n";
        out.printf(format, "name", "library", "version", "mode", "protocols", "how it sends");
        for (ClientEntry c : clients) {
            out.printf(format, c.name(), c.library().title(), c.library().version(), c.mode().id(),
                    Protocol.labels(c.library().protocols()), c.describe());
        }
        long libraries = clients.stream().map(c -> c.library().id()).distinct().count();
        out.printf("%n%d clients of %d libraries.%n", clients.size(), libraries);
        clients.stream().map(c -> c.library()).distinct().filter(l -> l.note() != null)
                .forEach(l -> out.printf("%s: %s%n", l.title(), l.note()));
        out.printf("Use one with: ./gauntlet load URL --client NAME, or a suite's clients.%n");
    }
}
