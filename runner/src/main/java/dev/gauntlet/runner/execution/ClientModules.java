package dev.gauntlet.runner.execution;

import dev.gauntlet.api.ClientCatalogue;
import dev.gauntlet.api.Protocol;
import dev.gauntlet.api.ProtocolTarget;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.suite.Suite;

import java.io.File;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The client library engines of {@code clients.yaml} as the runner needs them: by name, with their module. */
public final class ClientModules {
    private static final ClientCatalogue CATALOGUE = ClientCatalogue.builtIn();

    private ClientModules() {
    }

    /** The client named {@code name}, or a one-line error listing the clients. */
    static ClientCatalogue.ClientEntry entry(String name) {
        return CATALOGUE.client(name).orElseThrow(() -> new UserError("unknown client '" + name + "'; the clients are "
                + CATALOGUE.names() + " (see ./gauntlet clients)"));
    }

    /**
     * The generator's classpath: its own module's, then, when {@code client} is not null, the module
     * of that client's library (e.g. {@code loadgen-engines/okhttp}), so each library brings its own
     * versions and no two libraries share a process.
     */
    static String generatorClasspath(GauntletHome home, String client) {
        String generator = home.classpathOf(GeneratorLauncher.MODULE);
        return client == null ? generator
                : generator + File.pathSeparator + home.classpathOf(entry(client).library().module());
    }

    /**
     * JVM options a generator with {@code client} needs beyond the role's: a platform thread the JVM
     * cannot start is counted as a {@code NO_THREAD} error, and the JVM's own two warning lines per
     * failure (on stdout) would bury the output and break {@code --json}.
     */
    static List<String> jvmOptions(String client) {
        return client == null ? List.of() : List.of("-Xlog:os+thread=off");
    }

    /**
     * Every client a suite names is known, and speaks the protocol of at least one target it loads (a suite's
     * {@code protocols} make each target {@code NAME@PROTOCOL}), before anything runs: a client runs against the
     * targets whose protocol it speaks alone ({@code RunPlan}), and one that speaks none of them is a one-line error.
     * Returns a line for each target that some of the clients leave out.
     */
    public static List<String> check(Suite suite) {
        List<String> clients = Stream.concat(suite.clients().stream(),
                suite.scenarios().stream().map(Suite.Scenario::client).filter(c -> c != null)).distinct().toList();
        for (String client : clients) {
            ClientCatalogue.Library library = entry(client).library();
            if (suite.targets().stream().noneMatch(target -> library.speaks(protocolOf(target)))) {
                String protocols = Protocol.labels(suite.targets().stream().map(ClientModules::protocolOf).distinct().toList());
                throw new UserError("client " + client + " speaks " + Protocol.labels(library.protocols()) + ", not "
                        + protocols + " (target" + (suite.targets().size() == 1 ? " " : "s ") + String.join(", ", suite.targets())
                        + "): name the targets it can load with --targets NAME@PROTOCOL,... or drop it from "
                        + "--clients (./gauntlet clients lists what each speaks)");
            }
        }
        List<String> notes = new ArrayList<>();
        for (String target : suite.targets()) {
            Protocol protocol = protocolOf(target);
            long leftOut = clients.stream().filter(client -> !entry(client).library().speaks(protocol)).count();
            if (leftOut > 0) {
                notes.add(target + ": " + leftOut + " of " + clients.size() + " clients speak no " + protocol.label()
                        + " and skip it (./gauntlet clients lists what each speaks)");
            }
        }
        return notes;
    }

    private static Protocol protocolOf(String target) {
        return ProtocolTarget.parse(target).protocol();
    }

    public static List<ClientCatalogue.ClientEntry> all() {
        return CATALOGUE.clients();
    }
}
