package dev.gauntlet.loadgen.transport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SocketChannel;

/** The lean engine's sockets: non-blocking, no Nagle delay, from the n-th of the source addresses when there are any. */
final class Sockets {
    private Sockets() {
    }

    /** A socket whose connect to {@code address} has started (or, rarely, finished: it then says it is connected). */
    static SocketChannel open(InetSocketAddress address, InetAddress[] sourceAddresses, int n) throws IOException {
        SocketChannel channel = SocketChannel.open();
        try {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            if (sourceAddresses.length > 0) {
                channel.bind(new InetSocketAddress(sourceAddresses[Math.floorMod(n, sourceAddresses.length)], 0));
            }
            channel.connect(address);
            return channel;
        } catch (IOException e) {
            ConnectionIo.closeQuietly(channel);
            throw e;
        }
    }
}
