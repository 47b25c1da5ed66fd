package dev.gauntlet.loadgen.transport;

import dev.gauntlet.api.ErrorClass;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * What an {@link Http2Session} reads, frame by frame (RFC 9113), and what each frame does: a response is its
 * {@code :status} ({@link HpackStatus}, the connection's decoder) and its DATA compared with the expected body as it
 * arrives; the server's SETTINGS open the connection's slots; RST_STREAM, GOAWAY and frames that break the protocol end
 * streams, told to the event loop's {@link ConnectionIo.Events}. The frames it answers with (a SETTINGS or PING
 * acknowledgement, a WINDOW_UPDATE) are gathered in the session's outgoing buffer, for {@link Http2Io} to write. One
 * read buffer for every connection: the event loop reads one at a time.
 */
final class Http2Reader {
    private static final int PROTOCOL_ERROR = 0x1;

    private final ConnectionIo.Events events;
    private final byte[] expectedBody;
    /** Each connection closed after its one answer: HTTP/2 has no {@code Connection: close}; the client ends it. */
    private final boolean connectionPerRequest;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(64 * 1024);

    /** @param expectedBody the body a correct response carries, compared as it arrives; null: any */
    Http2Reader(ConnectionIo.Events events, byte[] expectedBody, boolean connectionPerRequest) {
        this.events = events;
        this.expectedBody = expectedBody;
        this.connectionPerRequest = connectionPerRequest;
    }

    /**
     * Reads what arrived and handles its whole frames, keeping a frame that arrived in part; null when the connection
     * may go on, else the class its streams fail as: it was lost, or its frames broke the protocol.
     */
    ErrorClass read(Http2Session session) {
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
                return session.lostAs();
            }
            if (n < 0) {
                return session.lostAs();
            }
            readBuffer.flip();
            if (!readFrames(session)) {
                return ErrorClass.PROTOCOL;
            }
            if (readBuffer.hasRemaining()) {
                session.partialFrame = ByteBuffer.allocate(readBuffer.remaining()).put(readBuffer).flip();
            }
            if (n == 0 || (kept + n < readBuffer.capacity() && !session.wire.holdsReadable())) {
                return null;
            }
        }
        return null;
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
        // Decoded where it lies in the read buffer, the buffer's bounds put back after.
        int frameEnd = readBuffer.position();
        int limit = readBuffer.limit();
        readBuffer.limit(blockStart + blockLength).position(blockStart);
        int status = session.responseHeaders.of(readBuffer);
        readBuffer.limit(limit).position(frameEnd);
        return onHeaderBlock(session, streamId, status, endStream);
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
        int status = session.responseHeaders.of(ByteBuffer.wrap(session.headerBlock, 0, session.headerBlockLength));
        return onHeaderBlock(session, streamId, status, session.headerBlockEndsStream);
    }

    private void appendHeaderBlock(Http2Session session, int from, int length) {
        if (session.headerBlock.length < session.headerBlockLength + length) {
            session.headerBlock = Arrays.copyOf(session.headerBlock, Math.max(2 * session.headerBlock.length,
                    session.headerBlockLength + length));
        }
        readBuffer.get(from, session.headerBlock, session.headerBlockLength, length);
        session.headerBlockLength += length;
    }

    /**
     * A whole header block's {@code status} as decoded (it was, whatever the stream: HPACK's state is the
     * connection's): the response's status (an interim 1xx is skipped), or its trailers.
     */
    private boolean onHeaderBlock(Http2Session session, int streamId, int status, boolean endStream) {
        if (status == HpackStatus.MALFORMED) {
            return false;
        }
        Connection slot = session.streams.get(streamId);
        if (slot == null) {
            return true;
        }
        if (status == HpackStatus.INVALID) {
            // The connection's HPACK state is intact: only this stream is broken, and the server may stop it.
            session.streams.remove(streamId);
            slot.streamId = 0;
            Http2Frames.rstStream(session.outgoing(Http2Frames.FRAME_HEADER_BYTES + 4), streamId, PROTOCOL_ERROR);
            events.failed(slot, ErrorClass.PROTOCOL);
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
