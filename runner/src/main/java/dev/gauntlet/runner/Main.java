package dev.gauntlet.runner;

import dev.gauntlet.loadgen.LoadCommand;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.cli.GauntletCommand;
import dev.gauntlet.runner.execution.ClientLoad;
import dev.gauntlet.runner.kubernetes.KubernetesLoad;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.util.Optional;

/**
 * The {@code gauntlet} command line. Exit codes: 0 done, 1 an internal error (a bug: with its
 * stack trace), 2 a problem the user can fix (one line saying what is wrong and what to do).
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) {
        System.exit(execute(args));
    }

    public static int execute(String... args) {
        Optional<String> client = ClientLoad.clientOf(args);
        if (client.isPresent()) {
            try {
                return ClientLoad.run(args, client.get());
            } catch (UserError e) {
                System.err.println("gauntlet: " + e.getMessage());
                return 2;
            }
        }
        CommandLine cli = new CommandLine(new GauntletCommand(), Main::create);
        cli.setParameterExceptionHandler(Main::badArguments);
        cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
            if (e instanceof UserError) {
                commandLine.getErr().println("gauntlet: " + e.getMessage());
                return 2;
            }
            commandLine.getErr().println("gauntlet: internal error, please report it: " + e);
            e.printStackTrace(commandLine.getErr());
            return 1;
        });
        return cli.execute(args);
    }

    /** Every subcommand as picocli makes it, but {@code load}, which runs {@code --kubernetes} through the runner's client. */
    private static <K> K create(Class<K> type) throws Exception {
        return type == LoadCommand.class ? type.cast(new LoadCommand(new KubernetesLoad()))
                : CommandLine.defaultFactory().create(type);
    }

    /** A wrong flag or value: one line naming it and the help to read, exit code 2. */
    private static int badArguments(CommandLine.ParameterException e, String[] args) {
        CommandLine command = e.getCommandLine();
        PrintWriter err = command.getErr();
        err.println("gauntlet: " + e.getMessage() + " (see '" + command.getCommandSpec().qualifiedName() + " --help')");
        return 2;
    }
}
