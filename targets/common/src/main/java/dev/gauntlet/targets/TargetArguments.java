package dev.gauntlet.targets;

import dev.gauntlet.api.Protocol;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Parses {@link TargetMain}'s command line; any mistake is an {@link IllegalArgumentException} with a one-line message.
 *
 * @param tls   {@code --tls}: {@code self-signed} or a PKCS#12 file; null: cleartext
 * @param also  {@code --also}: further protocols, each served by another instance of the server on a port of its own
 */
record TargetArguments(String serverClass, TargetSettings settings, String tls, List<Protocol> also) {

    static final String SELF_SIGNED = "self-signed";

    static TargetArguments parse(String[] args) {
        TargetSettings d = TargetSettings.defaults();
        String serverClass = null;
        String bind = d.bind();
        String adminBind = d.adminBind();
        int port = d.port();
        int adminPort = d.adminPort();
        int workers = d.workers();
        int ioThreads = d.ioThreads();
        int asyncThreads = d.asyncThreads();
        int backlog = d.backlog();
        boolean tcpNoDelay = d.tcpNoDelay();
        boolean reuseAddress = d.reuseAddress();
        String tls = null;
        boolean http2 = d.http2();
        boolean http3 = d.http3();
        List<Protocol> also = List.of();
        for (int i = 0; i < args.length; i += 2) {
            String flag = args[i];
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = args[i + 1];
            switch (flag) {
                case "--server" -> serverClass = value;
                case "--bind" -> bind = value;
                case "--admin-bind" -> adminBind = value;
                case "--port" -> port = intIn(flag, value, 0, 65_535);
                case "--admin-port" -> adminPort = intIn(flag, value, 0, 65_535);
                case "--workers" -> workers = intIn(flag, value, 1, 100_000);
                case "--io-threads" -> ioThreads = intIn(flag, value, 1, 1_024);
                case "--async-threads" -> asyncThreads = intIn(flag, value, 1, 100_000);
                case "--backlog" -> backlog = intIn(flag, value, 1, 1_000_000);
                case "--tcp-no-delay" -> tcpNoDelay = bool(flag, value);
                case "--reuse-address" -> reuseAddress = bool(flag, value);
                case "--tls" -> tls = tlsSource(value);
                case "--http2" -> http2 = bool(flag, value);
                case "--http3" -> http3 = bool(flag, value);
                case "--also" -> also = protocols(flag, value);
                default -> throw new IllegalArgumentException("unknown flag " + flag);
            }
        }
        if (serverClass == null) {
            throw new IllegalArgumentException("--server CLASS is required");
        }
        if (http3 && tls == null) {
            throw new IllegalArgumentException("--http3 needs --tls (QUIC is always encrypted): add --tls self-signed");
        }
        Protocol main = Protocol.of(tls != null, http2, http3);
        if (also.contains(main)) {
            throw new IllegalArgumentException("--also " + main.label() + " is what the main port serves already");
        }
        return new TargetArguments(serverClass, new TargetSettings(bind, adminBind, port, adminPort, workers,
                ioThreads, asyncThreads, backlog, tcpNoDelay, reuseAddress, null, http2, http3), tls, also);
    }

    /** A comma-separated list of protocol labels, each once: {@code h2,h2c}. */
    private static List<Protocol> protocols(String flag, String value) {
        List<Protocol> protocols = new ArrayList<>();
        for (String label : value.split(",")) {
            Protocol protocol;
            try {
                protocol = Protocol.fromLabel(label.trim());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(flag + ": " + e.getMessage());
            }
            if (protocols.contains(protocol)) {
                throw new IllegalArgumentException(flag + " names " + protocol.label() + " twice");
            }
            protocols.add(protocol);
        }
        return List.copyOf(protocols);
    }

    private static String tlsSource(String value) {
        if (!value.equals(SELF_SIGNED) && !Files.isReadable(Path.of(value))) {
            throw new IllegalArgumentException("--tls takes " + SELF_SIGNED + " or a readable PKCS#12 key store, got " + value);
        }
        return value;
    }

    private static int intIn(String flag, String value, int min, int max) {
        try {
            int parsed = Integer.parseInt(value);
            if (parsed >= min && parsed <= max) {
                return parsed;
            }
        } catch (NumberFormatException ignored) {
            // reported below with the accepted range
        }
        throw new IllegalArgumentException(flag + " must be a whole number from " + min + " to " + max + ", got " + value);
    }

    private static boolean bool(String flag, String value) {
        return switch (value) {
            case "true" -> true;
            case "false" -> false;
            default -> throw new IllegalArgumentException(flag + " must be true or false, got " + value);
        };
    }
}
