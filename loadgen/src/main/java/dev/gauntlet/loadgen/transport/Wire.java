package dev.gauntlet.loadgen.transport;

import dev.gauntlet.loadgen.measure.TrafficCounters;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/**
 * One socket's bytes as the HTTP layer above writes and reads them: as they are ({@link PlainWire}) or through TLS
 * ({@link TlsWire}). Non-blocking and single-threaded, as the event loop that owns it. A write takes all it is given:
 * what the socket does not take at once is kept and sent by {@link #flush()} when the socket is writable again, so the
 * layer above never tracks partial writes.
 */
abstract sealed class Wire permits PlainWire, TlsWire {
    final SocketChannel channel;
    /** The engine's bytes and connections, which every socket write, read and close counts into. */
    final TrafficCounters traffic;
    /** When the connect started, and when it was established (0 until then): the connect and TLS times. */
    final long dialNs = System.nanoTime();
    long connectedNs;
    /** What the socket did not take yet; null while nothing waits (the usual case, so no buffer is held). */
    private ByteBuffer unsent;
    private boolean closed;

    Wire(SocketChannel channel, TrafficCounters traffic) {
        this.channel = channel;
        this.traffic = traffic;
    }

    /**
     * Advances the TLS handshake as far as the bytes at hand allow; true once requests may be written. A plain wire is
     * ready at once.
     */
    abstract boolean handshake() throws IOException;

    /** The protocol ALPN chose ({@code h2}, {@code http/1.1}); empty when none was negotiated (cleartext, or no ALPN). */
    abstract String applicationProtocol();

    /** Writes all of {@code bytes}, keeping what the socket does not take yet. */
    abstract void write(ByteBuffer bytes) throws IOException;

    /** Reads what arrived into {@code into}: its count, 0 for nothing now, -1 at the peer's end of the stream. */
    abstract int read(ByteBuffer into) throws IOException;

    /**
     * Whether bytes already taken from the socket wait for the next {@link #read}: through TLS, whole records the last
     * read's buffer had no room for. The socket will not signal them as readable again, so the reader reads on.
     */
    abstract boolean holdsReadable();

    /** Sends what the socket did not take before; true when nothing is left waiting. */
    final boolean flush() throws IOException {
        if (unsent == null) {
            return true;
        }
        traffic.sent(channel.write(unsent));
        if (unsent.hasRemaining()) {
            return false;
        }
        unsent = null;
        return true;
    }

    /** Whether bytes wait for the socket to become writable. */
    final boolean hasUnsent() {
        return unsent != null;
    }

    /** Closes the socket, once. */
    final void close() {
        if (!closed) {
            closed = true;
            traffic.connectionClosed();
            ConnectionIo.closeQuietly(channel);
        }
    }

    /** Sends {@code bytes} on the socket, in order after anything still waiting; keeps a copy of what it did not take. */
    final void send(ByteBuffer bytes) throws IOException {
        if (unsent == null) {
            traffic.sent(channel.write(bytes));
            if (bytes.hasRemaining()) {
                unsent = ByteBuffer.allocate(bytes.remaining()).put(bytes).flip();
            }
            return;
        }
        // Rare: the socket is still full; the new bytes queue behind the old.
        unsent = ByteBuffer.allocate(unsent.remaining() + bytes.remaining()).put(unsent).put(bytes).flip();
    }
}
