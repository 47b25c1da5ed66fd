package dev.gauntlet.runner.cli;

import dev.gauntlet.api.AdminToken;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.execution.ProcessStopper;
import dev.gauntlet.runner.execution.TargetLauncher;
import dev.gauntlet.runner.execution.TargetProcess;
import dev.gauntlet.runner.isolation.PlacedProcess;
import dev.gauntlet.runner.isolation.RolePlacement;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/**
 * {@code gauntlet target NAME}: one target in the foreground, its output on the terminal, until
 * Ctrl-C. However the runner ends (SIGTERM, SIGINT, SIGHUP, even SIGKILL: the target watches it), the
 * target JVM ends with it.
 */
@Command(name = "target", mixinStandardHelpOptions = true,
        description = "Start one target by hand. It prints READY port=P admin=A; Ctrl-C stops it.",
        footer = {"", "Examples:", "  ./gauntlet target dummy --port 8080",
                "  curl 'http://127.0.0.1:8080/hello?wait=100'      # the contract",
                "  ./gauntlet target jetty-handler-sync --port 8443 --tls self-signed --http2",
                "  curl --cacert PEM --http2 https://127.0.0.1:8443/hello   # PEM: the path it printed as TLS certificate=",
                "  ./gauntlet target jetty-handler-sync --also h2,h2c   # and ALSO h2 port=P, ALSO h2c port=Q: one JVM, for trying",
                "  ./gauntlet target netty-event-loop --port 8443 --tls self-signed --http3   # HTTP/3 on UDP 8443, HTTPS/1.1 on TCP 8443",
                "  curl http://127.0.0.1:ADMIN/stats                 # started, completed, inFlight, maxInFlight, errors",
                "  curl -X POST -H \"Authorization: Bearer $(cat ~/.gauntlet/admin-token)\" http://127.0.0.1:ADMIN/stats/reset",
                "",
                "A reset needs the admin token: $GAUNTLET_ADMIN_TOKEN if set, else ~/.gauntlet/admin-token (made on first use,",
                "readable by you only), which ./gauntlet load --admin reads the same way. The admin port binds 127.0.0.1",
                "whatever --bind says, unless --admin-bind says otherwise."})
final class TargetCommand implements Callable<Integer> {

    @Parameters(paramLabel = "NAME", description = "a target from ./gauntlet targets")
    String name;

    @Option(names = "--bind", paramLabel = "ADDRESS", description = "the serving port's address (default: 127.0.0.1)")
    String bind;

    @Option(names = "--admin-bind", paramLabel = "ADDRESS", description = "the admin port's address (default: 127.0.0.1)")
    String adminBind;

    @Option(names = "--port", description = "serving port (default: 0, any free port)")
    Integer port;

    @Option(names = "--admin-port", description = "admin port (default: 0, any free port)")
    Integer adminPort;

    @Option(names = "--workers", description = "platform worker threads at most (default: 10000)")
    Integer workers;

    @Option(names = "--io-threads", description = "I/O threads (default: the number of CPUs)")
    Integer ioThreads;

    @Option(names = "--async-threads", description = "worker threads of the async styles (default: 100)")
    Integer asyncThreads;

    @Option(names = "--backlog", description = "accept queue length (default: 10000)")
    Integer backlog;

    @Option(names = "--tls", paramLabel = "self-signed|FILE.p12", description = "serve TLS on the serving port: with a "
            + "certificate made at start (its PEM's path is printed, for --cacert), or the key of a PKCS#12 file (its "
            + "password in $GAUNTLET_TLS_PASSWORD); where the target serves https1 (./gauntlet targets)")
    String tls;

    @Option(names = "--http2", description = "serve HTTP/2 beside HTTP/1.1: negotiated by ALPN with --tls (h2), with prior "
            + "knowledge without it (h2c); where the target serves them")
    boolean http2;

    @Option(names = "--http3", description = "serve HTTP/3 over QUIC on the UDP port of the serving port's number, with "
            + "--tls's certificate (needs --tls); where the target serves h3")
    boolean http3;

    @Option(names = "--also", paramLabel = "PROTOCOLS", description = "serve these protocols too (comma-separated: "
            + "https1, h2, h2c, h3), each by another instance of the server in this JVM on a port of its own, printed as "
            + "ALSO h2 port=P, self-signed unless --tls names a key store; for trying a target's protocols side by side, "
            + "not for measuring (a run starts one server a JVM)")
    String also;

    @Option(names = "--jvm-option", paramLabel = "OPTION", description = "a JVM option of the target, repeatable (default: -Xmx1g)")
    List<String> jvmOptions = new ArrayList<>(List.of("-Xmx1g"));

    @Override
    public Integer call() throws IOException, InterruptedException {
        TargetLauncher launcher = new TargetLauncher(GauntletHome.fromSystemProperty(), TargetCatalogue.builtIn(),
                RolePlacement.unplaced("target"), jvmOptions);
        List<String> flags = new ArrayList<>();
        addFlag(flags, "--bind", bind);
        addFlag(flags, "--admin-bind", adminBind);
        addFlag(flags, "--port", port);
        addFlag(flags, "--admin-port", adminPort);
        addFlag(flags, "--workers", workers);
        addFlag(flags, "--io-threads", ioThreads);
        addFlag(flags, "--async-threads", asyncThreads);
        addFlag(flags, "--backlog", backlog);
        addFlag(flags, "--tls", tls == null || tls.equals("self-signed") ? tls : java.nio.file.Path.of(tls).toAbsolutePath());
        if (http2) {
            addFlag(flags, "--http2", true);
        }
        if (http3) {
            addFlag(flags, "--http3", true);
        }
        addFlag(flags, "--also", also);
        ProcessBuilder builder = new ProcessBuilder(launcher.command(name, flags).toArgv()).inheritIO();
        // Not a fresh token per start, as a run has: the user's own, which their ./gauntlet load finds without being told.
        builder.environment().put(AdminToken.VARIABLE, adminToken());
        Process process = builder.start();
        // Ctrl-C reaches the whole process group; the stopper covers a runner stopped any other way,
        // and a target deaf to SIGTERM.
        ProcessStopper stopper = ProcessStopper.atRunnerExit(process, PlacedProcess.STOP_TIMEOUT);
        int exit = process.waitFor();
        stopper.stop();
        if (exit == 2) {
            return 2; // the target refused its options, and its one line said why
        }
        if (exit != 0 && exit != 130 && exit != 143) {
            throw new UserError("target " + name + " exited with code " + exit);
        }
        return 0;
    }

    /** Where the token comes from is the help's to say: a line at every start would only stand before the target's own. */
    private static String adminToken() {
        Optional<String> fromEnvironment = AdminToken.fromEnvironment();
        try {
            return fromEnvironment.isPresent() ? fromEnvironment.get() : AdminToken.readOrCreate(AdminToken.userFile());
        } catch (IOException e) {
            throw new UserError("no admin token for the target: " + e.getMessage() + "; or set " + AdminToken.VARIABLE);
        }
    }

    private static void addFlag(List<String> flags, String flag, Object value) {
        if (value != null) {
            flags.add(flag);
            flags.add(value.toString());
        }
    }
}
