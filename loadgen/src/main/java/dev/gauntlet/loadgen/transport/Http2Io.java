package dev.gauntlet.loadgen.transport;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.LoadSpec;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.ArrayList;
import java.util.List;

/**
 * HTTP/2 for the lean engine (RFC 9113): each {@link Connection} a stream slot of an {@link Http2Session}, up to the
 * load's streams per connection (h2load's {@code -m}) within the server's limit; a slot opened when every connection's
 * slots are taken opens a new connection. Each request is a new stream, its HEADERS frame pre-encoded
 * ({@link Http2Frames}); a response is its {@code :status} ({@link HpackStatus}) and its DATA compared with the
 * expected body as it arrives. Over TLS, ALPN must choose {@code h2}; in clear the connection starts with the preface
 * (prior knowledge).
 *
 * <p>What the server does to a stream is its request's end: RST_STREAM fails it as {@link ErrorClass#STREAM_RESET};
 * a GOAWAY fails the streams above its last id as {@link ErrorClass#GOAWAY}, lets the others finish and takes the
 * connection out of use. Frames that break the protocol fail every stream of the connection as
 * {@link ErrorClass#PROTOCOL}. Flow control never holds a request back: a GET sends no DATA, and this client keeps its
 * receive windows open.
 *
 * <p>Frames written while it handles what a connection read (a response freeing a slot that the next request takes at
 * once) are gathered and written together when the handling ends; a request sent from the loop is written at once.
 */
final class Http2Io implements ConnectionIo {
    private static final int CANCEL = 0x8;

