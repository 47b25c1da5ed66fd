package dev.gauntlet.loadgen;

import dev.gauntlet.api.LoadSpec;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;

/** Where the load goes: the spec's target resolved, and checked to answer before anything starts. */
final class TargetAddress {
    private TargetAddress() {
    }

    /** The spec's host and port (80 when the URL names none), resolved. */
    static InetSocketAddress resolve(LoadSpec spec) {
        int port = spec.url().getPort() < 0 ? 80 : spec.url().getPort();
        InetSocketAddress address = new InetSocketAddress(spec.url().getHost(), port);
        if (address.isUnresolved()) {
            throw new GeneratorException("unknown host " + spec.url().getHost());
        }
        return address;
    }

    /** One blocking connect first, so a wrong port is one clear line rather than a run of refusals. */
    static void checkReachable(InetSocketAddress address, long connectTimeoutMs) {
        try (Socket socket = new Socket()) {
            socket.connect(address, (int) Math.min(connectTimeoutMs, Integer.MAX_VALUE));
        } catch (ConnectException e) {
            throw new GeneratorException("nothing listens on " + hostPort(address));
        } catch (SocketTimeoutException e) {
            throw new GeneratorException("no answer from " + hostPort(address) + " within " + connectTimeoutMs + " ms");
        } catch (IOException e) {
            throw new GeneratorException("cannot connect to " + hostPort(address) + ": " + e.getMessage());
        }
    }

    private static String hostPort(InetSocketAddress address) {
        return address.getHostString() + ":" + address.getPort();
    }
}
