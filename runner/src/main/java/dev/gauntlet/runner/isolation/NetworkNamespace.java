package dev.gauntlet.runner.isolation;

import dev.gauntlet.runner.base.UserError;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The target's own network namespace ({@code --network netns}), joined to the runner's by a veth
 * pair so that load crosses a real network device instead of loopback:
 *
 * <pre>
 * root namespace                               gauntlet-PID
 *   generator ── gntPIDh 198.18.x.1/30 ══ veth ══ gntPIDt 198.18.x.2/30 ── target (and lo)
 * </pre>
 *
 * The /30 lies in the benchmarking range 198.18.0.0/15 (RFC 2544), one per runner PID, and no
 * default route is ever added: the namespace reaches nothing but its peer. Created by
 * {@link #create()}, removed by {@link #close()} or, should the runner end first, by a shutdown
 * hook; a runner killed outright leaves it for the next runner's {@link #removeLeftovers()}.
 */
final class NetworkNamespace implements AutoCloseable {
    private static final String PREFIX = "gauntlet-";
    private static final Pattern LEFTOVER = Pattern.compile(PREFIX + "(\\d+)\\b.*");
    private static final Pattern LEFTOVER_VETH = Pattern.compile("\\d+: gnt(\\d+)h[@:].*");
    /** 198.18.0.0/15 holds 32,768 /30 networks. */
    private static final int NETWORKS = 1 << 15;
    private static final long COMMAND_TIMEOUT_SEC = 10;

    private final String name;
    private final String hostVeth;
    private final String targetVeth;
    private final String hostAddress;
    private final String targetAddress;
    private final Thread hook = new Thread(this::remove, "remove-netns");

    private NetworkNamespace(long runnerPid) {
        this.name = PREFIX + runnerPid;
        this.hostVeth = "gnt" + runnerPid + "h";
        this.targetVeth = "gnt" + runnerPid + "t";
        int base = (198 << 24) | (18 << 16) | (int) (runnerPid % NETWORKS) * 4;
        this.hostAddress = dotted(base + 1);
        this.targetAddress = dotted(base + 2);
    }

    /** Creates the namespace and its veth pair; not root or no {@code ip}: a {@link UserError}. */
    static NetworkNamespace create() {
        requireRootAndIp();
        NetworkNamespace netns = new NetworkNamespace(ProcessHandle.current().pid());
        Runtime.getRuntime().addShutdownHook(netns.hook);
        try {
            ip("netns", "add", netns.name);
            ip("link", "add", netns.hostVeth, "type", "veth", "peer", "name", netns.targetVeth);
            ip("link", "set", netns.targetVeth, "netns", netns.name);
            ip("addr", "add", netns.hostAddress + "/30", "dev", netns.hostVeth);
            ip("link", "set", netns.hostVeth, "up");
            ip("-n", netns.name, "addr", "add", netns.targetAddress + "/30", "dev", netns.targetVeth);
            ip("-n", netns.name, "link", "set", netns.targetVeth, "up");
            ip("-n", netns.name, "link", "set", "lo", "up");
        } catch (UserError e) {
            netns.close();
            throw e;
        }
        return netns;
    }

    static void requireRootAndIp() {
        if (!Isolation.isRoot()) {
            throw new UserError("--network netns needs root (it creates a network namespace and a veth pair); "
                    + "run as root or use --network loopback");
        }
        if (!Isolation.onPath("ip")) {
            throw new UserError("--network netns needs the 'ip' command (iproute2); install it or use --network loopback");
        }
    }

    /** Removes the namespaces (and veth pairs) of runners that are gone, ending what still runs inside them; returns their names. */
    static List<String> removeLeftovers() {
        List<String> removed = new ArrayList<>();
        for (String line : ipOutput("netns", "list").lines().toList()) {
            Matcher m = LEFTOVER.matcher(line);
            if (m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty()) {
                NetworkNamespace stale = new NetworkNamespace(Long.parseLong(m.group(1)));
                // A process inside keeps the namespace, and so its veth and addresses, alive after the name is gone.
                for (String pid : ipOutput("netns", "pids", stale.name).lines().filter(l -> !l.isBlank()).toList()) {
                    ProcessHandle.of(Long.parseLong(pid.trim())).ifPresent(p -> {
                        p.destroyForcibly();
                        p.onExit().orTimeout(5, TimeUnit.SECONDS).exceptionally(e -> p).join();
                    });
                }
                stale.remove();
                removed.add(stale.name);
            }
        }
        for (String line : ipOutput("-o", "link", "show", "type", "veth").lines().toList()) {
            Matcher m = LEFTOVER_VETH.matcher(line);
            if (m.matches() && ProcessHandle.of(Long.parseLong(m.group(1))).isEmpty()) {
                quietly("link", "del", "gnt" + m.group(1) + "h");
                removed.add("gnt" + m.group(1) + "h");
            }
        }
        return removed;
    }

    String name() {
        return name;
    }

    String hostVeth() {
        return hostVeth;
    }

    String targetAddress() {
        return targetAddress;
    }

    /** The command prefix that runs a command inside the namespace; {@code ip netns exec} execs, so the PID is the command's. */
    List<String> execPrefix() {
        return List.of("ip", "netns", "exec", name);
    }

    /**
     * Refuses to go on unless the route to the target's address leaves through our veth: load may
     * only go to addresses inside namespaces this runner created.
     */
    void checkRoute() {
        String route = ipOutput("route", "get", targetAddress);
        if (!route.matches("(?s).*\\bdev " + Pattern.quote(hostVeth) + "\\b.*")) {
            throw new UserError("refusing to send load to " + targetAddress + ": its route is not via " + hostVeth
                    + ", the namespace's veth (ip route get says: " + route.lines().findFirst().orElse("nothing") + ")");
        }
    }

    /** What was created, for {@code suite.json}. */
    Map<String, String> describe() {
        Map<String, String> described = new LinkedHashMap<>();
        described.put("mode", "netns");
        described.put("namespace", name);
        described.put("hostVeth", hostVeth + " " + hostAddress + "/30");
        described.put("targetVeth", targetVeth + " " + targetAddress + "/30");
        return described;
    }

    /** Whether {@code pid} runs in this namespace: its {@code /proc/PID/ns/net} is the namespace's file. */
    boolean holds(long pid) {
        try {
            Object namespaceInode = Files.getAttribute(Path.of("/run/netns", name), "unix:ino");
            Object processInode = Files.getAttribute(Path.of("/proc", Long.toString(pid), "ns", "net"), "unix:ino");
            return namespaceInode.equals(processInode);
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }

    @Override
    public void close() {
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException e) {
            // The runner is exiting: the hook does the same.
        }
        remove();
    }

    private void remove() {
        quietly("netns", "del", name);
        // Deleting one end of a veth deletes both; only needed while a process inside keeps the namespace alive.
        quietly("link", "del", hostVeth);
    }

    private static void ip(String... args) {
        Result result = run(args);
        if (result.exitCode() != 0) {
            throw new UserError("ip " + String.join(" ", args) + " failed: " + result.output().lines().findFirst().orElse("exit "
                    + result.exitCode()));
        }
    }

    private static String ipOutput(String... args) {
        Result result = run(args);
        return result.exitCode() == 0 ? result.output() : "";
    }

    private static void quietly(String... args) {
        run(args);
    }

    private record Result(int exitCode, String output) {
    }

    private static Result run(String... args) {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(COMMAND_TIMEOUT_SEC, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new Result(-1, "timed out");
            }
            return new Result(process.exitValue(), output);
        } catch (IOException e) {
            return new Result(-1, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }

    private static String dotted(int address) {
        return (address >>> 24) + "." + ((address >>> 16) & 0xff) + "." + ((address >>> 8) & 0xff) + "." + (address & 0xff);
    }
}
