package dev.gauntlet.loadgen;

import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.RunSummary;
import dev.gauntlet.api.TlsTrust;
import dev.gauntlet.loadgen.run.Generator;
import dev.gauntlet.targets.TargetTls;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lean engine writes an HTTP/2 connection's frames of one event-loop round together, as h2load does: counted as the
 * TLS records the client sends, since each of its writes is wrapped into one record (these are far below a record's
 * 16 KiB). A relay between the engine and {@link ScriptedHttp2Server} counts them without decrypting anything.
 */
@Timeout(60)
class Http2GatheredWritesIT {
    private static TargetTls tls;

    @BeforeAll
    static void certificate() throws Exception {
        tls = TargetTls.selfSigned("127.0.0.1");
    }

    @Test
    void requestsThatResponsesArrivingTogetherFreeShareOneWrite() throws Exception {
        // One connection of four streams, each slot sending again as soon as it is answered; the server answers in
        // batches of four, in one write (or what it holds once the client is quiet for 20 ms, at the run's end).
        ScriptedHttp2Server.Script batchesOfFour = ScriptedHttp2Server.batchesOf(4, exchange -> {
            if (!exchange.held.isEmpty()) {
                exchange.answerTogether(List.copyOf(exchange.held));
                exchange.held.clear();
            }
        });
        try (ScriptedHttp2Server server = new ScriptedHttp2Server(tls.sslContext(), batchesOfFour);
             RecordCountingRelay relay = new RecordCountingRelay(server.uri("/hello"))) {
            LoadSpec spec = spec(relay, new LoadModel.ClosedLoop(1), 4).toBuilder().durationMs(500).build();
            RunSummary summary = run(spec);

            assertThat(summary.errorCount()).isZero();
            assertThat(summary.completed()).isGreaterThan(40);
            // Each batch's four HEADERS in one record; beyond them the preface and the SETTINGS acknowledgement.
            assertThat(relay.applicationRecords.get()).as("records for %d requests", summary.sent())
                    .isLessThanOrEqualTo((int) summary.sent() / 4 + 4);
        }
    }

    @Test
    void requestsTheOpenLoopSendsInOneWakeShareOneWrite() throws Exception {
        // 500/s with a wake every 10 ms over one connection's 100 streams, opened at the start (a fixed pool, so that
        // each request finds a free stream at once and none waits for a response to free one): about five requests
        // due at each wake, each answered at once on its own.
        ScriptedHttp2Server.Script answerEach = (exchange, streamId) -> exchange.answer(streamId);
        try (ScriptedHttp2Server server = new ScriptedHttp2Server(tls.sslContext(), answerEach);
             RecordCountingRelay relay = new RecordCountingRelay(server.uri("/hello"))) {
            LoadSpec spec = spec(relay, LoadModel.OpenLoop.fixedPool(500, LoadModel.InterArrival.CONSTANT, 1), 100).toBuilder()
                    .wakeGranularityUs(10_000L).durationMs(1_000).build();
            RunSummary summary = run(spec);

            assertThat(summary.errorCount()).isZero();
            assertThat(summary.sent()).isEqualTo(500);
            // A write per request would be 500 records; a wake's requests share one (a late wake only gathers more).
            assertThat(relay.applicationRecords.get()).as("records for %d requests", summary.sent())
                    .isLessThan((int) summary.sent() / 2);
        }
    }

    private static LoadSpec spec(RecordCountingRelay relay, LoadModel model, int streams) {
        return LoadSpec.of(relay.uri, model).toBuilder().http2(true, streams).warmupMs(0)
                .responseTimeoutMs(5_000).trust(new TlsTrust(null, true)).build();
    }

    private static RunSummary run(LoadSpec spec) {
        return Generator.run(spec, null, new PrintStream(new ByteArrayOutputStream()));
    }

    /**
     * A TCP relay on 127.0.0.1, port 0, to a TLS server, counting the application-data records (content type 23) of
     * the connection that carries the load: under TLS 1.3 every record after the handshake's is one, the client's
     * Finished included. The reachability check's connection before the run is left out: it is the first one.
     */
    private static final class RecordCountingRelay implements AutoCloseable {
        private static final int APPLICATION_DATA = 23;
        final URI uri;
        final AtomicInteger applicationRecords = new AtomicInteger();
        private final ServerSocket listener;
        private final int serverPort;
        private final AtomicInteger connections = new AtomicInteger();

        RecordCountingRelay(URI server) throws IOException {
            serverPort = server.getPort();
            listener = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
            uri = URI.create("https://127.0.0.1:" + listener.getLocalPort() + server.getPath());
            Thread.ofVirtual().name("relay-accept").start(this::accept);
        }

        private void accept() {
            while (!listener.isClosed()) {
                try {
                    Socket client = listener.accept();
                    Socket server = new Socket(InetAddress.getLoopbackAddress(), serverPort);
                    client.setTcpNoDelay(true);
                    server.setTcpNoDelay(true);
                    boolean counted = connections.incrementAndGet() > 1;
                    Thread.ofVirtual().start(() -> relayRecords(client, server, counted));
                    Thread.ofVirtual().start(() -> relayBytes(server, client));
                } catch (IOException e) {
                    return;
                }
            }
        }

        /** Client to server, a whole record at a time. */
        private void relayRecords(Socket from, Socket to, boolean counted) {
            try (from; to) {
                DataInputStream in = new DataInputStream(from.getInputStream());
                OutputStream out = to.getOutputStream();
                byte[] header = new byte[5];
                while (true) {
                    in.readFully(header);
                    byte[] body = new byte[((header[3] & 0xff) << 8) | (header[4] & 0xff)];
                    in.readFully(body);
                    if (counted && header[0] == APPLICATION_DATA) {
                        applicationRecords.incrementAndGet();
                    }
                    out.write(header);
                    out.write(body);
                    out.flush();
                }
            } catch (IOException e) {
                // Either side closed: the relay of this connection ends.
            }
        }

        private static void relayBytes(Socket from, Socket to) {
            try {
                InputStream in = from.getInputStream();
                OutputStream out = to.getOutputStream();
                byte[] buffer = new byte[16 * 1024];
                for (int n = in.read(buffer); n >= 0; n = in.read(buffer)) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            } catch (IOException e) {
                // Either side closed: relayRecords closes both sockets.
            }
        }

        @Override
        public void close() throws IOException {
            listener.close();
        }
    }
}
