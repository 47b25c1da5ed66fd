package dev.gauntlet.api;


import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Every target variant Gauntlet can start: one entry per (technology, API, handler style), read
 * from {@code targets.yaml} beside this class. The runner, {@code gauntlet targets} and the
 * contract test all read this one list.
 *
 * <pre>{@code
 * TargetCatalogue catalogue = TargetCatalogue.builtIn();
 * TargetEntry jetty = catalogue.target("jetty-handler-sync").orElseThrow();
 * Technology tech = catalogue.technology(jetty.technology());   // module, version
 * }</pre>
 */
public final class TargetCatalogue {

    private final Map<String, Technology> technologies;
    private final Map<String, TargetEntry> targets;

    private TargetCatalogue(Map<String, Technology> technologies, List<TargetEntry> targets) {
        this.technologies = technologies;
        this.targets = new LinkedHashMap<>();
        for (TargetEntry entry : targets) {
            if (!technologies.containsKey(entry.technology())) {
                throw new IllegalStateException("target " + entry.name()
                        + " names unknown technology " + entry.technology());
            }
            if (this.targets.put(entry.name(), entry) != null) {
                throw new IllegalStateException("target " + entry.name() + " is listed twice");
            }
        }
    }

    /** The catalogue shipped with Gauntlet. */
    public static TargetCatalogue builtIn() {
        try (InputStream in = TargetCatalogue.class.getResourceAsStream("targets.yaml")) {
            if (in == null) {
                throw new IllegalStateException("targets.yaml is missing from the api jar");
            }
            File file = Json.yaml().readValue(in, File.class);
            Map<String, Technology> technologies = new LinkedHashMap<>();
            file.technologies().forEach((name, t) -> technologies.put(name,
                    new Technology(name, t.module(), t.version(), t.versionOf(), t.description(), t.jvmOptions(),
                            t.protocols(), t.tlsProvider())));
            List<TargetEntry> targets = file.targets().stream()
                    .map(entry -> entry.protocols().isEmpty() && technologies.containsKey(entry.technology())
                            ? entry.withProtocols(technologies.get(entry.technology()).protocols()) : entry)
                    .toList();
            return new TargetCatalogue(technologies, targets);
        } catch (IOException e) {
            throw new UncheckedIOException("targets.yaml cannot be read", e);
        }
    }

    public List<TargetEntry> targets() {
        return List.copyOf(targets.values());
    }

    public Optional<TargetEntry> target(String name) {
        return Optional.ofNullable(targets.get(name));
    }

    /**
     * The target {@code entry} is at another version, when its technology is another's at another version
     * ({@code versionOf}): the entry of that technology with the same server class, such as {@code jetty-handler-sync}
     * for {@code jetty-earlier-handler-sync}; empty for any other entry.
     */
    public Optional<TargetEntry> sameTargetAs(TargetEntry entry) {
        String of = technology(entry.technology()).versionOf();
        return of == null ? Optional.empty() : targets.values().stream()
                .filter(t -> t.technology().equals(of) && t.serverClass().equals(entry.serverClass())).findFirst();
    }

    /** The technology whose sources a technology's module builds: its {@code versionOf}, else itself. */
    public String sourcesOf(String technology) {
        String of = technology(technology).versionOf();
        return of == null ? technology : of;
    }

    public Technology technology(String name) {
        Technology technology = technologies.get(name);
        if (technology == null) {
            throw new IllegalArgumentException("unknown technology " + name);
        }
        return technology;
    }

    /**
     * A server technology: the Maven module that holds its classpath, and its version.
     *
     * @param versionOf  the technology this one is at another version ({@code jetty} for {@code jetty-earlier}): its
     *                   module builds that one's sources against the version it names; null for most
     * @param jvmOptions JVM options every target of the technology needs to run as its framework
     *                   intends, before the role's own (e.g. Quarkus' {@code --add-opens}, which its
     *                   jar manifest asks for but a class-path launch does not apply); empty for most
     * @param protocols   what its targets serve ({@code --tls}, {@code --http2}): HTTP/1.1 alone when not given
     * @param tlsProvider the TLS implementation in force when it serves TLS (e.g. {@code JSSE}); null without TLS
     */
    public record Technology(String name, String module, String version, String versionOf, String description,
                             List<String> jvmOptions, List<Protocol> protocols, String tlsProvider) {

        public Technology {
            jvmOptions = jvmOptions == null ? List.of() : List.copyOf(jvmOptions);
            protocols = protocols == null || protocols.isEmpty() ? List.of(Protocol.HTTP1) : List.copyOf(protocols);
        }
    }

    /**
     * One runnable target variant.
     *
     * @param name           {@code <tech>-<api>-<style>}, the name users type
     * @param serverClass    what in the technology's module starts this variant, as {@code TargetMain --server} takes it:
     *                       a factory method of the technology's styles ({@code pkg.JettyTargets#handlerSync}), or a
     *                       server class where the technology has one style; one entry's alone
     * @param maxConcurrency requests it can hold at once when that is documented to be lower than
     *                       what the contract test asks (200); null when unlimited
     * @param extraHeaders   response headers the server insists on adding beyond the contract's
     * @param concurrencyCap what bounds the requests it can hold at once under the default settings,
     *                       as a short phrase (e.g. "10,000 platform workers (--workers)"), when that
     *                       is not the machine (open files, ports, CPU, memory); null when only the
     *                       machine bounds it. Shown by {@code gauntlet targets} and beside the
     *                       concurrency case's figures, which measure the style, not a setting.
     * @param protocols      what it serves; in the file only where it differs from its technology's
     */
    public record TargetEntry(
            String name,
            String technology,
            String api,
            HandlerStyle style,
            String serverClass,
            String description,
            Integer maxConcurrency,
            List<String> extraHeaders,
            String concurrencyCap,
            List<Protocol> protocols) {

        public TargetEntry {
            extraHeaders = extraHeaders == null ? List.of() : List.copyOf(extraHeaders);
            protocols = protocols == null ? List.of() : List.copyOf(protocols);
        }

        /** Whether it serves {@code protocol}. */
        public boolean serves(Protocol protocol) {
            return protocols.contains(protocol);
        }

        TargetEntry withProtocols(List<Protocol> served) {
            return new TargetEntry(name, technology, api, style, serverClass, description, maxConcurrency, extraHeaders,
                    concurrencyCap, served);
        }
    }

    private record File(Map<String, TechnologyFields> technologies, List<TargetEntry> targets) {
    }

    private record TechnologyFields(String module, String version, String versionOf, String description,
                                    List<String> jvmOptions, List<Protocol> protocols, String tlsProvider) {
    }

}
