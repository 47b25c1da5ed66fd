package dev.gauntlet.targets.dummy;

import dev.gauntlet.targets.HelloContract;
import dev.gauntlet.targets.RequestStats;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * One keep-alive connection, used only by its selector thread. Pipelined requests are answered in
 * order: while one waits, the rest stay unparsed and the connection is not read.
 */
final class Connection {
    /** The largest request head accepted; a longer one is answered 400 and the connection closed. */
    private static final int HEAD_LIMIT_BYTES = 4096;

    private final SelectionKey key;
    private final SocketChannel channel;
    private final SelectorLoop loop;
    private final RequestStats stats;
    private final ByteBuffer in = ByteBuffer.allocate(HEAD_LIMIT_BYTES);
    private ByteBuffer out = ByteBuffer.allocate(256);
    private long bodyBytesToSkip;
    private RequestHead waiting;
    private boolean closeAfterFlush;

    Connection(SelectionKey key, SelectorLoop loop, RequestStats stats) {
        this.key = key;
        this.channel = (SocketChannel) key.channel();
        this.loop = loop;
        this.stats = stats;
    }

    void onReady() {
        try {
            if (key.isReadable() && channel.read(in) < 0) {
                close();
                return;
            }
            serve();
        } catch (IOException e) {
            close();
        }
    }

    /** The timer of the waiting request fired: answer it, then go on with what is buffered. */
    private void waitOver() {
        RequestHead head = waiting;
        waiting = null;
        if (!channel.isOpen()) {
            stats.fail();
            return;
        }
        loop.serve();
        append(Reply.HELLO.bytes(head));
        stats.complete();
        try {
            serve();
        } catch (IOException e) {
            close();
        }
    }

    private void serve() throws IOException {
        in.flip();
        while (waiting == null && !closeAfterFlush && in.hasRemaining()) {
            if (bodyBytesToSkip > 0) {
                int skipped = (int) Math.min(bodyBytesToSkip, in.remaining());
                in.position(in.position() + skipped);
                bodyBytesToSkip -= skipped;
                continue;
            }
            RequestHead head = RequestHead.parse(in.array(), in.position(), in.limit());
            if (head == null) {
                if (in.remaining() == in.capacity()) {
                    answer(RequestHead.MALFORMED);
                }
                break;
            }
            in.position(head.endIndex());
            bodyBytesToSkip = head.contentLength();
            answer(head);
        }
        in.compact();
        flush();
    }

    private void answer(RequestHead head) {
        closeAfterFlush = !head.keepAlive();
        if (head.reply() != Reply.HELLO) {
            append(head.reply().bytes(head));
            return;
        }
        long waitMs;
        try {
            waitMs = HelloContract.waitMs(head.rawQuery());
        } catch (IllegalArgumentException e) {
            append(Reply.BAD_REQUEST.bytes(head));
            return;
        }
        stats.begin();
        if (waitMs == 0) {
            loop.serve();
            append(Reply.HELLO.bytes(head));
            stats.complete();
        } else {
            waiting = head;
            loop.schedule(waitMs, this::waitOver);
        }
    }

    private void append(byte[] bytes) {
        if (out.remaining() < bytes.length) {
            ByteBuffer larger = ByteBuffer.allocate(Math.max(out.capacity() * 2, out.position() + bytes.length));
            out = larger.put(out.flip());
        }
        out.put(bytes);
    }

    /** Writes what it can; OP_WRITE while bytes remain, no interest at all while a request waits. */
    private void flush() throws IOException {
        out.flip();
        if (out.hasRemaining()) {
            channel.write(out);
        }
        boolean pending = out.hasRemaining();
        out.compact();
        if (pending) {
            key.interestOps(SelectionKey.OP_WRITE);
        } else if (closeAfterFlush && waiting == null) {
            close();
        } else {
            key.interestOps(waiting == null ? SelectionKey.OP_READ : 0);
        }
    }

    private void close() {
        key.cancel();
        try {
            channel.close();
        } catch (IOException e) {
            // The peer is gone already; nothing more to do for it.
        }
    }
}
