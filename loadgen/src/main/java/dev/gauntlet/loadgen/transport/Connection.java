package dev.gauntlet.loadgen.transport;

import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One keep-alive connection of the lean engine and the request it carries, if any. Owned by the
 * event loop; the links put it in exactly one of the engine's lists at a time.
 */
final class Connection {
    static final int CONNECTING = 0;
    static final int IDLE = 1;
    static final int BUSY = 2;
    static final int CLOSED = 3;

    final SocketChannel channel;
    final ResponseParser parser;
    SelectionKey key;
    int state = CONNECTING;

    boolean hasRequest;
    long intendedStartNs;
    long sendNs;
    /** Connect or response deadline, whichever the current state waits for. */
    long deadlineNs;
    int writtenBytes;
    boolean awaitingWritable;

    ConnectionList list;
    Connection previous;
    Connection next;

    Connection(SocketChannel channel, ResponseParser parser) {
        this.channel = channel;
        this.parser = parser;
    }
}
