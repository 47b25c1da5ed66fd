package dev.gauntlet.loadgen.transport;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.loadgen.engine.TlsClient;
import dev.gauntlet.loadgen.measure.TrafficCounters;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * The lean engine's sockets to the target, for either wire protocol: each non-blocking, without Nagle's delay, from the
 * next of the source addresses when there are any, under a {@link Wire} — plain, or TLS when the load is {@code https}
 * — and made ready by {@link #advance}: the connect, then the TLS handshake.
 */
final class Dialer {
    /** A connect or a handshake that failed, as the request it carried fails. */
    static final class Failed extends Exception {
        final ErrorClass errorClass;

        Failed(ErrorClass errorClass, IOException cause) {
            super(cause.getMessage(), cause, false, false);
            this.errorClass = errorClass;
        }
    }

    private final InetSocketAddress address;
    private final InetAddress[] sourceAddresses;
    private final TlsClient tls;
    private final TlsWire.Buffers tlsBuffers;
    private final TrafficCounters traffic;
    private final WireTimings timings;
    private int nextSource;
    private long opened;

    /**
     * @param tls     the TLS client for an {@code https} load; null in clear
     * @param traffic where the sockets' bytes, opens and closes are counted
     * @param timings where each connect's and handshake's time, and each answer's first byte, are recorded
     */
    Dialer(InetSocketAddress address, InetAddress[] sourceAddresses, TlsClient tls, TrafficCounters traffic,
           WireTimings timings) {
        this.address = address;
        this.sourceAddresses = sourceAddresses;
        this.tls = tls;
        this.tlsBuffers = tls == null ? null : new TlsWire.Buffers();
        this.traffic = traffic;
        this.timings = timings;
    }

    /** A socket whose connect has started (or, rarely, finished: its channel then says it is connected), under its wire. */
    Wire dial() throws IOException {
        SocketChannel channel = SocketChannel.open();
        try {
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
            if (sourceAddresses.length > 0) {
                channel.bind(new InetSocketAddress(sourceAddresses[Math.floorMod(nextSource++, sourceAddresses.length)], 0));
            }
            channel.connect(address);
            Wire wire = tls == null ? new PlainWire(channel, traffic) : new TlsWire(channel, tls.engine(), tlsBuffers, traffic);
            opened++;
            traffic.connectionOpened();
            return wire;
        } catch (IOException e) {
            ConnectionIo.closeQuietly(channel);
            throw e;
        }
    }

    TrafficCounters traffic() {
        return traffic;
    }

    WireTimings timings() {
        return timings;
    }

    /** Sockets dialled so far. */
    long opened() {
        return opened;
    }

    /**
     * The connect, then the handshake, as far as the readiness {@code ready} lets them go: true once the wire is ready
     * for requests; false while it waits, with {@code key} interested in what it waits for.
     */
    boolean advance(Wire wire, SelectionKey key, int ready) throws Failed {
        try {
            if ((ready & SelectionKey.OP_CONNECT) != 0) {
                wire.channel.finishConnect();
            }
        } catch (IOException e) {
            throw new Failed(ConnectionIo.connectError(e), e);
        }
        if (wire.connectedNs == 0 && wire.channel.isConnected()) {
            wire.connectedNs = System.nanoTime();
            timings.connected(wire.dialNs, wire.connectedNs);
        }
        try {
            if (!wire.flush() || !wire.handshake()) {
                key.interestOps(SelectionKey.OP_READ | (wire.hasUnsent() ? SelectionKey.OP_WRITE : 0));
                return false;
            }
        } catch (IOException e) {
            throw new Failed(ConnectionIo.handshakeError(e), e);
        }
        if (wire instanceof TlsWire) {
            timings.handshaken(wire.connectedNs, System.nanoTime());
        }
        key.interestOps(SelectionKey.OP_READ);
        return true;
    }
}
