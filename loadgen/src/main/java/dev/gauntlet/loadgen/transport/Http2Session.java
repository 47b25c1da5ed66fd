package dev.gauntlet.loadgen.transport;

import dev.gauntlet.api.ErrorClass;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.util.ArrayList;
import java.util.List;

/**
 * One HTTP/2 connection of the lean engine: its socket, its stream slots ({@link Connection}s, each one request at a
 * time), the streams in flight by id, and the connection-wide state the frames change: the server's stream limit, a
 * GOAWAY, the receive window, the HPACK decoding of its responses, a header block continued over frames, a frame that
 * arrived in part, the frames gathered to write. Written by {@link Http2Io} and its {@link Http2Reader} alone.
 */
final class Http2Session {
    static final int CONNECTING = 0;
    /** Connected (and TLS done): the preface is sent, the server's first SETTINGS awaited. */
    static final int AWAITING_SETTINGS = 1;
    static final int READY = 2;
    /** A GOAWAY arrived (or the stream ids ran out): the streams in flight finish, no new one starts. */
    static final int DRAINING = 3;
    static final int CLOSED = 4;

    /** The largest stream id a client may use (RFC 9113, 5.1.1). */
    private static final int LAST_STREAM_ID = Integer.MAX_VALUE;

    final Wire wire;
    final SelectionKey key;
    final StreamTable streams;
    final List<Connection> slots = new ArrayList<>();
    private final int slotsWanted;
    int state = CONNECTING;
    /** The server's SETTINGS_MAX_CONCURRENT_STREAMS; unlimited until it says. */
    int serverMaxStreams = Integer.MAX_VALUE;
    private int nextStreamId = 1;
    /** The receive window used since the last WINDOW_UPDATE. */
    int windowUsed;
    /** Whether its key asks for OP_WRITE: frames are gathered, or bytes the socket did not take wait. */
    boolean writeAwaited;
    /** Its responses' header blocks decoded, with the dynamic table the server fills. */
    final HpackStatus responseHeaders = new HpackStatus();

    /**
     * Frames to write, gathered over a round of the event loop, then written at once ({@link Http2Io}). Direct
     * for a kept connection in clear, so the socket takes it as it is (a heap buffer goes through the JDK's temporary
     * direct buffer, found by a thread-local lookup on every write: a twelfth of the h2c loop's time in a JFR profile);
     * on the heap over TLS, where it is the cipher's input ({@link TlsWire.Buffers}), and for a connection per
     * request, whose direct buffers only a GC would free.
     */
    ByteBuffer outgoing;
    private final boolean directOutgoing;
    /** A frame's first bytes, when only part of it arrived; null when none. */
    ByteBuffer partialFrame;
    /** The server's dynamic table size this client's header blocks are encoded for (RFC 7541, 4.2). */
    private int tableSizeInForce = Http2Frames.DEFAULT_HEADER_TABLE_SIZE;
    /** A lower size the server's SETTINGS asked for, which the next header block must start by taking; -1: none. */
    private int tableSizeToTake = -1;
    /** Whether the request's fields are in the server's dynamic table, so that requests refer to them there. */
    private boolean fieldsInTable;
    /** Whether they may be put there: not once a lower table size may have evicted them. */
    private boolean fieldsInsertable = true;
    /** A header block continued over CONTINUATION frames: its bytes so far, its stream, and whether it ends the stream. */
    byte[] headerBlock = new byte[0];
    int headerBlockLength;
    int headerBlockStream;
    boolean headerBlockEndsStream;

    /** @param directOutgoing whether the frames to write gather in a direct buffer */
    Http2Session(Wire wire, SelectionKey key, int slotsWanted, boolean directOutgoing) {
        this.wire = wire;
        this.directOutgoing = directOutgoing;
        this.key = key;
        this.slotsWanted = slotsWanted;
        this.streams = new StreamTable(slotsWanted);
        this.outgoing = allocate(4 * 1024);
    }

    private ByteBuffer allocate(int bytes) {
        return directOutgoing ? ByteBuffer.allocateDirect(bytes) : ByteBuffer.allocate(bytes);
    }

    /** The server's SETTINGS_HEADER_TABLE_SIZE: a lower one than in force is taken by the next header block. */
    void serverTableSize(int size) {
        if (size < tableSizeInForce) {
            tableSizeToTake = size;
        }
    }

    /**
     * The next request's HEADERS frame as this connection's HPACK state has it, which it advances: the fields put in
     * the server's table by the first request, referred to by the later ones, spelt out when the table has no room.
     */
    byte[] requestFrame(Http2Frames.RequestFrames frames) {
        if (tableSizeToTake < 0) {
            return frameFor(frames);
        }
        tableSizeInForce = tableSizeToTake;
        tableSizeToTake = -1;
        if (tableSizeInForce < frames.tableBytes()) {
            // Evicted, some or all: spelt out from now on.
            fieldsInTable = false;
            fieldsInsertable = false;
        }
        return Http2Frames.withTableSizeUpdate(frameFor(frames), tableSizeInForce);
    }

    private byte[] frameFor(Http2Frames.RequestFrames frames) {
        if (fieldsInTable) {
            return frames.indexed();
        }
        if (fieldsInsertable && tableSizeInForce >= frames.tableBytes()) {
            fieldsInTable = true;
            return frames.inserting();
        }
        return frames.literal();
    }

    /** Whether another stream slot may be opened on it: it takes new streams and has fewer slots than allowed. */
    boolean hasRoom() {
        return (state == CONNECTING || state == AWAITING_SETTINGS || state == READY) && slots.size() < slotLimit();
    }

    /** Slots at most: the load's streams per connection, within the server's limit. */
    int slotLimit() {
        return Math.min(slotsWanted, serverMaxStreams);
    }

    /** The next stream id; the last one puts the connection into {@link #DRAINING}. */
    int takeStreamId() {
        int id = nextStreamId;
        if (id >= LAST_STREAM_ID - 1) {
            state = DRAINING;
        } else {
            nextStreamId += 2;
        }
        return id;
    }

    /** Room for {@code bytes} more in {@link #outgoing}, which grows (rarely: many requests at once) as needed. */
    ByteBuffer outgoing(int bytes) {
        if (outgoing.remaining() < bytes) {
            ByteBuffer larger = allocate(Math.max(outgoing.capacity() * 2, outgoing.position() + bytes));
            outgoing.flip();
            outgoing = larger.put(outgoing);
        }
        return outgoing;
    }

    /** Whether frames wait in {@link #outgoing}. */
    boolean hasGathered() {
        return outgoing.position() > 0;
    }

    /** Writes what the socket did not take before, then what was gathered; true when nothing waits for the socket. */
    boolean writeGathered() throws IOException {
        if (!wire.flush()) {
            return false;
        }
        if (outgoing.position() > 0) {
            outgoing.flip();
            wire.write(outgoing);
            outgoing.clear();
        }
        return !wire.hasUnsent();
    }

    /**
     * The class of the streams it lost when it ended under them: after a GOAWAY the server's going away ended them,
     * whether its close came as an orderly end of stream or a reset (a server closing with bytes unread).
     */
    ErrorClass lostAs() {
        return state == DRAINING ? ErrorClass.GOAWAY : ErrorClass.RESET;
    }
}
