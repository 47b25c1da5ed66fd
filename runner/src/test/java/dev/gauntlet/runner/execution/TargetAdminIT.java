package dev.gauntlet.runner.execution;

import dev.gauntlet.api.AdminToken;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.Protocol;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.TargetCatalogue.TargetEntry;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.loadgen.split.JavaCommand;
import dev.gauntlet.runner.RawHttp;
import dev.gauntlet.runner.base.GauntletHome;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.isolation.RolePlacement;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The admin port of a real dummy target JVM: reads are open, a reset needs the run's token (and
 * leaves the counts alone without it), the port listens on loopback whatever the serving port
 * binds, and a generator JVM given the token in its environment resets the counts at its measured
 * phase, while one without it says that it could not.
 */
@Tag("alone") // the requests counted since the generator's reset depend on when its thread runs
class TargetAdminIT {
    private static final TargetCatalogue CATALOGUE = TargetCatalogue.builtIn();
    private static final int REQUESTS_BEFORE = 300;

    @TempDir
    Path work;

    @Test
    void aResetNeedsTheRunsTokenAndReadsNeedNone() throws Exception {
        try (TargetProcess target = launcher().start("dummy", List.of(), work.resolve("target.log"))) {
            sendHellos(target, 20);
            int adminPort = target.endpoint().adminUri("/").getPort();

            RawHttp.Response none = post(adminPort, "");
            RawHttp.Response wrong = post(adminPort, "Authorization: Bearer " + AdminToken.fresh() + "\r\n");
            RawHttp.Response bare = post(adminPort, "Authorization: " + target.endpoint().adminToken() + "\r\n");

            assertThat(List.of(none.status(), wrong.status(), bare.status())).as("no token, a wrong one, the right one unbearered")
                    .containsOnly(403);
            assertThat(none.bodyText()).contains("needs the target's admin token");
            RawHttp.Response stats = RawHttp.get(RolePlacement.LOOPBACK, adminPort, "/stats");
            assertThat(stats.status()).as("GET /stats without a token").isEqualTo(200);
            assertThat(TargetEndpoint.statsField(stats.bodyText(), "completed")).as("counts after the refused resets").isEqualTo(20L);
            assertThat(RawHttp.get(RolePlacement.LOOPBACK, adminPort, "/settings").status()).isEqualTo(200);
            assertThat(RawHttp.get(RolePlacement.LOOPBACK, adminPort, "/hiccup").status()).isEqualTo(200);

            RawHttp.Response right = post(adminPort, "Authorization: Bearer " + target.endpoint().adminToken() + "\r\n");

            assertThat(right.status()).isEqualTo(200);
            assertThat(TargetEndpoint.statsField(target.endpoint().stats(), "completed")).as("counts after the reset").isZero();
            assertThat(FullCommandLine.of(ProcessHandle.of(target.pid()).orElseThrow()))
                    .as("the target's command line, which ps shows every user").isNotEmpty()
                    .doesNotContain(target.endpoint().adminToken());
        }
    }

    @Test
    void aWindowOfTheRecordingComesThroughTheAdminPortForTheTokenOnly() throws Exception {
        try (TargetProcess target = launcher().start("dummy", List.of(), work.resolve("target.log"))) {
            Instant from = Instant.now().minusSeconds(5);
            sendHellos(target, 20);
            // A collection inside the window, whatever the target's start left in its young generation.
            collectGarbage(target.pid());
            Path copied = work.resolve("target.jfr");
            TargetEndpoint stranger = new TargetEndpoint("dummy", target.endpoint().host(), target.endpoint().port(),
                    target.endpoint().adminUri("/").getPort(), AdminToken.fresh());

            assertThat(stranger.copyRecording(from, Instant.now(), copied)).contains("answered 403");
            assertThat(copied).doesNotExist();
            assertThat(target.endpoint().copyRecording(from, Instant.now().plusSeconds(1), copied)).isNull();
            // JFR's own reader takes it, and it holds the events the runner reads from a local target's jcmd dump.
            try (RecordingFile recording = new RecordingFile(copied)) {
                Set<String> types = new HashSet<>();
                while (recording.hasMoreEvents()) {
                    types.add(recording.readEvent().getEventType().getName());
                }
                assertThat(types).contains("jdk.JVMInformation", "jdk.GCHeapSummary");
            }
        }
    }

