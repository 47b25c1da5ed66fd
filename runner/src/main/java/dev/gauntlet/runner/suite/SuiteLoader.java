package dev.gauntlet.runner.suite;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.runner.base.UserError;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/** Reads a suite by built-in name ({@code quick}) or from a YAML file; a broken file is a one-line {@link UserError}. */
public final class SuiteLoader {
    public static final List<String> BUILT_IN = List.of("quick", "server", "sweep", "latency-diff", "throughput", "client", "protocols");
    /** Where the built-in suites' YAML files are on the classpath: {@code <name>.yaml}. */
    static final String BUILT_IN_RESOURCES = "/dev/gauntlet/runner/suites/";

    private SuiteLoader() {
    }

    public static Suite load(String nameOrFile) {
        return load(nameOrFile, List.of());
    }

    /** The suite with the named {@code profiles} of its file laid over it, in order ({@link SuiteProfiles}). */
    public static Suite load(String nameOrFile, List<String> profiles) {
        return parse(bytesOf(nameOrFile), sourceOf(nameOrFile), profiles);
    }

    /** The profiles a suite's file offers, by name, with each one's description. */
    public static Map<String, String> profilesOf(String nameOrFile) {
        try {
            return SuiteProfiles.offered(Json.yaml().readTree(bytesOf(nameOrFile)));
        } catch (IOException e) {
            throw new UserError(sourceOf(nameOrFile) + " cannot be read: " + e.getMessage());
        }
    }

    private static String sourceOf(String nameOrFile) {
        return BUILT_IN.contains(nameOrFile) ? "built-in suite " + nameOrFile : nameOrFile;
    }

    private static byte[] bytesOf(String nameOrFile) {
        if (BUILT_IN.contains(nameOrFile)) {
            try (InputStream in = SuiteLoader.class.getResourceAsStream(BUILT_IN_RESOURCES + nameOrFile + ".yaml")) {
                return in.readAllBytes();
            } catch (IOException e) {
                throw new IllegalStateException("built-in suite " + nameOrFile + " is missing", e);
            }
        }
        Path file = Path.of(nameOrFile);
        try {
            return Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new UserError("no suite '" + nameOrFile + "': give a YAML file or one of the built-in suites " + BUILT_IN);
        } catch (IOException e) {
            throw new UserError("suite file " + file + " cannot be read: " + e.getMessage());
        }
    }

    public static Suite parse(byte[] yaml, String source) {
        return parse(yaml, source, List.of());
    }

    /**
     * The suite in {@code yaml}, with {@code profiles} laid over it. The file alone is read first, so that an
     * error in it names its line; a profile's error names the profile.
     */
    static Suite parse(byte[] yaml, String source, List<String> profiles) {
        Suite suite = read(source, () -> Json.yaml().readValue(yaml, Suite.class));
        if (suite == null) {
            throw new UserError(source + " is empty: a suite needs name, targets and scenarios");
        }
        if (profiles.isEmpty()) {
            return suite;
        }
        ObjectNode tree = read(source, () -> (ObjectNode) Json.yaml().readTree(yaml));
        ObjectNode applied = SuiteProfiles.applied(tree, profiles, source);
        return read(source + " with profile " + String.join(", ", profiles),
                () -> Json.yaml().treeToValue(applied, Suite.class));
    }

    /** What a suite's reading gives, or a one-line error that names the field or line at fault. */
    private static <T> T read(String source, Reading<T> reading) {
        try {
            return reading.read();
        } catch (UnrecognizedPropertyException e) {
            // Jackson reads records' fields before it knows them all, so its line is the record's end: name the path instead.
            throw new UserError(source + ": unknown field '" + pathOf(e) + "'; known there: "
                    + String.join(", ", e.getKnownPropertyIds().stream().map(Object::toString).sorted().toList()));
        } catch (ValueInstantiationException e) {
            Throwable cause = e.getCause() != null ? e.getCause() : e;
            throw new UserError(source + at(e.getLocation()) + ": " + cause.getMessage());
        } catch (JacksonException e) {
            throw new UserError(source + at(e.getLocation()) + ": " + e.getOriginalMessage());
        } catch (IOException e) {
            throw new UserError(source + " cannot be read: " + e.getMessage());
        }
    }

    /** A read of a suite's YAML with Jackson. */
    private interface Reading<T> {
        T read() throws IOException;
    }

    /** The field's place in the suite, such as {@code scenarios[0].lod}. */
    private static String pathOf(JsonMappingException e) {
        StringBuilder path = new StringBuilder();
        for (JsonMappingException.Reference ref : e.getPath()) {
            if (ref.getFieldName() != null) {
                path.append(path.isEmpty() ? "" : ".").append(ref.getFieldName());
            } else {
                path.append('[').append(ref.getIndex()).append(']');
            }
        }
        return path.toString();
    }

    private static String at(JsonLocation location) {
        return location == null || location.getLineNr() < 0 ? "" : " line " + location.getLineNr();
    }
}
