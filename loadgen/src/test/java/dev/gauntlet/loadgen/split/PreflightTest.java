package dev.gauntlet.loadgen.split;

import dev.gauntlet.api.ConnectionBudget;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.loadgen.failure.GeneratorException;
import dev.gauntlet.loadgen.transport.SourceAddresses;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PreflightTest {
    private static final HostLimits HERE = new HostLimits(20_000, 32_768, 60_999, 4_096);
    private static final URI URL = URI.create("http://127.0.0.1:1/hello?wait=60000");

    @Test
    void refusesMoreConnectionsThanOpenFilesWithTheNumbersAndTheWayOut() {
        LoadSpec spec = LoadSpec.of(URL, new LoadModel.MaxConcurrency(54_000));
        assertThatThrownBy(() -> Preflight.check(spec, HERE))
                .isInstanceOf(GeneratorException.class)
                .hasMessage("54000 connections need 54000 open files, but a process may open 20000 here (200 reserved "
                        + "for its JVM) and the limit cannot be raised: split the load with --processes 3, or use fewer connections");
    }

    @Test
    void connectionsNoSplitCouldHoldAskForFewer() {
        LoadSpec spec = LoadSpec.of(URL, new LoadModel.OpenLoop(1_000, LoadModel.InterArrival.EXPONENTIAL)).toBuilder()
                .maxConnections(2_000_000_000).build();
        assertThatThrownBy(() -> Preflight.check(spec, HERE)).hasMessageEndingWith("the limit cannot be raised: use fewer "
                + "connections; split over the most processes, 256, they are still too many");
    }

    @Test
    void aRateOneProcessCannotScheduleIsRefusedWithTheProcessesItTakes() {
        LoadSpec spec = LoadSpec.of(URL, new LoadModel.OpenLoop(25_000_000, LoadModel.InterArrival.EXPONENTIAL));
        assertThatThrownBy(() -> Preflight.checkRate(spec)).isInstanceOf(GeneratorException.class)
                .hasMessage("a rate of 25M requests/s over 1 process is more than one generator process can schedule, "
                        + "10M/s at most (a request every 100 ns): split it with --processes 3 or more, or lower the rate");
        Preflight.checkRate(spec.toBuilder().processes(3).build());
        assertThatThrownBy(() -> Preflight.checkRate(spec.toBuilder().model(
                new LoadModel.OpenLoop(1e12, LoadModel.InterArrival.CONSTANT)).processes(256).build()))
                .hasMessageEndingWith("lower the rate; split over the most processes, 256, it is still more");
        // A closed loop has no schedule to outrun.
        Preflight.checkRate(LoadSpec.of(URL, new LoadModel.ClosedLoop(10)));
    }

    @Test
    void refusesMoreConnectionsThanEphemeralPortsOfTheSourceAddresses() {
        HostLimits manyFiles = new HostLimits(1_000_000, 32_768, 60_999, 4_096);
        LoadSpec spec = LoadSpec.of(URL, new LoadModel.ClosedLoop(60_000));
        assertThatThrownBy(() -> Preflight.check(spec, manyFiles))
                .hasMessageContaining("ephemeral range 32768-60999 gives 28232 per source address")
                .hasMessageEndingWith("--source-addresses 127.0.0.1-127.0.0.3");
        LoadSpec spread = spec.toBuilder().sourceAddresses(List.of("127.0.0.1", "127.0.0.2", "127.0.0.3")).build();
        assertThat(Preflight.check(spread, manyFiles).maxConnections()).isEqualTo(60_000);
    }

    @Test
    void theOpenLoopTakesWhatTheLimitsAllowByDefault() {
        LoadSpec spec = LoadSpec.of(URL, new LoadModel.OpenLoop(1_000, LoadModel.InterArrival.EXPONENTIAL));
        assertThat(Preflight.check(spec, HERE).maxConnections()).isEqualTo(20_000 - ConnectionBudget.RESERVED_FILES);
    }

    @Test
    void aFixedPoolNeedsItsConnections() {
        LoadSpec spec = LoadSpec.of(URL, LoadModel.OpenLoop.fixedPool(1_000, LoadModel.InterArrival.EXPONENTIAL, 100));
        assertThat(Preflight.check(spec, HERE).maxConnections()).isEqualTo(100);
        LoadSpec tooMany = LoadSpec.of(URL, LoadModel.OpenLoop.fixedPool(1_000, LoadModel.InterArrival.EXPONENTIAL, 30_000));
        assertThatThrownBy(() -> Preflight.check(tooMany, HERE)).hasMessageStartingWith("30000 connections need 30000 open files");
    }

    @Test
    void warnsWhenHeldConnectionsExceedTheAcceptBacklog() {
        Preflight.Plan plan = Preflight.check(LoadSpec.of(URL, new LoadModel.MaxConcurrency(19_000)), HERE);
        assertThat(plan.maxConnections()).isEqualTo(19_000);
        assertThat(plan.warnings()).singleElement().asString().contains("somaxconn is 4096");
    }

    @Test
    void readsTheKernelFilesRealText() throws IOException {
        assertThat(HostLimits.parseInts(stream("4096\n"), new int[] {1})).containsExactly(4096);
        assertThat(HostLimits.parseInts(stream("32768\t60999\n"), new int[] {1, 2})).containsExactly(32768, 60999);
    }

    @Test
    void readsAStreamThatGivesOneByteAtATime() throws IOException {
        assertThat(HostLimits.parseInts(new OneByteAtATime("4096\n"), new int[] {1})).containsExactly(4096);
        assertThat(HostLimits.parseInts(new OneByteAtATime("32768\t60999\n"), new int[] {1, 2}))
                .containsExactly(32768, 60999);
    }

    @Test
    void readsAFileThatAnswersOnlyItsFirstRead() throws IOException {
        assertThat(HostLimits.parseInts(new FirstReadOnly("4096\n"), new int[] {1})).containsExactly(4096);
        assertThat(HostLimits.parseInts(new FirstReadOnly("32768\t60999\n"), new int[] {1, 2}))
                .containsExactly(32768, 60999);
    }

    @Test
    void fallsBackOnTooFewValuesOrText() throws IOException {
        int[] fallback = {32768, 60999};
        assertThat(HostLimits.parseInts(stream("3"), fallback)).isSameAs(fallback);
        assertThat(HostLimits.parseInts(stream(""), fallback)).isSameAs(fallback);
        assertThat(HostLimits.parseInts(stream("low high\n"), fallback)).isSameAs(fallback);
    }

    private static ByteArrayInputStream stream(String text) {
        return new ByteArrayInputStream(text.getBytes(StandardCharsets.US_ASCII));
    }

    /** Hands out one byte per read, as any stream may. */
    private static final class OneByteAtATime extends InputStream {
        private final ByteArrayInputStream bytes;

        OneByteAtATime(String text) {
            bytes = stream(text);
        }

        @Override
        public int read() {
            return bytes.read();
        }

        @Override
        public int read(byte[] b, int off, int len) {
            return len == 0 ? 0 : bytes.read(b, off, 1);
        }
    }

    /** As /proc/sys files on this machine's kernel: the first read gets what it asks for, any later one EOF. */
    private static final class FirstReadOnly extends InputStream {
        private final byte[] text;
        private boolean read;

        FirstReadOnly(String text) {
            this.text = text.getBytes(StandardCharsets.US_ASCII);
        }

        @Override
        public int read() {
            byte[] one = new byte[1];
            return read(one, 0, 1) == 1 ? one[0] : -1;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (read) {
                return -1;
            }
            read = true;
            int n = Math.min(len, text.length);
            System.arraycopy(text, 0, b, off, n);
            return n;
        }
    }

    @Test
    void sourceAddressRangesExpand() {
        assertThat(SourceAddresses.expand("127.0.0.1-127.0.0.3")).containsExactly("127.0.0.1", "127.0.0.2", "127.0.0.3");
        assertThat(SourceAddresses.expand("127.0.0.7-8, 127.0.1.1")).containsExactly("127.0.0.7", "127.0.0.8", "127.0.1.1");
        assertThatThrownBy(() -> SourceAddresses.expand("127.0.0.1-127.0.1.3")).hasMessageContaining("last number only");
        assertThatThrownBy(() -> SourceAddresses.expand("localhost")).hasMessageContaining("not an IPv4 address");
    }
}
