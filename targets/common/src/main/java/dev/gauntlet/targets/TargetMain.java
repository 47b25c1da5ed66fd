package dev.gauntlet.targets;

import dev.gauntlet.api.AdminToken;
import dev.gauntlet.api.CpuModel;
import dev.gauntlet.hiccup.ParentWatch;

import dev.gauntlet.api.Protocol;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Starts one target: {@code TargetMain --server dev.gauntlet.targets.jetty.JettyTargets#handlerSync --port 0}.
 * Prints {@code CPU <model>} and {@code READY port=P admin=A} once both ports listen, after
 * {@code TLS certificate=FILE} with {@code --tls} (the certificate's PEM, for clients to trust; deleted when it stops)
 * and {@code ALSO h2 port=P} for each protocol of {@code --also h2,h2c}, served by another instance of the server on a
 * port of its own (self-signed unless {@code --tls} names a key store; every instance counts into the same stats), so
 * that a check of every protocol needs one JVM, not one a protocol (a measurement wants one server a JVM);
 * SIGTERM, SIGINT or SIGHUP stop it
 * within 3 s. Bad flags or a server that cannot start: one line on stderr and exit code 2. The
 * process's hiccups and its CPUs' capacity are measured from the start and served on the admin port, which resets them
 * only for a client showing the token in {@code $GAUNTLET_ADMIN_TOKEN}; the virtual-thread
 * scheduler's figures go into any JFR recording of it.
 */
public final class TargetMain {
    /** How long a graceful stop may take before the process halts anyway. */
    private static final long STOP_GRACE_MS = 3_000;
    /** Before {@code READY} with {@code --tls}: the path of the served certificate's PEM. */
    public static final String CERTIFICATE_LINE_PREFIX = "TLS certificate=";
    /** Before {@code READY} with {@code --also}: {@code ALSO h2 port=P}, one line a further protocol. */
    public static final String ALSO_LINE_PREFIX = "ALSO ";
    /** How it refuses {@code --also} for a server that boots once per process. */
    private static final String ONCE_PER_JVM = "starts once per JVM";

    private TargetMain() {
    }

    public static void main(String[] args) {
        ParentWatch.start();
        TargetArguments arguments;
        try {
            arguments = TargetArguments.parse(args);
        } catch (IllegalArgumentException e) {
            // One line: the message names the flag, its value and its range.
            System.err.println("target: " + e.getMessage());
            System.exit(2);
            return;
        }
        PlatformLogs platform = PlatformLogs.start();
        VirtualThreadSchedulerEvent.register();
        RequestStats stats = new RequestStats();
        HelloServer server = instantiate(arguments.serverClass());
        refuseASecondInstanceItCannotStart(arguments, server);
        TargetTls tls = tls(arguments);
        TargetSettings settings = arguments.tls() == null ? arguments.settings() : arguments.settings().withTls(tls);
        List<HelloServer> servers = new ArrayList<>(List.of(server));
        int port;
        AdminServer admin;
        Map<Protocol, Integer> alsoPorts = new LinkedHashMap<>();
        Path certificatePem = null;
        try {
            port = startServing(server, settings, stats, arguments, false);
            for (Protocol protocol : arguments.also()) {
                HelloServer another = instantiate(arguments.serverClass());
                servers.add(another);
                alsoPorts.put(protocol, startServing(another, settings.forAnotherPort(protocol, tls), stats, arguments, true));
            }
            admin = new AdminServer(settings, stats, platform, arguments.serverClass(), port, adminToken());
            admin.start();
            if (tls != null) {
                certificatePem = Files.createTempFile("gauntlet-target-" + port + "-", ".pem");
                tls.writeCertificatePem(certificatePem);
            }
        } catch (Exception e) {
            System.err.println("target: " + arguments.serverClass() + " could not start on "
                    + arguments.settings().bind() + " (admin on " + arguments.settings().adminBind() + "): " + e);
            System.exit(2);
            return;
        }
        // Created now, while the heap has room: the stop must not depend on allocating a thread later.
        Thread deadline = Thread.ofPlatform().daemon().name("target-stop-deadline").unstarted(TargetMain::haltAfterGrace);
        Path pem = certificatePem;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(servers.reversed(), admin, platform, pem, deadline), "target-stop"));
        // The hardware, for a runner that cannot look at this target's machine (a pod on another node).
        System.out.println(CpuModel.LINE_PREFIX + CpuModel.read());
        if (pem != null) {
            System.out.println(CERTIFICATE_LINE_PREFIX + pem);
        }
        alsoPorts.forEach((protocol, alsoPort) -> System.out.println(ALSO_LINE_PREFIX + protocol.label() + " port=" + alsoPort));
        System.out.println("READY port=" + port + " admin=" + admin.port());
        System.out.flush();
    }

    /** Ends the process with one line when {@code --also} asks for a second instance of a server that boots once per JVM. */
    private static void refuseASecondInstanceItCannotStart(TargetArguments arguments, HelloServer server) {
        if (!arguments.also().isEmpty() && !server.startsTwiceInOneJvm()) {
            fail(arguments.serverClass() + " " + ONCE_PER_JVM + ": start one target per protocol instead of --also");
        }
    }

    /**
     * Starts {@code server}; ends the process with one line when it has no code for the protocol the settings ask for
     * (what a target serves is its catalogue entry's {@code protocols}, which the runner checks; this is for a start by
     * hand): for the serving port, the flag to leave out; for one of {@code --also}'s ports, that.
     */
    private static int startServing(HelloServer server, TargetSettings settings, RequestStats stats,
                                    TargetArguments arguments, boolean also) throws Exception {
        try {
            if (settings.http3() && !server.servesHttp3()) {
                throw new ProtocolNotServed(Protocol.H3, "--http3");
            }
            return server.start(settings, stats);
        } catch (ProtocolNotServed e) {
            fail(arguments.serverClass() + " does not serve " + e.asked().label() + "; "
                    + (also ? "leave it out of --also" : "start it without " + e.flag()));
            return -1;
        }
    }

    /**
     * The key and certificate for {@code --tls}, or a self-signed one when only {@code --also} asks for TLS; null when
     * nothing is served over TLS. A key store that cannot be read ends the process with one line.
     */
    private static TargetTls tls(TargetArguments arguments) {
        boolean alsoTls = arguments.also().stream().anyMatch(Protocol::tls);
        if (arguments.tls() == null && !alsoTls) {
            return null;
        }
        String source = arguments.tls() == null ? TargetArguments.SELF_SIGNED : arguments.tls();
        try {
            return source.equals(TargetArguments.SELF_SIGNED)
                    ? TargetTls.selfSigned(arguments.settings().bind()) : TargetTls.fromKeyStore(Path.of(source));
        } catch (GeneralSecurityException | IOException e) {
            fail("--tls " + source + " cannot be used: " + e.getMessage()
                    + (source.equals(TargetArguments.SELF_SIGNED) ? ""
                    : " (a PKCS#12 key store, its password in $" + TargetTls.PASSWORD_VARIABLE + ")"));
            return null;
        }
    }

    private static void fail(String message) {
        System.err.println("target: " + message);
        System.exit(2);
    }

    /** From the environment, not a flag: {@code ps} shows every process's command line to every user. */
    private static String adminToken() {
        String token = System.getenv(AdminToken.VARIABLE);
        return token == null || token.isEmpty() ? null : token;
    }

    /**
     * The server {@code --server} names: {@code pkg.Class#style}, a public static method returning one style's server
     * (a technology's factories, as the catalogue names them), or {@code pkg.Class}, a server class with a public
     * no-argument constructor (a technology with one style, a test's stand-in). Ends the process with one line when
     * there is none.
     */
    private static HelloServer instantiate(String server) {
        int hash = server.indexOf('#');
        try {
            Object created = hash < 0
                    ? Class.forName(server).getDeclaredConstructor().newInstance()
                    : Class.forName(server.substring(0, hash)).getMethod(server.substring(hash + 1)).invoke(null);
            return (HelloServer) created;
        } catch (ClassNotFoundException | ClassCastException | NoSuchMethodException e) {
            System.err.println("target: " + server + " is not a HelloServer on this classpath (" + e + ")");
        } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
            System.err.println("target: " + server + " could not be created: " + e);
        }
        System.exit(2);
        return null;
    }

    /**
     * Runs in the shutdown hook. A stop that blocks — this server's (thousands of sleeping workers)
     * or another shutdown hook, such as a server library's own — must not keep the process alive:
     * the deadline thread halts the JVM after the grace unless it has exited by then. Without a
     * deadline thread there is no bounded stop, so the process halts at once.
     */
    private static void stop(List<HelloServer> servers, AdminServer admin, PlatformLogs platform, Path certificatePem, Thread deadline) {
        try {
            deadline.start();
        } catch (Throwable e) {
            Runtime.getRuntime().halt(0);
        }
        for (HelloServer server : servers) {
            try {
                server.stop();
            } catch (Exception e) {
                System.err.println("target: stop failed: " + e);
            }
        }
        admin.stop();
        platform.close();
        if (certificatePem != null) {
            try {
                Files.deleteIfExists(certificatePem);
            } catch (IOException e) {
                // A temporary file: the system's cleaning takes it later.
            }
        }
    }

    private static void haltAfterGrace() {
        try {
            Thread.sleep(STOP_GRACE_MS);
        } catch (InterruptedException e) {
            // Halt all the same: nothing else ends this process.
        }
        Runtime.getRuntime().halt(0);
    }
}
