package dev.gauntlet.loadgen.transport;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;
import dev.gauntlet.loadgen.measure.TrafficCounters;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * A socket through a JDK {@link SSLEngine}, driven without blocking: the handshake advances as records arrive, a write
 * is wrapped into records at once, a read unwraps every whole record that arrived. The network buffers are the event
 * loop's, shared by all its connections ({@link Buffers}); a connection keeps only the part of a record that has not
 * arrived whole yet, so ten thousand idle TLS connections do not hold ten thousand 16 KiB buffers.
 */
final class TlsWire extends Wire {
    /**
     * The event loop's scratch buffers for records, one set per loop. On the heap, unlike the loop's other socket
     * buffers: the JDK's AES-GCM takes its array-based intrinsic path for heap buffers only (a direct one goes through
     * GHASH.processBlocksDirect and copies), which outweighs the socket's copy through its temporary direct buffer
     * (h2 over TLS, 4 × 16 streams against nginx: 113,155 against 118,831 requests/s, median of 3, docs/benchmarks.md).
     */
    static final class Buffers {
        final ByteBuffer records = ByteBuffer.allocate(64 * 1024);
        final ByteBuffer wrapped = ByteBuffer.allocate(64 * 1024);
        final ByteBuffer handshakeData = ByteBuffer.allocate(64 * 1024);
    }

    private static final ByteBuffer NOTHING = ByteBuffer.allocate(0);

    private final SSLEngine engine;
    private final Buffers buffers;
    /** Record bytes read but not yet unwrapped (a record's start); null when none. */
    private ByteBuffer partialRecord;
    private boolean handshaken;

    TlsWire(SocketChannel channel, SSLEngine engine, Buffers buffers, TrafficCounters traffic) throws SSLException {
        super(channel, traffic);
        this.engine = engine;
        this.buffers = buffers;
        // Until begun, an engine says NOT_HANDSHAKING: the handshake below would look done before it started.
        engine.beginHandshake();
    }

    @Override
    boolean handshake() throws IOException {
        while (!handshaken) {
            switch (engine.getHandshakeStatus()) {
                case NEED_WRAP -> wrap(NOTHING);
                case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> {
                    buffers.handshakeData.clear();
                    if (unwrapArrived(buffers.handshakeData) < 0) {
                        throw new EOFException("the server closed the connection during the TLS handshake");
                    }
                    if (engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_UNWRAP && !recordWaiting()) {
                        return false;
                    }
                }
                case NEED_TASK -> runTasks();
                case FINISHED, NOT_HANDSHAKING -> handshaken = true;
            }
        }
        return true;
    }

    @Override
    String applicationProtocol() {
        String protocol = engine.getApplicationProtocol();
        return protocol == null ? "" : protocol;
    }

    @Override
    void write(ByteBuffer bytes) throws IOException {
        while (bytes.hasRemaining()) {
            if (wrap(bytes) == 0) {
                // Only a handshake in progress takes no bytes; a write comes after it, so this is a broken session.
                throw new SSLException("the TLS engine took none of the bytes to send (" + engine.getHandshakeStatus() + ")");
            }
        }
    }

    @Override
    int read(ByteBuffer into) throws IOException {
        return unwrapArrived(into);
    }

    @Override
    boolean holdsReadable() {
        return recordWaiting();
    }

    /** Wraps what it can of {@code bytes} into records and sends them; the bytes it took. */
    private int wrap(ByteBuffer bytes) throws IOException {
        ByteBuffer wrapped = buffers.wrapped;
        wrapped.clear();
        SSLEngineResult result = engine.wrap(bytes, wrapped);
        if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
            throw new SSLException("the TLS session is closed");
        }
        wrapped.flip();
        send(wrapped);
        if (result.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK) {
            runTasks();
        }
        return result.bytesConsumed();
    }

    /**
     * Reads the socket and unwraps every whole record into {@code into}: the application bytes it got, 0 for none
     * (nothing arrived, or only part of a record, or only handshake messages such as TLS 1.3's session tickets), -1 at
     * the end of the stream.
     */
    private int unwrapArrived(ByteBuffer into) throws IOException {
        ByteBuffer records = buffers.records;
        records.clear();
        if (partialRecord != null) {
            records.put(partialRecord);
            partialRecord = null;
        }
        int read = channel.read(records);
        if (read > 0) {
            traffic.received(read);
        }
        records.flip();
        int start = into.position();
        while (records.hasRemaining()) {
            SSLEngineResult result = engine.unwrap(records, into);
            if (result.getStatus() == SSLEngineResult.Status.BUFFER_UNDERFLOW) {
                break;
            }
            if (result.getStatus() == SSLEngineResult.Status.BUFFER_OVERFLOW) {
                // The caller's buffer is full: what is left waits for its next read.
                break;
            }
            if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                return into.position() > start ? into.position() - start : -1;
            }
            switch (result.getHandshakeStatus()) {
                case NEED_TASK -> runTasks();
                // A key update or renegotiation answer: sent at once, the records after it unwrapped as before.
                case NEED_WRAP -> {
                    if (handshaken) {
                        wrap(NOTHING);
                    } else {
                        keepPartial(records);
                        return into.position() - start;
                    }
                }
                default -> {
                }
            }
            if (!handshaken && engine.getHandshakeStatus() != SSLEngineResult.HandshakeStatus.NEED_UNWRAP) {
                break;
            }
        }
        keepPartial(records);
        int got = into.position() - start;
        return got == 0 && read < 0 ? -1 : got;
    }

    private void keepPartial(ByteBuffer records) {
        if (records.hasRemaining()) {
            partialRecord = ByteBuffer.allocate(records.remaining()).put(records).flip();
        }
    }

    private boolean recordWaiting() {
        return partialRecord != null && partialRecord.remaining() >= 5
                && partialRecord.remaining() >= 5 + (((partialRecord.get(partialRecord.position() + 3) & 0xff) << 8)
                | (partialRecord.get(partialRecord.position() + 4) & 0xff));
    }

    private void runTasks() {
        for (Runnable task = engine.getDelegatedTask(); task != null; task = engine.getDelegatedTask()) {
            task.run();
        }
    }
}
