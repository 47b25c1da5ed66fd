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
 * ({@link Http2Frames}); what arrives is read by the {@link Http2Reader}. Over TLS, ALPN must choose {@code h2}; in
 * clear the connection starts with the preface (prior knowledge).
 *
 * <p>What the server does to a stream is its request's end: RST_STREAM fails it as {@link ErrorClass#STREAM_RESET};
 * a GOAWAY fails the streams above its last id as {@link ErrorClass#GOAWAY}, lets the others finish and takes the
 * connection out of use. Frames that break the protocol fail every stream of the connection as
 * {@link ErrorClass#PROTOCOL}. Flow control never holds a request back: a GET sends no DATA, and this client keeps its
 * receive windows open.
 *
 * <p>Writes are gathered, h2load's way: the frames a connection's streams produce in one round of the event loop (the
 * requests the loop sends, those that responses freed, the acknowledgements) go into its outgoing buffer, and its key
 * asks for OP_WRITE; the next select, which returns at once since the socket is writable, reads what arrived first
 * (gathering more) and then writes them all, once for the connection. So several streams' HEADERS share a write, and the
 * server reads fewer, larger segments. No timer is added: the next select is the same loop round's wait for a request
 * the loop sent, the next round's for one a response freed.
 */
final class Http2Io implements ConnectionIo {
    private static final int CANCEL = 0x8;

    private final Selector selector;
    private final Dialer dialer;
    private final boolean tls;
    private final Events events;
    private final Http2Reader reader;
    private final int streamsPerConnection;
    /** A connection per request: its buffers on the heap, since direct ones only a GC would free. */
    private final boolean connectionPerRequest;
    private final byte[] connectionStart;
    private final Http2Frames.RequestFrames requestFrames;
    private final List<Http2Session> sessions = new ArrayList<>();
    private int sessionsPeak;

    /** @param expectedBody the body a correct response carries, compared as it arrives; null: any */
    Http2Io(LoadSpec spec, Selector selector, Dialer dialer, byte[] expectedBody, Events events) {
        this.selector = selector;
        this.dialer = dialer;
        this.tls = spec.tls();
        this.events = events;
        this.reader = new Http2Reader(events, expectedBody, spec.newConnectionPerRequest());
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
            wire.close();
            throw e;
        }
    }

    @Override
    public void onReady(SelectionKey key) {
        Http2Session session = (Http2Session) key.attachment();
        if (!key.isValid() || session.state == Http2Session.CLOSED) {
            return;
        }
        int ready = key.readyOps();
        if (session.state == Http2Session.CONNECTING) {
            advanceConnect(session, ready);
            return;
        }
        if ((ready & SelectionKey.OP_READ) != 0) {
            ErrorClass lost = reader.read(session);
            if (lost != null) {
                fail(session, lost);
                return;
            }
        }
        if (session.state == Http2Session.CLOSED) {
            return;
        }
        if ((ready & SelectionKey.OP_WRITE) != 0) {
            flush(session);
        } else if (session.hasGathered()) {
            // What the reads produced (acknowledgements, requests that responses freed) waits for the next select.
            awaitWrite(session);
        }
    }

    /** The connect, the TLS handshake and ALPN's choice, then the preface: the slots are ready once the server's SETTINGS arrive. */
    private void advanceConnect(Http2Session session, int ready) {
        try {
            if (!dialer.advance(session.wire, session.key, ready)) {
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
        awaitWrite(session);
    }

    /** The session's key asks for OP_WRITE: its next select writes what it gathered by then. */
    private static void awaitWrite(Http2Session session) {
        if (!session.writeAwaited && session.key.isValid()) {
            session.writeAwaited = true;
            session.key.interestOps(SelectionKey.OP_READ | SelectionKey.OP_WRITE);
        }
    }

    /** Writes the session's gathered frames; what the socket does not take waits for OP_WRITE. */
    private void flush(Http2Session session) {
        try {
            boolean done = session.writeGathered();
            if (done == session.writeAwaited) {
                session.writeAwaited = !done;
                session.key.interestOps(done ? SelectionKey.OP_READ : SelectionKey.OP_READ | SelectionKey.OP_WRITE);
            }
        } catch (IOException e) {
            fail(session, session.lostAs());
        }
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
                Http2Frames.rstStream(session.outgoing(Http2Frames.FRAME_HEADER_BYTES + 4), slot.streamId, CANCEL);
                awaitWrite(session);
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
        session.wire.close();
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
}
