package dev.gauntlet.loadgen.transport;

import dev.gauntlet.api.ClientCatalogue;
import dev.gauntlet.api.ClientMode;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.api.Protocol;
import dev.gauntlet.loadgen.engine.AsyncClient;
import dev.gauntlet.loadgen.engine.BlockingClient;
import dev.gauntlet.loadgen.engine.ClientResponse;
import dev.gauntlet.loadgen.engine.ClientSettings;
import dev.gauntlet.loadgen.failure.GeneratorException;
import dev.gauntlet.loadgen.http3.Http3Calls;

import java.lang.reflect.InvocationTargetException;

/**
 * Builds the {@link ClientCalls} of a spec's client from {@code clients.yaml}: its engine class,
 * found on the generator's classpath (the runner adds the library's module there), configured
 * with the spec's protocol, trust, timeouts and concurrency; a protocol its library does not speak is refused.
 */
public final class ClientEngines {
    private ClientEngines() {
    }

    /** The spec's client library, or without one the built-in HTTP/3 engine ({@link Http3Calls}) for an HTTP/3 spec. */
    static ClientCalls open(LoadSpec spec, int maxConcurrency) {
        ClientSettings settings = new ClientSettings(spec.url(), spec.connectTimeoutMs(), spec.responseTimeoutMs(),
                maxConcurrency, ClientResponse.Version.of(spec.protocol()), spec.trust());
        if (spec.client() == null && spec.http3()) {
            return new ClientCalls.Http3(new Http3Calls(settings, spec.streams(), spec.newConnectionPerRequest()));
        }
        ClientCatalogue.ClientEntry entry = check(spec);
        Object engine = instantiate(entry, settings);
        return switch (entry.mode()) {
            case PLATFORM -> new ClientCalls.ThreadPerRequest((BlockingClient) engine,
                    Thread.ofPlatform().name("gauntlet-call-", 0).daemon(true));
            case VIRTUAL -> new ClientCalls.ThreadPerRequest((BlockingClient) engine, Thread.ofVirtual().name("gauntlet-call-", 0));
            case ASYNC -> new ClientCalls.Async((AsyncClient) engine);
        };
    }

    /**
     * The spec's client from the catalogue, known and speaking the spec's protocol, else a {@link GeneratorException}
     * of one line: checked before the target is reached, and again when the engine is built.
     */
    public static ClientCatalogue.ClientEntry check(LoadSpec spec) {
        ClientCatalogue catalogue = ClientCatalogue.builtIn();
        ClientCatalogue.ClientEntry entry = catalogue.client(spec.client()).orElseThrow(() -> new GeneratorException(
                "unknown client " + spec.client() + "; the clients are " + catalogue.names() + " (see gauntlet clients)"));
        if (!entry.library().speaks(spec.protocol())) {
            throw new GeneratorException("client " + entry.name() + " speaks " + Protocol.labels(entry.library().protocols())
                    + " here, not " + spec.protocol().label() + ": pick another client (gauntlet clients lists what each "
                    + "speaks) or drop --client for the built-in engine");
        }
        return entry;
    }

    private static Object instantiate(ClientCatalogue.ClientEntry entry, ClientSettings settings) {
        Class<?> type;
        try {
            type = Class.forName(entry.engineClass());
        } catch (ClassNotFoundException e) {
            throw new GeneratorException("client " + entry.name() + " is not on this generator's classpath ("
                    + entry.engineClass() + " is missing): run it through ./gauntlet, which adds "
                    + entry.library().module());
        }
        Class<?> expected = entry.mode() == ClientMode.ASYNC ? AsyncClient.class : BlockingClient.class;
        if (!expected.isAssignableFrom(type)) {
            throw new GeneratorException(entry.engineClass() + " is not a " + expected.getSimpleName());
        }
        try {
            return type.getConstructor(ClientSettings.class).newInstance(settings);
        } catch (InvocationTargetException e) {
            throw new GeneratorException("client " + entry.name() + " could not be set up: " + e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new GeneratorException(entry.engineClass() + " needs a public constructor taking ClientSettings: " + e);
        }
    }
}
