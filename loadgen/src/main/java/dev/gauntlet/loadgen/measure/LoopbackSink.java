package dev.gauntlet.loadgen.measure;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;

/**
 * A keep-alive HTTP/1.1 server on 127.0.0.1, port 0, in the generator's own process, answering
 * every request at once with the target contract's {@code hello} response: what
 * {@link JitWarmup} drives the engine against, so the generator's code is compiled without
 * sending anything to the target. One thread, one selector; it answers each request head
 * ({@code \r\n\r\n}) it reads and ignores the rest.
 *
 * <pre>{@code
 * try (LoopbackSink sink = LoopbackSink.start()) {
 *     URI url = sink.uri("/hello?wait=100");   // the wait is not honoured: it answers at once
 * }
 * }</pre>
 */
final class LoopbackSink implements AutoCloseable {
    private static final byte[] HELLO = ("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\nhello")
            .getBytes(StandardCharsets.US_ASCII);

    private final Selector selector;
    private final ServerSocketChannel server;
    private final Thread loop;
    private final ByteBuffer readBuffer = ByteBuffer.allocateDirect(16 * 1024);
    private volatile boolean open = true;

    private LoopbackSink() throws IOException {
        selector = Selector.open();
        server = ServerSocketChannel.open().bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1_000);
        server.configureBlocking(false);
        server.register(selector, SelectionKey.OP_ACCEPT);
        loop = Thread.ofPlatform().name("gauntlet-sink").daemon().start(this::serve);
    }

    static LoopbackSink start() {
        try {
            return new LoopbackSink();
        } catch (IOException e) {
            throw new UncheckedIOException("the generator's loopback sink could not start", e);
        }
    }

    URI uri(String pathAndQuery) {
        return URI.create("http://127.0.0.1:" + server.socket().getLocalPort() + pathAndQuery);
    }

    private void serve() {
        try {
            while (open) {
                selector.select(this::onReady, 100);
            }
        } catch (IOException | RuntimeException e) {
            // Closed under it: the warm-up is over.
        }
    }

    private void onReady(SelectionKey key) {
        try {
            if (key.isAcceptable()) {
                SocketChannel channel = server.accept();
                if (channel != null) {
                    channel.configureBlocking(false);
                    channel.register(selector, SelectionKey.OP_READ, new int[1]);
                }
            } else if (key.isReadable()) {
                answer((SocketChannel) key.channel(), (int[]) key.attachment(), key);
            }
        } catch (IOException e) {
            key.cancel();
            closeQuietly(key.channel());
        }
    }

    /** {@code matched[0]}: how much of a {@code \r\n\r\n} ended the bytes read so far. */
    private void answer(SocketChannel channel, int[] matched, SelectionKey key) throws IOException {
        readBuffer.clear();
        int n = channel.read(readBuffer);
        if (n < 0) {
            key.cancel();
            channel.close();
            return;
        }
        int heads = 0;
        for (int i = 0; i < n; i++) {
            byte b = readBuffer.get(i);
            matched[0] = b == (matched[0] % 2 == 0 ? '\r' : '\n') ? matched[0] + 1 : (b == '\r' ? 1 : 0);
            if (matched[0] == 4) {
                heads++;
                matched[0] = 0;
            }
        }
        for (int i = 0; i < heads; i++) {
            // Loopback takes a few hundred bytes at once: a partial write would only lose a warm-up response.
            channel.write(ByteBuffer.wrap(HELLO));
        }
    }

    @Override
    public void close() {
        open = false;
        selector.wakeup();
        try {
            loop.join(1_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (SelectionKey key : selector.keys()) {
            closeQuietly(key.channel());
        }
        closeQuietly(selector);
    }

    private static void closeQuietly(AutoCloseable closeable) {
        try {
            closeable.close();
        } catch (Exception ignored) {
            // Ending the warm-up: nothing left to report.
        }
    }
}
