package dev.gauntlet.runner.execution;

import dev.gauntlet.loadgen.split.GeneratorProcess;
import dev.gauntlet.loadgen.split.JavaCommand;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.base.UserError;

import java.io.IOException;
import java.util.Arrays;
import java.util.Optional;

/**
 * {@code gauntlet load --client NAME}: a client library needs a classpath of its own, which the
 * runner's JVM does not have, so the load runs in a child JVM with the generator's classpath and
 * the library's module; its output, its exit code and a Ctrl-C pass straight through.
 */
public final class ClientLoad {
    static final String LOAD_MAIN = "dev.gauntlet.loadgen.LoadCommand";

    private ClientLoad() {
    }

    /** The client a {@code load} command line names, in {@code --client NAME} or {@code --client=NAME} form. */
    public static Optional<String> clientOf(String[] args) {
        if (args.length == 0 || !args[0].equals("load")) {
            return Optional.empty();
        }
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--client") && i + 1 < args.length) {
                return Optional.of(args[i + 1]);
            }
            if (args[i].startsWith("--client=")) {
                return Optional.of(args[i].substring("--client=".length()));
            }
        }
        return Optional.empty();
    }

    /** Runs {@code load}'s arguments in the child JVM and returns its exit code. */
    public static int run(String[] args, String client) {
        String classpath = ClientModules.generatorClasspath(GauntletHome.fromSystemProperty(), client);
        JavaCommand command = new JavaCommand(ClientModules.jvmOptions(client), classpath, LOAD_MAIN,
                Arrays.asList(args).subList(1, args.length));
        try {
            return GeneratorProcess.startInheritingIo(command).process().waitFor();
        } catch (IOException e) {
            throw new UserError("the generator could not be started: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UserError("interrupted while the generator was running");
        }
    }
}
