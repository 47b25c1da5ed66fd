package dev.gauntlet.runner.execution;

import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.hiccup.ParentWatch;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.isolation.Isolation;
import dev.gauntlet.runner.isolation.RolePlacement;
import dev.gauntlet.runner.metrics.PlatformCalibration;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Gauntlet JVMs that nothing will stop, on the CPUs a run is about to use: a target or generator
 * left by a runner that was killed before children watched their parent ({@link ParentWatch}), or
 * one started by hand with {@code java} from a shell. Each takes CPU time from the run and distorts
 * its figures, so the run refuses to start while one is there.
 *
 * <pre>{@code
 * LeftoverJvms.refuseOn(isolation, catalogue);   // a UserError naming each one: pid, what it is, its CPUs, kill PID
 * }</pre>
 *
 * <p>A Gauntlet JVM whose Gauntlet parent still runs is that parent's to stop (a {@code ./gauntlet
 * target} in another terminal, another run), and this runner's own children are not leftovers. The
 * parent is the one its {@code -Dgauntlet.parent} names; a JVM without one (of a build from before
 * it) is looked after while its parent is a JVM, and left over once init, a subreaper or a shell is
 * its parent. Read from {@code /proc}: elsewhere nothing is found.
 */
public final class LeftoverJvms {
    /** The main class of every child JVM a Gauntlet process starts, and what it is called here. */
    private static final Map<String, String> MAIN_CLASSES = Map.of(
            TargetLauncher.MAIN_CLASS, "target",
            GeneratorLauncher.MAIN_CLASS, "generator",
            ClientLoad.LOAD_MAIN, "load --client generator",
            PlatformCalibration.MAIN_CLASS, "calibration");
    private static final Path PROC = Path.of("/proc");
    private static final String PARENT_OPTION = "-D" + ParentWatch.PROPERTY + "=";

    /** A leftover JVM: its pid, what it is (e.g. {@code target dummy}) and the CPUs it may run on. */
    record Leftover(long pid, String what, String cpus) {
    }

    private LeftoverJvms() {
    }

    /** Throws a {@link UserError} naming every leftover JVM on the CPUs of {@code isolation}'s roles. */
    public static void refuseOn(Isolation isolation, TargetCatalogue catalogue) {
        BitSet cpus = cpusOf(isolation.target());
        cpus.or(cpusOf(isolation.generator()));
        List<Leftover> found = on(cpus, catalogue);
        if (found.isEmpty()) {
            return;
        }
        String pids = found.stream().map(l -> Long.toString(l.pid())).collect(Collectors.joining(" "));
        throw new UserError((found.size() == 1 ? "a Gauntlet JVM left running holds" : found.size()
                + " Gauntlet JVMs left running hold") + " CPUs of this run: "
                + found.stream().map(l -> "pid " + l.pid() + " (" + l.what() + ", CPUs " + l.cpus() + ")")
                .collect(Collectors.joining(", "))
                + "; end " + (found.size() == 1 ? "it" : "them") + " with: kill " + pids);
    }

    /** Every leftover Gauntlet JVM allowed on any of {@code cpus}, outside this process and its descendants. */
    static List<Leftover> on(BitSet cpus, TargetCatalogue catalogue) {
        Set<Long> ours = Stream.concat(Stream.of(ProcessHandle.current()), ProcessHandle.current().descendants())
                .map(ProcessHandle::pid).collect(Collectors.toSet());
        try (Stream<Path> entries = Files.list(PROC)) {
            return entries.map(entry -> entry.getFileName().toString()).filter(name -> name.chars().allMatch(Character::isDigit))
                    .map(Long::parseLong).filter(pid -> !ours.contains(pid))
                    .flatMap(pid -> leftover(pid, catalogue).stream())
                    .filter(l -> RolePlacement.cpuSet(l.cpus()).intersects(cpus)).toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The process as a leftover, when it is a Gauntlet child JVM that no Gauntlet process looks after. */
    private static Optional<Leftover> leftover(long pid, TargetCatalogue catalogue) {
        List<String> argv = commandLine(pid);
        Optional<String> mainClass = argv.stream().filter(MAIN_CLASSES::containsKey).findFirst();
        Optional<String> parent = argv.stream().filter(arg -> arg.startsWith(PARENT_OPTION))
                .map(arg -> arg.substring(PARENT_OPTION.length())).findFirst();
        if (mainClass.isEmpty() || (parent.isPresent() ? ParentWatch.isAlive(parent.get()) : parentIsJvm(pid))) {
            return Optional.empty();
        }
        String what = MAIN_CLASSES.get(mainClass.get());
        if (mainClass.get().equals(TargetLauncher.MAIN_CLASS)) {
            what += " " + targetName(argv, catalogue);
        }
        String role = what;
        return RolePlacement.statusField(pid, "Cpus_allowed_list").map(cpus -> new Leftover(pid, role, cpus));
    }

    private static boolean parentIsJvm(long pid) {
        return ProcessHandle.of(pid).flatMap(ProcessHandle::parent).flatMap(p -> p.info().command())
                .map(command -> Path.of(command).getFileName().toString().equals("java")).orElse(false);
    }

    /**
     * The catalogue name of the target whose {@code --server} class the command line gives, from the module on its
     * classpath (one server class serves a technology at two versions), else that class.
     */
    private static String targetName(List<String> argv, TargetCatalogue catalogue) {
        int flag = argv.indexOf("--server");
        String serverClass = flag >= 0 && flag + 1 < argv.size() ? argv.get(flag + 1) : "?";
        String command = String.join(" ", argv);
        return catalogue.targets().stream().filter(t -> t.serverClass().equals(serverClass))
                .filter(t -> command.contains("/" + catalogue.technology(t.technology()).module() + "/target/")).findFirst()
                .map(TargetCatalogue.TargetEntry::name).orElse(serverClass);
    }

    /** A process's arguments; none for one that is gone, a zombie's or another user's that cannot be read. */
    private static List<String> commandLine(long pid) {
        try {
            String raw = Files.readString(PROC.resolve(Long.toString(pid)).resolve("cmdline"), StandardCharsets.UTF_8);
            return Arrays.asList(raw.split("\0"));
        } catch (IOException e) {
            return List.of();
        }
    }

    /** The CPUs a role's processes may run on: its CPU list, or when it has none, the runner's own. */
    private static BitSet cpusOf(RolePlacement role) {
        String cpus = role.cpus().isEmpty()
                ? RolePlacement.statusField(ProcessHandle.current().pid(), "Cpus_allowed_list").orElse("") : role.cpus();
        return cpus.isEmpty() ? new BitSet() : RolePlacement.cpuSet(cpus);
    }
}
