package dev.gauntlet.loadgen.transport;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;

/** A cleartext socket: bytes go to and come from it as they are. */
final class PlainWire extends Wire {

    PlainWire(SocketChannel channel) {
        super(channel);
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
        return channel.read(into);
    }

    @Override
    boolean holdsReadable() {
        return false;
    }
}
