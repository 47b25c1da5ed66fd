package dev.gauntlet.runner;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.AdminToken;
import dev.gauntlet.api.ClientMode;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.execution.ClientModules;
import org.assertj.core.api.AbstractStringAssert;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Every command as a user runs it: through the {@code ./gauntlet} script on the packaged artifacts
 * ({@code runner/target/lib}, never this test's classpath), with exit codes, one-line errors, the
 * table and the JSON. A target started with {@code ./gauntlet target dummy} serves the loads.
 */
public class LauncherIT {
    private static final Pattern READY = Pattern.compile("READY port=(\\d+) admin=(\\d+)");
    private static final long COMMAND_TIMEOUT_SEC = 90;
    private static final String ADMIN_TOKEN = AdminToken.fresh();

    private static Process target;
    private static String hello;
    private static String admin;

    public record Outcome(int exitCode, List<String> stdout, List<String> stderr) {
        public String out() {
            return String.join("\n", stdout);
        }
    }

    /** A command refused as a user should see it: exit code 2 and one line on stderr, that line for the test to check. */
    private static AbstractStringAssert<?> assertRefusedInOneLine(Outcome outcome) {
        assertThat(outcome.exitCode()).as("%s", outcome.stderr()).isEqualTo(2);
        return assertThat(outcome.stderr()).singleElement().asString();
    }

    @BeforeAll
    static void startTargetThroughTheLauncher() throws Exception {
        target = launcher("target", "dummy", "--jvm-option", "-Xmx256m").redirectError(ProcessBuilder.Redirect.DISCARD).start();
        target.getOutputStream().close();
        CompletableFuture<Matcher> ready = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader in = new BufferedReader(new InputStreamReader(target.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    Matcher m = READY.matcher(line);
                    if (m.find()) {
                        ready.complete(m);
                    }
                }
            } catch (IOException e) {
                // The target ended; the future says whether it was ever ready.
            }
            ready.completeExceptionally(new IllegalStateException("./gauntlet target dummy ended without READY"));
        });
        Matcher m = ready.get(60, TimeUnit.SECONDS);
        hello = "http://127.0.0.1:" + m.group(1) + "/hello";
        admin = "http://127.0.0.1:" + m.group(2);
    }

    @AfterAll
    static void stopTarget() throws Exception {
        if (target != null) {
            Signals.send("TERM", target.pid());
            boolean exited = target.waitFor(15, TimeUnit.SECONDS);
            target.destroyForcibly();
            assertThat(exited).as("./gauntlet target exits after SIGTERM").isTrue();
        }
    }

    @Test
    void aWrongFlagExitsWithCodeTwoAndOneLine() throws Exception {
        Outcome outcome = gauntlet("run", "--no-such-flag");

        assertRefusedInOneLine(outcome).contains("--no-such-flag").contains("gauntlet run --help");
    }

    @Test
    void aTargetGivenAnOutOfRangeFlagSaysSoInOneLine() throws Exception {
        Outcome outcome = gauntlet("target", "dummy", "--workers", "-5");

        assertRefusedInOneLine(outcome).isEqualTo("target: --workers must be a whole number from 1 to 100000, got -5");
    }

    /** {@code --http3}: without TLS, or for a server without HTTP/3, is one line. */
    @Test
    void aTargetAskedForHttp3ItCannotServeSaysSoInOneLine() throws Exception {
        Outcome noTls = gauntlet("target", "netty-event-loop", "--http3");
        Outcome notServed = gauntlet("target", "jetty-handler-sync", "--tls", "self-signed", "--http3");

        assertRefusedInOneLine(noTls).isEqualTo("target: --http3 needs --tls (QUIC is always encrypted): add --tls self-signed");
        assertRefusedInOneLine(notServed).isEqualTo("target: dev.gauntlet.targets.jetty.JettyTargets#handlerSync does not "
                + "serve h3; start it without --http3");
    }

    /** {@code --also}: a protocol the server does not serve, or a server that boots once per JVM, is one line. */
    @Test
    void aTargetAskedToAlsoServeWhatItCannotSaysSoInOneLine() throws Exception {
        Outcome notServed = gauntlet("target", "dummy", "--also", "h2");
        Outcome oncePerJvm = gauntlet("target", "quarkus-rest-sync", "--also", "h2c");

        assertRefusedInOneLine(notServed).isEqualTo("target: dev.gauntlet.targets.dummy.DummyServer does not serve h2; "
                + "leave it out of --also");
        assertRefusedInOneLine(oncePerJvm).isEqualTo("target: dev.gauntlet.targets.quarkus.QuarkusTargets#restSync starts "
                + "once per JVM: start one target per protocol instead of --also");
    }

    @Test
    void anUnknownTargetIsRefusedBeforeAnythingStarts() throws Exception {
        Outcome outcome = gauntlet("run", "--targets", "no-such-target", "--results", "/nonexistent/dir");

        assertRefusedInOneLine(outcome).isEqualTo(
                "gauntlet: unknown target 'no-such-target': ./gauntlet targets lists the names");
    }

    @Test
    void targetsListsTheWholeCatalogue() throws Exception {
        Outcome outcome = gauntlet("targets");

        assertThat(outcome.exitCode()).isZero();
        TargetCatalogue.builtIn().targets().forEach(t ->
                assertThat(outcome.stdout()).anyMatch(line -> line.startsWith(t.name() + " ")));
    }

    @Test
    void everyCommandHasHelpWithAnExample() throws Exception {
        for (String command : List.of("run", "load", "target", "targets", "clients")) {
            Outcome outcome = gauntlet(command, "--help");
            assertThat(outcome.exitCode()).as(command).isZero();
            assertThat(outcome.out()).as(command).contains("Example").containsPattern("(?m)gauntlet " + command + "( |$)");
        }
        Outcome top = gauntlet("--help");
        assertThat(top.exitCode()).isZero();
        assertThat(top.out()).contains("run", "load", "target", "targets");
    }

    @Test
    void loadRunsEachModelAsATable() throws Exception {
        for (List<String> model : List.of(List.of("--rate", "200"), List.of("--connections", "4"))) {
            Outcome outcome = gauntlet(Stream.concat(Stream.of("load", hello), Stream.concat(model.stream(),
                    Stream.of("--warmup", "1s", "--duration", "1s", "--admin", admin, "--no-jit-warmup"))).toArray(String[]::new));

            assertThat(outcome.exitCode()).as("load %s: %s", model, outcome.stderr()).isZero();
            assertThat(outcome.stderr()).as("load %s: the target's counts reset with the token", model)
                    .noneMatch(line -> line.contains("refused"));
            assertThat(outcome.out()).as("load %s", model).contains(", 0 errors")
                    .containsPattern("(?m)^  response +\\d").containsPattern("(?m)^  hiccups +\\d")
                    .containsPattern("(?m)^  target hiccups +\\d").containsPattern("(?m)^  verdict +[a-z-]+");
        }
        Outcome held = gauntlet("load", hello + "?wait=5000", "--max-concurrency", "20", "--admin", admin,
                "--warmup", "1s", "--duration", "1s", "--no-jit-warmup");
        assertThat(held.exitCode()).as("%s", held.stderr()).isZero();
        assertThat(held.out()).contains("20 connected, 20 requests held at the end; the server started 20");
    }

    @Test
    void loadRunsEachModelAsJson() throws Exception {
        for (List<String> model : List.of(List.of("--rate", "200"), List.of("--connections", "4"),
                List.of("--max-concurrency", "20"))) {
            String url = model.getFirst().equals("--max-concurrency") ? hello + "?wait=5000" : hello;
            Outcome outcome = gauntlet(Stream.concat(Stream.of("load", url, "--json"), Stream.concat(model.stream(),
                    Stream.of("--warmup", "1s", "--duration", "1s", "--admin", admin, "--no-jit-warmup"))).toArray(String[]::new));

            assertThat(outcome.exitCode()).as("load %s: %s", model, outcome.stderr()).isZero();
            JsonNode summary = Json.json().readTree(outcome.out());
            assertThat(summary.path("verdict").asText()).as("%s", model).isNotEmpty();
            assertThat(summary.path("generatorHiccups").path("count").asLong()).as("%s", model).isPositive();
            if (model.getFirst().equals("--max-concurrency")) {
                assertThat(summary.path("concurrency").path("held").asLong()).isEqualTo(20);
            } else {
                assertThat(summary.path("completed").asLong()).as("%s", model).isPositive();
                assertThat(summary.path("errors").path("RESET").asLong()).isZero();
            }
        }
    }

    @Test
    void loadAgainstNothingIsOneLine() throws Exception {
        Outcome outcome = gauntlet("load", "http://127.0.0.1:1/hello", "--rate", "10");

        assertRefusedInOneLine(outcome).isEqualTo("gauntlet load: nothing listens on 127.0.0.1:1");
    }

    @Test
    void runOfASuiteFileWritesItsResults(@TempDir Path work) throws Exception {
        Path suite = DummySuite.openLoop(work.resolve("tiny.yaml"), "256m", 200, 500, 1_000);

        Outcome outcome = gauntlet("run", "--suite", suite.toString(), "--results", work.resolve("results").toString(),
                "--calibration-seconds", "1");

        assertThat(outcome.exitCode()).as("%s", outcome.stderr()).isZero();
        assertThat(outcome.stderr().getFirst()).startsWith("gauntlet: suite tiny: 1 targets × 1 scenarios × 1 fork × 1, 1 runs, about 1 min");
        assertThat(outcome.stderr().get(1)).startsWith("gauntlet: measuring the platform's noise floor for 1 s");
        assertThat(outcome.stderr().get(2)).containsPattern("^platform: wake-up p99 [0-9.]+ ms .* loopback round trip p50 \\d+ µs");
        assertThat(outcome.out()).containsPattern("(?m)^dummy +open +\\d+");
        List<Path> dirs;
        try (Stream<Path> list = Files.list(work.resolve("results"))) {
            dirs = list.toList();
        }
        assertThat(dirs).singleElement().satisfies(dir -> {
            assertThat(dir.resolve("suite.json")).content().contains("\"roundTrip\"");
            assertThat(dir.resolve("results.json")).exists();
            assertThat(dir.resolve("runs/dummy/open/1/summary.json")).exists();
            assertThat(dir.resolve("runs/dummy/open/1/hiccup.hlog")).exists();
            assertThat(dir.resolve("runs/dummy/open/1/target-hiccup.hlog")).exists();
        });
    }

    @Test
    void clientsListsEveryClientWithItsLibraryAndMode() throws Exception {
        Outcome outcome = gauntlet("clients");

        assertThat(outcome.exitCode()).isZero();
        ClientModules.all().forEach(c -> assertThat(outcome.stdout())
                .anyMatch(line -> line.startsWith(c.name() + " ") && line.contains(c.library().title()) && line.contains(c.mode().id())));
        assertThat(outcome.out()).contains("has no async mode");
    }

    @Test
    void loadWithAClientRunsTheLibraryInTheGeneratorsOwnJvm() throws Exception {
        Outcome outcome = gauntlet("load", hello, "--client", "jdk-virtual", "--connections", "5", "--warmup", "500ms",
                "--duration", "1s", "--no-jit-warmup");

        assertThat(outcome.exitCode()).as(outcome.stderr().toString()).isZero();
        assertThat(outcome.stdout().getFirst()).contains("closed 5c", "client jdk-virtual");
        assertThat(outcome.out()).containsPattern("requests  \\d+ sent, [1-9]\\d* completed, 0 errors")
                .containsPattern("in flight at most");
    }

    /**
     * A library that logs through SLF4J brings a binding, so that a load with it prints nothing of SLF4J's own ("no
     * providers", "Failed to load class"): one client of every library whose module has SLF4J's API on its classpath.
     */
    @ParameterizedTest
    @MethodSource("librariesWithSlf4j")
    void aClientLibraryLoggingThroughSlf4jPrintsNoSlf4jWarning(String client) throws Exception {
        Outcome outcome = gauntlet("load", hello, "--client", client, "--connections", "2", "--warmup", "500ms",
                "--duration", "500ms", "--no-jit-warmup");

        assertThat(outcome.exitCode()).as(outcome.stderr().toString()).isZero();
        assertThat(outcome.stderr()).noneMatch(line -> line.contains("SLF4J"));
    }

    static Stream<String> librariesWithSlf4j() {
        Path root = GauntletHome.fromSystemProperty().root();
        List<String> clients = ClientModules.all().stream()
                .filter(c -> hasSlf4jApi(root.resolve(c.library().module()).resolve("target/lib")))
                .collect(Collectors.toMap(c -> c.library().id(), c -> c.name(), (a, b) -> a,
                        LinkedHashMap::new)).values().stream().toList();
        assertThat(clients).as("the libraries known to log through SLF4J are among them").hasSizeGreaterThanOrEqualTo(3);
        return clients.stream();
    }

    /** A module with no dependency of its own (the JDK's client) has no {@code target/lib}. */
    private static boolean hasSlf4jApi(Path lib) {
        if (!Files.isDirectory(lib)) {
            return false;
        }
        try (Stream<Path> jars = Files.list(lib)) {
            return jars.anyMatch(jar -> jar.getFileName().toString().startsWith("slf4j-api-"));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Test
    void anUnknownClientIsOneLineAndExitCodeTwo() throws Exception {
        Outcome outcome = gauntlet("load", hello, "--client", "no-such-client", "--connections", "1");

        assertRefusedInOneLine(outcome)
                .startsWith("gauntlet: unknown client 'no-such-client'; the clients are jdk-platform, ");
    }

    @Test
    void engineThreadsWithAClientAreOneLineAndExitCodeTwo() throws Exception {
        Outcome outcome = gauntlet("load", hello, "--client", "jdk-async", "--threads", "2", "--connections", "2");

        assertRefusedInOneLine(outcome).isEqualTo("gauntlet load: a client library engine runs from one driver thread, "
                + "got 2 threads: engine threads (--threads, generator.threads) are the built-in engine's; drop them, or "
                + "split a client's load with processes");
    }

    @Test
    void aClientAskedForAProtocolItsLibraryDoesNotSpeakIsOneLineAndExitCodeTwo() throws Exception {
        // Refused before the target is reached: the hello target does not speak h2c either, and that is not the line.
        Outcome load = gauntlet("load", hello, "--client", "ahc-async", "--http2", "--connections", "1");

        assertRefusedInOneLine(load)
                .startsWith("gauntlet load: client ahc-async speaks http1 here, not h2c: pick another client");

        Outcome run = gauntlet("run", "--suite", "protocols", "--targets", "jetty-handler-virtual@h2", "--clients",
                "jdk-async,ahc-async", "--results", "/nonexistent/dir");

        assertRefusedInOneLine(run)
                .startsWith("gauntlet: client ahc-async speaks http1, not h2 (target jetty-handler-virtual@h2): name the "
                        + "targets it can load with --targets");
    }

    /**
     * The 2015 study's "OOM - thread": a platform mode that cannot start a thread counts its request
     * as a {@code NO_THREAD} error, and the generator finishes and writes its files. The command runs
     * in a cgroup whose pids limit leaves room for the JVMs and the library but not for 400 request
     * threads. The hold is long enough for the slowest library to start that many: Reactor's platform mode had sent
     * only 120 after 2.5 s on a busy host.
     */
    @ParameterizedTest
    @MethodSource("platformClients")
    void aPlatformClientOutOfThreadsCountsNoThreadErrorsAndStillWritesItsFiles(String client, @TempDir Path out)
            throws Exception {
        Path cgroup = Path.of("/sys/fs/cgroup/pids/gauntlet-launcher-it-" + client);
        assumeTrue(Files.isDirectory(cgroup.getParent()), "needs the cgroup v1 pids controller");
        Files.createDirectories(cgroup);
        Files.writeString(cgroup.resolve("pids.max"), "250");
        try {
            List<String> command = new ArrayList<>(List.of("sh", "-c", "echo $$ > \"$0\"/cgroup.procs && exec \"$@\"",
                    cgroup.toString(), GauntletHome.fromSystemProperty().root().resolve("gauntlet").toString(),
                    "load", hello + "?wait=8000", "--client", client, "--max-concurrency", "400", "--warmup", "500ms",
                    "--duration", "4s", "--response-timeout", "15s", "--no-jit-warmup", "--output", out.toString(), "--json"));
            Outcome outcome = run(new ProcessBuilder(command));

            assertThat(outcome.exitCode()).as(outcome.stderr().toString()).isZero();
            JsonNode summary = Json.json().readTree(outcome.out());
            assertThat(summary.get("errors").get("NO_THREAD").asLong()).as(outcome.out()).isPositive();
            assertThat(out.resolve("summary.json")).exists();
            assertThat(out.resolve("response.hlog")).exists();
        } finally {
            removeCgroup(cgroup);
        }
    }

    /** Ends what is left in the cgroup (nothing, when the command finished) and removes it. */
    private static void removeCgroup(Path cgroup) throws Exception {
        CompletableFuture<?>[] exits = Files.readAllLines(cgroup.resolve("cgroup.procs")).stream()
                .flatMap(pid -> ProcessHandle.of(Long.parseLong(pid)).stream())
                .peek(ProcessHandle::destroyForcibly).map(ProcessHandle::onExit).toArray(CompletableFuture[]::new);
        CompletableFuture.allOf(exits).get(10, TimeUnit.SECONDS);
        Files.delete(cgroup);
    }

    static Stream<String> platformClients() {
        return ClientModules.all().stream().filter(c -> c.mode() == ClientMode.PLATFORM).map(c -> c.name());
    }

    public static Outcome gauntlet(String... args) throws IOException, InterruptedException {
        return run(launcher(args));
    }

    private static Outcome run(ProcessBuilder builder) throws IOException, InterruptedException {
        builder.environment().put("GAUNTLET_NO_BUILD", "1");
        Process process = builder.start();
        process.getOutputStream().close();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> readAll(process.getErrorStream()));
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> readAll(process.getInputStream()));
        boolean finished = process.waitFor(COMMAND_TIMEOUT_SEC, TimeUnit.SECONDS);
        if (!finished) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        }
        assertThat(finished).as("%s finished", builder.command()).isTrue();
        return new Outcome(process.exitValue(), out.join().lines().toList(), err.join().lines().toList());
    }

    private static ProcessBuilder launcher(String... args) {
        List<String> command = new ArrayList<>(List.of(GauntletHome.fromSystemProperty().root().resolve("gauntlet").toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("GAUNTLET_NO_BUILD", "1");
        // The target and the loads share it as a user's would share ~/.gauntlet/admin-token, which a test leaves alone.
        builder.environment().put(AdminToken.VARIABLE, ADMIN_TOKEN);
        return builder;
    }

    private static String readAll(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
