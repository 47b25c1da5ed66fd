package dev.gauntlet.loadgen.transport;

import dev.gauntlet.loadgen.measure.TrafficCounters;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/** A cleartext socket: bytes go to and come from it as they are. */
final class PlainWire extends Wire {

    PlainWire(SocketChannel channel, TrafficCounters traffic) {
        super(channel, traffic);
    }

    @Override
    boolean handshake() {
        return true;
    }

    @Override
    String applicationProtocol() {
        return "";
    }

    @Override
    void write(ByteBuffer bytes) throws IOException {
        send(bytes);
    }

    @Override
    int read(ByteBuffer into) throws IOException {
        int read = channel.read(into);
        if (read > 0) {
            traffic.received(read);
        }
        return read;
    }

    @Override
    boolean holdsReadable() {
        return false;
    }
}
