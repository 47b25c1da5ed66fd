package dev.gauntlet.targets;

import dev.gauntlet.hiccup.HiccupLog;

import java.lang.reflect.InvocationTargetException;
import java.util.concurrent.TimeUnit;

/**
 * Starts one target: {@code TargetMain --server dev.gauntlet.targets.jetty.JettyHandlerSync --port 0}.
 * Prints {@code READY port=P admin=A} once both ports listen; SIGTERM stops it within seconds.
 * Bad flags or a server that cannot start: one line on stderr and exit code 2. The process's
 * hiccups are measured from the start and served on the admin port.
 */
public final class TargetMain {
    /** How long a graceful stop may take before the process halts anyway. */
    private static final long STOP_GRACE_MS = 3_000;

    private TargetMain() {
    }

    public static void main(String[] args) {
        TargetArguments arguments;
        try {
            arguments = TargetArguments.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("target: " + e.getMessage() + "\n" + TargetArguments.USAGE);
            System.exit(2);
            return;
        }
        HiccupLog hiccups = HiccupLog.start();
        RequestStats stats = new RequestStats();
        HelloServer server = instantiate(arguments.serverClass());
        int port;
        AdminServer admin;
        try {
            port = server.start(arguments.settings(), stats);
            admin = new AdminServer(arguments.settings(), stats, hiccups, arguments.serverClass(), port);
            admin.start();
        } catch (Exception e) {
            System.err.println("target: " + arguments.serverClass() + " could not start on "
                    + arguments.settings().bind() + ": " + e);
            System.exit(2);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(() -> stop(server, admin), "target-stop"));
        System.out.println("READY port=" + port + " admin=" + admin.port());
        System.out.flush();
    }

    private static HelloServer instantiate(String serverClass) {
        try {
            return (HelloServer) Class.forName(serverClass).getDeclaredConstructor().newInstance();
        } catch (ClassNotFoundException | ClassCastException | NoSuchMethodException e) {
            System.err.println("target: " + serverClass + " is not a HelloServer on this classpath (" + e + ")");
        } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
            System.err.println("target: " + serverClass + " could not be created: " + e);
        }
        System.exit(2);
        return null;
    }

    /**
     * Runs in the shutdown hook. A server whose stop blocks (thousands of sleeping workers) must
     * not keep the process alive, so the stop gets a bounded grace and then the JVM halts.
     */
    private static void stop(HelloServer server, AdminServer admin) {
        Thread stopper = Thread.ofPlatform().daemon().name("target-graceful-stop").start(() -> {
            try {
                server.stop();
            } catch (Exception e) {
                System.err.println("target: stop failed: " + e);
            }
            admin.stop();
        });
        try {
            stopper.join(TimeUnit.MILLISECONDS.toMillis(STOP_GRACE_MS));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (stopper.isAlive()) {
            Runtime.getRuntime().halt(0);
        }
    }
}