    @Test
    void aTargetStartedWithoutATokenRefusesEveryReset() throws Exception {
        TargetEntry dummy = CATALOGUE.target("dummy").orElseThrow();
        try (TargetProcess target = TargetProcess.start(targetMain(dummy, List.of()), "", RolePlacement.unplaced("target"), dummy, Protocol.HTTP1,
                work.resolve("target.log"), Duration.ofSeconds(20))) {
            RawHttp.Response empty = post(target.endpoint().adminUri("/").getPort(), "Authorization: Bearer \r\n");

            assertThat(empty.status()).isEqualTo(403);
            assertThat(empty.bodyText()).contains("started without GAUNTLET_ADMIN_TOKEN");
            assertThatThrownBy(target.endpoint()::resetStats).isInstanceOf(UserError.class).hasMessageContaining("admin answered 403");
        }
    }

    @Test
    void theAdminPortStaysOnLoopbackWhenTheServingPortBindsEveryAddress() throws Exception {
        TargetEntry dummy = CATALOGUE.target("dummy").orElseThrow();
        try (TargetProcess target = TargetProcess.start(targetMain(dummy, List.of("--bind", "0.0.0.0")), AdminToken.fresh(),
                RolePlacement.unplaced("target"), dummy, Protocol.HTTP1, work.resolve("target.log"), Duration.ofSeconds(20))) {
            int adminPort = target.endpoint().adminUri("/").getPort();

            assertThat(listeningAddress(target.endpoint().port())).as("the serving port's address").matches(InetAddress::isAnyLocalAddress);
            assertThat(listeningAddress(adminPort)).as("the admin port's address").matches(InetAddress::isLoopbackAddress);
            InetAddress routable = routableLocalAddress();
            try (Socket serving = new Socket()) {
                serving.connect(new InetSocketAddress(routable, target.endpoint().port()), 5_000);
            }
            assertThatThrownBy(() -> {
                try (Socket admin = new Socket()) {
                    admin.connect(new InetSocketAddress(routable, adminPort), 5_000);
                }
            }).as("a connect to the admin port at %s", routable).isInstanceOf(ConnectException.class);
        }
    }

