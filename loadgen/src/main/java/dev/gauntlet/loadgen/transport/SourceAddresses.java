package dev.gauntlet.loadgen.transport;

import dev.gauntlet.loadgen.failure.GeneratorException;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Parses {@code --source-addresses}: {@code 127.0.0.1-127.0.0.8}, {@code 127.0.0.1-8} or a comma list. */
public final class SourceAddresses {
    private static final Pattern RANGE = Pattern.compile("(\\d+\\.\\d+\\.\\d+\\.)(\\d+)-(?:(\\d+\\.\\d+\\.\\d+\\.))?(\\d+)");
    private static final Pattern ADDRESS = Pattern.compile("\\d+\\.\\d+\\.\\d+\\.\\d+");

    private SourceAddresses() {
    }

    public static List<String> expand(String text) {
        List<String> addresses = new ArrayList<>();
        for (String part : text.split(",")) {
            String item = part.trim();
            Matcher range = RANGE.matcher(item);
            if (range.matches()) {
                if (range.group(3) != null && !range.group(3).equals(range.group(1))) {
                    throw new IllegalArgumentException("a range of source addresses varies the last number only: " + item);
                }
                int from = octet(range.group(2), item);
                int to = octet(range.group(4), item);
                if (to < from) {
                    throw new IllegalArgumentException("empty range of source addresses: " + item);
                }
                for (int i = from; i <= to; i++) {
                    addresses.add(range.group(1) + i);
                }
            } else if (ADDRESS.matcher(item).matches()) {
                addresses.add(item);
            } else {
                throw new IllegalArgumentException("'" + item + "' is not an IPv4 address or range like 127.0.0.1-127.0.0.8");
            }
        }
        return List.copyOf(addresses);
    }

    public static InetAddress[] resolve(List<String> addresses) {
        InetAddress[] resolved = new InetAddress[addresses.size()];
        for (int i = 0; i < resolved.length; i++) {
            try {
                // A literal: no name lookup happens.
                resolved[i] = InetAddress.getByName(addresses.get(i));
            } catch (UnknownHostException e) {
                throw new GeneratorException("not a source address: " + addresses.get(i));
            }
        }
        return resolved;
    }

    private static int octet(String value, String item) {
        int octet = Integer.parseInt(value);
        if (octet > 255) {
            throw new IllegalArgumentException("not an address in " + item);
        }
        return octet;
    }
}