    private final Selector selector;
    private final Dialer dialer;
    private final boolean tls;
    private final byte[] expectedBody;
    private final Events events;
    private final int streamsPerConnection;
    /** Each connection closed after its one answer: HTTP/2 has no {@code Connection: close}; the client ends it. */
    private final boolean connectionPerRequest;
    private final byte[] connectionStart;
    private final Http2Frames.RequestFrames requestFrames;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);
    private final byte[] headerScratch = new byte[Http2Frames.MAX_FRAME_PAYLOAD];
    private final List<Http2Session> sessions = new ArrayList<>();
    private Http2Session handling;
    private int sessionsPeak;
    private int nextSource;

    /** @param expectedBody the body a correct response carries, compared as it arrives; null: any */
    Http2Io(LoadSpec spec, Selector selector, Dialer dialer, byte[] expectedBody, Events events) {
        this.selector = selector;
        this.dialer = dialer;
        this.tls = spec.tls();
        this.expectedBody = expectedBody;
        this.events = events;
        this.streamsPerConnection = spec.streams();
        this.connectionPerRequest = spec.newConnectionPerRequest();
        this.connectionStart = Http2Frames.connectionStart();
        this.requestFrames = Http2Frames.requestFrames(spec);
    }

    @Override
    public Connection open() throws IOException {
        Http2Session session = sessionWithRoom();
        if (session == null) {
            session = openSession();
            if (session.state == Http2Session.CLOSED) {
                throw new IOException("the connection failed as it opened");
            }
        }
        Connection slot = new Connection(session);
        session.slots.add(slot);
        if (session.state == Http2Session.READY) {
            slot.state = Connection.IDLE;
        }
        return slot;
    }

    private Http2Session sessionWithRoom() {
        for (int i = sessions.size() - 1; i >= 0; i--) {
            if (sessions.get(i).hasRoom()) {
                return sessions.get(i);
            }
        }
        return null;
    }

    private Http2Session openSession() throws IOException {
        Wire wire = dialer.dial();
        try {
            SelectionKey key = wire.channel.register(selector, SelectionKey.OP_CONNECT);
            Http2Session session = new Http2Session(wire, key, streamsPerConnection, !tls && !connectionPerRequest);
            key.attach(session);
            sessions.add(session);
            sessionsPeak = Math.max(sessionsPeak, sessions.size());
            if (wire.channel.isConnected()) {
                advanceConnect(session, 0);
            }
            return session;
        } catch (IOException e) {
            ConnectionIo.closeQuietly(wire.channel);
            throw e;
        }
    }

    @Override
    public void onReady(SelectionKey key) {
        Http2Session session = (Http2Session) key.attachment();
        if (!key.isValid() || session.state == Http2Session.CLOSED) {
            return;
        }
        handling = session;
        try {
            int ready = key.readyOps();
            if (session.state == Http2Session.CONNECTING) {
                advanceConnect(session, ready);
            } else {
                if ((ready & SelectionKey.OP_WRITE) != 0) {
                    flush(session);
                }
                if ((ready & SelectionKey.OP_READ) != 0 && session.state != Http2Session.CLOSED) {
                    onReadable(session);
                }
            }
        } finally {
            handling = null;
            if (session.state != Http2Session.CLOSED) {
                flush(session);
            }
        }
    }

    /** The connect, the TLS handshake and ALPN's choice, then the preface: the slots are ready once the server's SETTINGS arrive. */
    private void advanceConnect(Http2Session session, int ready) {
        try {
            if (!Dialer.advance(session.wire, session.key, ready)) {
                return;
            }
        } catch (Dialer.Failed e) {
            fail(session, e.errorClass);
            return;
        }
        if (tls && !"h2".equals(session.wire.applicationProtocol())) {
            // The server chose HTTP/1.1 (or nothing): it does not speak HTTP/2 here.
            fail(session, ErrorClass.PROTOCOL);
            return;
        }
        session.state = Http2Session.AWAITING_SETTINGS;
        session.outgoing(connectionStart.length).put(connectionStart);
        flush(session);
    }

    @Override
    public void write(Connection slot) {
        Http2Session session = slot.session;
        if (session.state != Http2Session.READY) {
            events.failed(slot, ErrorClass.GOAWAY);
            return;
        }
        slot.streamId = session.takeStreamId();
        slot.status = 0;
        slot.bodyBytes = 0;
        slot.bodyDiffers = false;
        session.streams.put(slot.streamId, slot);
        byte[] frame = session.requestFrame(requestFrames);
        ByteBuffer out = session.outgoing(frame.length);
        int frameStart = out.position();
        out.put(frame);
        out.putInt(frameStart + 5, slot.streamId);
        if (handling != session) {
            flush(session);
        }
    }

    /** Writes the session's gathered frames; what the socket does not take waits for OP_WRITE. */
    private void flush(Http2Session session) {
        try {
            boolean done = session.writeGathered() && session.wire.flush();
            if (done == session.awaitingWritable) {
                session.awaitingWritable = !done;
                session.key.interestOps(done ? SelectionKey.OP_READ : SelectionKey.OP_READ | SelectionKey.OP_WRITE);
            }
        } catch (IOException e) {
            fail(session, lost(session));
        }
    }

    /**
     * The class of the streams a connection lost when it ended under them: after a GOAWAY the server's going away
     * ended them, whether its close came as an orderly end of stream or a reset (a server closing with bytes unread).
     */
    private static ErrorClass lost(Http2Session session) {
        return session.state == Http2Session.DRAINING ? ErrorClass.GOAWAY : ErrorClass.RESET;
    }

    @Override
    public int socketsPeak(int connectionsPeak) {
        return sessionsPeak;
    }

    @Override
    public void release(Connection slot) {
        Http2Session session = slot.session;
        if (slot.streamId != 0) {
            session.streams.remove(slot.streamId);
            if (session.state == Http2Session.READY || session.state == Http2Session.DRAINING) {
                // A stream given up (its timeout, or the run let it go): the server may stop working on it.
                ByteBuffer out = session.outgoing(Http2Frames.FRAME_HEADER_BYTES + 4);
                Http2Frames.header(out, 4, Http2Frames.RST_STREAM, 0, slot.streamId);
                out.putInt(CANCEL);
                if (handling != session) {
                    flush(session);
                }
            }
            slot.streamId = 0;
        }
        session.slots.remove(slot);
        if (session.slots.isEmpty()) {
            close(session);
        }
    }

    private void close(Http2Session session) {
        if (session.state == Http2Session.CLOSED) {
            return;
        }
        session.state = Http2Session.CLOSED;
        sessions.remove(session);
        session.key.cancel();
        ConnectionIo.closeQuietly(session.wire.channel);
    }

    /** Fails every slot of the session as {@code errorClass}: the connection is lost. */
    private void fail(Http2Session session, ErrorClass errorClass) {
        for (Connection slot : List.copyOf(session.slots)) {
            if (slot.state != Connection.CLOSED) {
                slot.streamId = 0;
                events.failed(slot, errorClass);
            }
        }
        close(session);
    }

    private void onReadable(Http2Session session) {
        while (session.state != Http2Session.CLOSED) {
            readBuffer.clear();
            if (session.partialFrame != null) {
                readBuffer.put(session.partialFrame);
                session.partialFrame = null;
            }
            int kept = readBuffer.position();
            int n;
            try {
                n = session.wire.read(readBuffer);
            } catch (IOException e) {
                fail(session, lost(session));
                return;
            }
            if (n < 0) {
                fail(session, lost(session));
                return;
            }
            readBuffer.flip();
            if (!readFrames(session)) {
                fail(session, ErrorClass.PROTOCOL);
                return;
            }
            if (readBuffer.hasRemaining()) {
                session.partialFrame = ByteBuffer.allocate(readBuffer.remaining()).put(readBuffer).flip();
            }
            if (n == 0 || (kept + n < readBuffer.capacity() && !session.wire.holdsReadable())) {
                return;
            }
        }
    }

    /** Handles every whole frame in the read buffer, leaving a part one; false when the frames break the protocol. */
    private boolean readFrames(Http2Session session) {
        ByteBuffer in = readBuffer;
        while (in.remaining() >= Http2Frames.FRAME_HEADER_BYTES && session.state != Http2Session.CLOSED) {
            int start = in.position();
            int length = ((in.get(start) & 0xff) << 16) | ((in.get(start + 1) & 0xff) << 8) | (in.get(start + 2) & 0xff);
            if (length > Http2Frames.MAX_FRAME_PAYLOAD) {
                // Also what an HTTP/1.1 answer to the preface looks like ("HTT" is a length of 4.7 MB).
                return false;
            }
            if (in.remaining() < Http2Frames.FRAME_HEADER_BYTES + length) {
                return true;
            }
            int type = in.get(start + 3) & 0xff;
            int flags = in.get(start + 4) & 0xff;
            int streamId = in.getInt(start + 5) & 0x7fffffff;
            int payload = start + Http2Frames.FRAME_HEADER_BYTES;
            in.position(payload + length);
            if (session.headerBlockStream != 0 && type != Http2Frames.CONTINUATION) {
                return false;
            }
            boolean ok = switch (type) {
                case Http2Frames.DATA -> onData(session, streamId, flags, payload, length);
                case Http2Frames.HEADERS -> onHeaders(session, streamId, flags, payload, length);
                case Http2Frames.CONTINUATION -> onContinuation(session, streamId, flags, payload, length);
                case Http2Frames.RST_STREAM -> onReset(session, streamId, length);
                case Http2Frames.SETTINGS -> onSettings(session, flags, payload, length);
                case Http2Frames.PING -> onPing(session, flags, payload, length);
                case Http2Frames.GOAWAY -> onGoaway(session, payload, length);
                // Push is off in the client's settings: a promise breaks them.
                case Http2Frames.PUSH_PROMISE -> false;
                // PRIORITY, WINDOW_UPDATE (this client sends no DATA) and unknown types are ignored, as RFC 9113 allows.
                default -> true;
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private boolean onData(Http2Session session, int streamId, int flags, int payload, int length) {
        session.windowUsed += length;
        if (session.windowUsed >= Http2Frames.WINDOW_TOP_UP) {
            Http2Frames.windowUpdate(session.outgoing(Http2Frames.FRAME_HEADER_BYTES + 4), session.windowUsed);
            session.windowUsed = 0;
        }
        Connection slot = session.streams.get(streamId);
        if (slot == null) {
            return streamId != 0;
        }
        int padding = 0;
        int dataStart = payload;
        if ((flags & Http2Frames.FLAG_PADDED) != 0) {
            padding = readBuffer.get(payload) & 0xff;
            dataStart++;
        }
        int dataLength = length - (dataStart - payload) - padding;
        if (dataLength < 0) {
            return false;
        }
        compareBody(slot, dataStart, dataLength);
        if ((flags & Http2Frames.FLAG_END_STREAM) != 0) {
            complete(session, slot);
        }
        return true;
    }

    private void compareBody(Connection slot, int from, int length) {
        if (expectedBody == null) {
            slot.bodyBytes += length;
            return;
        }
        for (int i = 0; i < length && !slot.bodyDiffers; i++) {
            long at = slot.bodyBytes + i;
            slot.bodyDiffers = at >= expectedBody.length || expectedBody[(int) at] != readBuffer.get(from + i);
        }
        slot.bodyBytes += length;
    }

    private boolean onHeaders(Http2Session session, int streamId, int flags, int payload, int length) {
        if (streamId == 0) {
            return false;
        }
        int blockStart = payload;
        int padding = 0;
        if ((flags & Http2Frames.FLAG_PADDED) != 0) {
            padding = readBuffer.get(payload) & 0xff;
            blockStart++;
        }
        if ((flags & Http2Frames.FLAG_PRIORITY) != 0) {
            blockStart += 5;
        }
        int blockLength = length - (blockStart - payload) - padding;
        if (blockLength < 0) {
            return false;
        }
        boolean endStream = (flags & Http2Frames.FLAG_END_STREAM) != 0;
        if ((flags & Http2Frames.FLAG_END_HEADERS) == 0) {
            session.headerBlockStream = streamId;
            session.headerBlockEndsStream = endStream;
            session.headerBlockLength = 0;
            appendHeaderBlock(session, blockStart, blockLength);
            return true;
        }
        readBuffer.get(blockStart, headerScratch, 0, blockLength);
        return onHeaderBlock(session, streamId, headerScratch, blockLength, endStream);
    }

    private boolean onContinuation(Http2Session session, int streamId, int flags, int payload, int length) {
        if (streamId == 0 || streamId != session.headerBlockStream) {
            return false;
        }
        appendHeaderBlock(session, payload, length);
        if ((flags & Http2Frames.FLAG_END_HEADERS) == 0) {
            return true;
        }
        session.headerBlockStream = 0;
        return onHeaderBlock(session, streamId, session.headerBlock, session.headerBlockLength, session.headerBlockEndsStream);
    }

    private void appendHeaderBlock(Http2Session session, int from, int length) {
        if (session.headerBlock.length < session.headerBlockLength + length) {
            session.headerBlock = java.util.Arrays.copyOf(session.headerBlock, Math.max(2 * session.headerBlock.length,
                    session.headerBlockLength + length));
        }
        readBuffer.get(from, session.headerBlock, session.headerBlockLength, length);
        session.headerBlockLength += length;
    }

    /** A whole header block: the response's status (an interim 1xx is skipped), or its trailers. */
    private boolean onHeaderBlock(Http2Session session, int streamId, byte[] block, int length, boolean endStream) {
        // Decoded whatever the stream: HPACK's state is the connection's, and a block that breaks it ends the connection.
        int status = HpackStatus.of(block, 0, length);
        if (status == HpackStatus.MALFORMED) {
            return false;
        }
        Connection slot = session.streams.get(streamId);
        if (slot == null) {
            return true;
        }
        if (slot.status == 0 && status >= 200) {
            slot.status = status;
        }
        if (endStream) {
            if (slot.status == 0) {
                return false;
            }
            complete(session, slot);
        }
        return true;
    }

    private void complete(Http2Session session, Connection slot) {
        session.streams.remove(slot.streamId);
        slot.streamId = 0;
        boolean bodyMatches = expectedBody == null || (!slot.bodyDiffers && slot.bodyBytes == expectedBody.length);
        events.answered(slot, System.nanoTime(), slot.status, bodyMatches,
                connectionPerRequest || session.state != Http2Session.READY);
    }

    private boolean onReset(Http2Session session, int streamId, int length) {
        if (streamId == 0 || length != 4) {
            return false;
        }
        Connection slot = session.streams.get(streamId);
        if (slot != null) {
            session.streams.remove(streamId);
            slot.streamId = 0;
            events.failed(slot, ErrorClass.STREAM_RESET);
        }
        return true;
    }

    private boolean onSettings(Http2Session session, int flags, int payload, int length) {
        if ((flags & Http2Frames.FLAG_ACK) != 0) {
            return length == 0;
        }
        if (length % 6 != 0) {
            return false;
        }
        for (int at = payload; at < payload + length; at += 6) {
            int setting = readBuffer.getShort(at) & 0xffff;
            int value = (int) Math.min(Integer.MAX_VALUE, readBuffer.getInt(at + 2) & 0xffffffffL);
            if (setting == Http2Frames.SETTINGS_MAX_CONCURRENT_STREAMS) {
                session.serverMaxStreams = value;
            } else if (setting == Http2Frames.SETTINGS_HEADER_TABLE_SIZE) {
                session.serverTableSize(value);
            }
        }
        ByteBuffer out = session.outgoing(Http2Frames.FRAME_HEADER_BYTES);
        Http2Frames.header(out, 0, Http2Frames.SETTINGS, Http2Frames.FLAG_ACK, 0);
        if (session.state == Http2Session.AWAITING_SETTINGS) {
            session.state = Http2Session.READY;
            fitSlots(session);
            for (Connection slot : List.copyOf(session.slots)) {
                if (slot.state == Connection.CONNECTING) {
                    events.connected(slot);
                }
            }
        } else {
            fitSlots(session);
        }
        return true;
    }

    /** Closes the slots beyond the server's stream limit that carry no request; the engine opens others elsewhere. */
    private void fitSlots(Http2Session session) {
        int surplus = session.slots.size() - session.slotLimit();
        for (Connection slot : List.copyOf(session.slots)) {
            if (surplus <= 0) {
                return;
            }
            if (!slot.hasRequest) {
                events.close(slot);
                surplus--;
            }
        }
    }

    private boolean onPing(Http2Session session, int flags, int payload, int length) {
        if (length != 8) {
            return false;
        }
        if ((flags & Http2Frames.FLAG_ACK) == 0) {
            ByteBuffer out = session.outgoing(Http2Frames.FRAME_HEADER_BYTES + 8);
            Http2Frames.header(out, 8, Http2Frames.PING, Http2Frames.FLAG_ACK, 0);
            out.putLong(readBuffer.getLong(payload));
        }
        return true;
    }

    /** The streams above the last one the server processes fail; the rest finish; nothing new starts on it. */
    private boolean onGoaway(Http2Session session, int payload, int length) {
        if (length < 8) {
            return false;
        }
        int lastStreamId = readBuffer.getInt(payload) & 0x7fffffff;
        session.state = Http2Session.DRAINING;
        for (Connection slot : List.copyOf(session.slots)) {
            if (slot.state == Connection.CLOSED) {
                continue;
            }
            if (slot.streamId > lastStreamId) {
                session.streams.remove(slot.streamId);
                slot.streamId = 0;
                events.failed(slot, ErrorClass.GOAWAY);
            } else if (!slot.hasRequest) {
                events.close(slot);
            }
        }
        return true;
    }
}