    @Test
    void aGeneratorGivenTheTokenResetsTheCountsAtItsMeasuredPhase() throws Exception {
        try (TargetProcess target = launcher().start("dummy", List.of(), work.resolve("target.log"))) {
            sendHellos(target, REQUESTS_BEFORE);
            Path runDir = work.resolve("run");

            RunSummary summary = generator().run(spec(target), target.endpoint().adminToken(), runDir);

            // The reset is made as the measured phase begins, on a thread of its own: some of the phase's first
            // requests may come before it. None of the warm-up's, nor of the requests before the run, count.
            long started = TargetEndpoint.statsField(target.endpoint().stats(), "started");
            assertThat(started).as("requests the target started since the generator's reset, beside the %d it scheduled "
                    + "in its measured phase (%s)", summary.scheduled(), Files.readString(runDir.resolve("generator.log")))
                    .isBetween(1L, summary.scheduled() + 5);
            assertThat(summary.targetCpuPercent()).as("the target's CPU over the measured phase").isNotNull();
            assertThat(Files.readString(runDir.resolve("generator.log"))).doesNotContain("refused");
            try (Stream<Path> files = Files.walk(runDir)) {
                for (Path file : files.filter(Files::isRegularFile).toList()) {
                    // Latin-1 maps every byte to a char: the JFR recording is searched as well as the text files.
                    assertThat(new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1)).as("%s", file)
                            .doesNotContain(target.endpoint().adminToken());
                }
            }
        }
    }

    @Test
    void aGeneratorWithoutTheTokenSaysItsResetWasRefused() throws Exception {
        try (TargetProcess target = launcher().start("dummy", List.of(), work.resolve("target.log"))) {
            sendHellos(target, REQUESTS_BEFORE);
            Path runDir = work.resolve("run");

            RunSummary summary = generator().run(spec(target), AdminToken.fresh(), runDir);

            assertThat(Files.readString(runDir.resolve("generator.log")))
                    .contains("refused to reset its counts (403): not its admin token; set GAUNTLET_ADMIN_TOKEN");
            assertThat(TargetEndpoint.statsField(target.endpoint().stats(), "started")).as("the counts, never reset")
                    .isGreaterThan(REQUESTS_BEFORE + summary.scheduled());
            assertThat(summary.targetCpuPercent()).as("the target's CPU, from a read instead").isNotNull();
        }
    }

    private static void collectGarbage(long pid) throws Exception {
        Process jcmd = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                Long.toString(pid), "GC.run").redirectErrorStream(true).start();
        try {
            assertThat(jcmd.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)).as("jcmd GC.run ended").isTrue();
        } finally {
            jcmd.destroyForcibly();
        }
    }

    private static TargetLauncher launcher() {
        return new TargetLauncher(GauntletHome.fromSystemProperty(), CATALOGUE, RolePlacement.unplaced("target"), List.of("-Xmx128m"));
    }

    private static GeneratorLauncher generator() {
        return new GeneratorLauncher(GauntletHome.fromSystemProperty(), RolePlacement.unplaced("generator"), List.of("-Xmx128m"));
    }

    /** 100 requests a second for 1 s measured, after 0.5 s of warm-up. */
    private static LoadSpec spec(TargetProcess target) {
        return LoadSpec.of(target.endpoint().uri("/hello"), new LoadModel.OpenLoop(100, LoadModel.InterArrival.CONSTANT)).toBuilder()
                .warmupMs(500).durationMs(1_000).adminUrl(target.endpoint().adminUri("/")).build();
    }

    /** TargetMain as the runner starts it, but with no {@code --admin-bind}: the target's own default. */
    private static JavaCommand targetMain(TargetEntry entry, List<String> flags) {
        List<String> args = new ArrayList<>(List.of("--server", entry.serverClass()));
        args.addAll(flags);
        return new JavaCommand(List.of("-Xmx128m"),
                GauntletHome.fromSystemProperty().classpathOf(CATALOGUE.technology(entry.technology()).module()),
                TargetLauncher.MAIN_CLASS, args);
    }

    private static void sendHellos(TargetProcess target, int count) throws IOException {
        for (int i = 0; i < count; i++) {
            assertThat(RawHttp.get(target.endpoint().host(), target.endpoint().port(), "/hello").status()).isEqualTo(200);
        }
    }

    private static RawHttp.Response post(int adminPort, String headers) throws IOException {
        return RawHttp.exchange(RolePlacement.LOOPBACK, adminPort, "POST /stats/reset HTTP/1.1\r\nHost: " + RolePlacement.LOOPBACK
                + ":" + adminPort + "\r\n" + headers + "Content-Length: 0\r\nConnection: close\r\n\r\n");
    }

    /** The local address of the socket listening on {@code port}, as the kernel lists it in /proc/net/tcp and tcp6. */
    private static InetAddress listeningAddress(int port) throws IOException {
        String listen = "0A";
        for (String table : List.of("/proc/net/tcp", "/proc/net/tcp6")) {
            List<String> lines = Files.readAllLines(Path.of(table));
            for (String line : lines.subList(1, lines.size())) {
                String[] fields = line.trim().split("\\s+");
                String[] local = fields[1].split(":");
                if (fields[3].equals(listen) && Integer.parseInt(local[1], 16) == port) {
                    return kernelAddress(local[0]);
                }
            }
        }
        throw new AssertionError("nothing listens on port " + port);
    }

    /** The kernel prints an address as 32-bit words in host order: little-endian here. */
    private static InetAddress kernelAddress(String hex) throws IOException {
        byte[] bytes = HexFormat.of().parseHex(hex);
        for (int word = 0; word < bytes.length; word += 4) {
            for (int i = 0; i < 2; i++) {
                byte b = bytes[word + i];
                bytes[word + i] = bytes[word + 3 - i];
                bytes[word + 3 - i] = b;
            }
        }
        return InetAddress.getByAddress(bytes);
    }

    /** An IPv4 address of this host outside loopback; the test needs one to say anything about the admin port. */
    private static InetAddress routableLocalAddress() throws IOException {
        Optional<InetAddress> found = NetworkInterface.networkInterfaces()
                .filter(nic -> isUp(nic) && !isLoopback(nic))
                .flatMap(NetworkInterface::inetAddresses)
                .filter(address -> address instanceof Inet4Address && !address.isLinkLocalAddress())
                .findFirst();
        assertThat(found).as("an IPv4 address of this host outside loopback").isPresent();
        return found.get();
    }

    private static boolean isUp(NetworkInterface nic) {
        try {
            return nic.isUp();
        } catch (IOException e) {
            return false;
        }
    }

    private static boolean isLoopback(NetworkInterface nic) {
        try {
            return nic.isLoopback();
        } catch (IOException e) {
            return false;
        }
    }
}
