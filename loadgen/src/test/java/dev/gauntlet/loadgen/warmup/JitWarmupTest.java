package dev.gauntlet.loadgen.warmup;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.TlsTrust;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The generator's JIT warm-up against its loopback sink, in each protocol a load speaks: the requests are answered and
 * none fails, so the warm-up compiled the engine's path for that protocol (the lean engine fails a request
 * answered in another protocol than it asked, or over TLS a certificate it does not trust). The URL is never
 * contacted.
 */
class JitWarmupTest {
    /**
     * Long enough for whole windows even on a busy machine, where a cold first window (TLS handshakes, every class
     * loaded and compiled) can outlast the production bound and be cut before its measured half answers anything; a
     * JVM still compiling TLS and HTTP/2 runs to it (10 s took twice as long and checked nothing more: every case had
     * several whole windows by 5 s).
     */
    private static final long WHOLE_WINDOWS_MS = 5_000;

    @ParameterizedTest(name = "{0}, trust {1}")
    @CsvSource({
            "http://127.0.0.1:1/hello, , 1",
            "https://127.0.0.1:1/hello, insecure, 1",
            "https://127.0.0.1:1/hello, certificate, 1",
            "https://127.0.0.1:1/hello, certificate, 8",
            "http://127.0.0.1:1/hello, , 8"})
    void warmsTheRunsProtocolWithEveryRequestAnswered(String url, String trust, int streams, @TempDir Path dir) throws Exception {
        LoadSpec.Builder spec = LoadSpec.of(URI.create(url), new LoadModel.ClosedLoop(4)).toBuilder()
                .http2(streams > 1, streams);
        if ("insecure".equals(trust)) {
            spec.trust(new TlsTrust(null, true));
        } else if ("certificate".equals(trust)) {
            Path pem = dir.resolve("sink.pem");
            LoopbackSink.writeCertificate(pem);
            spec.trust(new TlsTrust(pem.toString(), false));
        }
        ByteArrayOutputStream progress = new ByteArrayOutputStream();

        RunSummary.GeneratorWarmup warmup = JitWarmup.run(spec.build(), new PrintStream(progress, true,
                StandardCharsets.UTF_8), WHOLE_WINDOWS_MS);

        assertAnsweredWithoutErrors(warmup);
        assertThat(progress.toString(StandardCharsets.UTF_8))
                .contains("against its own loopback sink over " + spec.build().protocol().label())
                .doesNotContain("failed");
    }

    @Test
    void holdsAHandshakePerRequestToARateTheSinkSharingTheCpuKeepsUpWith() {
        LoadSpec spec = LoadSpec.of(URI.create("https://127.0.0.1:1/hello"),
                        new LoadModel.OpenLoop(10_000, LoadModel.InterArrival.CONSTANT)).toBuilder()
                .trust(new TlsTrust(null, true)).newConnectionPerRequest(true).build();

        RunSummary.GeneratorWarmup warmup = JitWarmup.run(spec, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), WHOLE_WINDOWS_MS);

        assertThat(warmup.ratePerSec()).isEqualTo(JitWarmup.MAX_HANDSHAKES_PER_SEC);
        assertAnsweredWithoutErrors(warmup);
    }

    /**
     * The bound ends the window running, not only the next one: a window that ran whole would have answered every
     * request of its measured half (an open loop sends each one it was due), and the bound comes before that half
     * starts. The caller is left uninterrupted for the run that follows.
     */
    @Test
    void endsTheWindowRunningAtItsBoundAndLeavesTheCallerUninterrupted() {
        LoadSpec spec = LoadSpec.of(URI.create("http://127.0.0.1:1/hello"),
                new LoadModel.OpenLoop(JitWarmup.MAX_RATE_PER_SEC, LoadModel.InterArrival.CONSTANT));
        long measuredHalf = (long) (JitWarmup.MAX_RATE_PER_SEC * JitWarmup.WINDOW_MS / 2 / 1_000);

        RunSummary.GeneratorWarmup warmup = JitWarmup.run(spec, new PrintStream(new ByteArrayOutputStream(), true,
                StandardCharsets.UTF_8), JitWarmup.WINDOW_MS / 5);

        assertThat(Thread.currentThread().isInterrupted()).isFalse();
        if (warmup != null) {
            assertThat(warmup.settled()).isFalse();
            assertThat(warmup.windows()).hasSize(1);
            assertThat(warmup.windows().getFirst().completed()).isLessThan(measuredHalf);
        }
    }

    /**
     * No whole window failed a request, and some window answered. The first may answer none in its measured half: cold,
     * over TLS on a busy machine, its handshakes can outlast the half before it; the last, cut by the bound, fails
     * what it had in flight.
     */
    private static void assertAnsweredWithoutErrors(RunSummary.GeneratorWarmup warmup) {
        assertThat(warmup.windows()).isNotEmpty().anySatisfy(window -> assertThat(window.completed()).isPositive());
        assertThat(JitWarmup.wholeWindows(warmup.windows(), warmup.settled()))
                .allSatisfy(window -> assertThat(window.errors()).isZero());
    }
}
