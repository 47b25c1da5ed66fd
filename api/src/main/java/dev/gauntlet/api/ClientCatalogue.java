package dev.gauntlet.api;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every HTTP client variant the generator can drive: one entry per (library, mode), read from
 * {@code clients.yaml} beside this class. A library names its module under {@code loadgen-engines/},
 * its blocking engine class (used by the {@code platform} and {@code virtual} modes alike: they
 * differ only in the thread the driver calls it on) and its async engine class, when it has an
 * async API. {@code gauntlet clients}, {@code gauntlet load --client}, the suites and the client
 * contract test all read this one list.
 *
 * <pre>{@code
 * ClientEntry okhttp = ClientCatalogue.builtIn().client("okhttp-virtual").orElseThrow();
 * okhttp.library().module();      // loadgen-engines/okhttp
 * okhttp.engineClass();           // the BlockingClient the driver calls on a virtual thread per request
 * }</pre>
 */
public final class ClientCatalogue {
    private final Map<String, ClientEntry> clients = new LinkedHashMap<>();

    private ClientCatalogue(List<Library> libraries) {
        for (Library library : libraries) {
            for (ClientMode mode : ClientMode.values()) {
                String engineClass = mode.blocking() ? library.blocking() : library.async();
                if (engineClass != null) {
                    ClientEntry entry = new ClientEntry(library.id() + "-" + mode.id(), library, mode, engineClass);
                    clients.put(entry.name(), entry);
                }
            }
        }
    }

    /** The catalogue shipped with Gauntlet. */
    public static ClientCatalogue builtIn() {
        try (InputStream in = ClientCatalogue.class.getResourceAsStream("clients.yaml")) {
            if (in == null) {
                throw new IllegalStateException("clients.yaml is missing from the api jar");
            }
            File file = Json.yaml().readValue(in, File.class);
            List<Library> libraries = new ArrayList<>();
            file.libraries().forEach((id, l) -> libraries.add(new Library(id, l.title(), l.module(), l.version(),
                    l.blocking(), l.blockingCall(), l.async(), l.asyncCall(), l.protocols(), l.note())));
            return new ClientCatalogue(libraries);
        } catch (IOException e) {
            throw new UncheckedIOException("clients.yaml cannot be read", e);
        }
    }

    public List<ClientEntry> clients() {
        return List.copyOf(clients.values());
    }

    public Optional<ClientEntry> client(String name) {
        return Optional.ofNullable(clients.get(name));
    }

    /** Every client's name, comma-separated, for an error message. */
    public String names() {
        return String.join(", ", clients.keySet());
    }

    /**
     * One client library.
     *
     * @param id          short name, the first part of its clients' names (e.g. {@code okhttp})
     * @param title       the library as people call it (e.g. "OkHttp")
     * @param module      its module under the checkout, holding its classpath (e.g. {@code loadgen-engines/okhttp})
     * @param version     the library's version
     * @param blocking     its {@code BlockingClient} class; null when it has no blocking API
     * @param blockingCall the library call the blocking class makes, e.g. {@code Call.execute()}
     * @param async        its {@code AsyncClient} class; null when it has no async API
     * @param asyncCall    the library call the async class makes, e.g. {@code Call.enqueue(callback)}
     * @param protocols   what its engines speak; HTTP/1.1 in clear when the file names none
     * @param note        why a mode is missing, or what the library cannot be made to leave out; null when nothing
     */
    public record Library(String id, String title, String module, String version, String blocking, String blockingCall,
                          String async, String asyncCall, List<Protocol> protocols, String note) {
        public Library {
            protocols = protocols == null || protocols.isEmpty() ? List.of(Protocol.HTTP1) : List.copyOf(protocols);
        }

        public boolean speaks(Protocol protocol) {
            return protocols.contains(protocol);
        }
    }

    /**
     * One runnable client variant.
     *
     * @param name        {@code <library>-<mode>}, the name users type
     * @param engineClass the class the driver instantiates: the library's blocking or async engine
     */
    public record ClientEntry(String name, Library library, ClientMode mode, String engineClass) {
        /** One line: the library call and how the mode makes it, e.g. "Call.execute() on a virtual thread per request". */
        public String describe() {
            return switch (mode) {
                case PLATFORM -> library.blockingCall() + " on a platform thread per request";
                case VIRTUAL -> library.blockingCall() + " on a virtual thread per request";
                // The driver starts no thread per request; some libraries still hold one of their own (docs/clients.md).
                case ASYNC -> library.asyncCall() + ", no driver thread per request";
            };
        }
    }

    private record File(Map<String, LibraryFields> libraries) {
    }

    private record LibraryFields(String title, String module, String version, String blocking, String blockingCall,
                                 String async, String asyncCall, List<Protocol> protocols, String note) {
    }
}
