package dev.gauntlet.runner.suite;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException;
import com.fasterxml.jackson.databind.exc.ValueInstantiationException;
import dev.gauntlet.api.Json;
import dev.gauntlet.runner.UserError;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;

/** Reads a suite by built-in name ({@code quick}) or from a YAML file; a broken file is a one-line {@link UserError}. */
public final class SuiteLoader {
    public static final List<String> BUILT_IN = List.of("quick", "server", "sweep", "latency-diff", "throughput", "client", "protocols");
    /** Where the built-in suites' YAML files are on the classpath: {@code <name>.yaml}. */
    static final String BUILT_IN_RESOURCES = "/dev/gauntlet/runner/suites/";

    private SuiteLoader() {
    }

    public static Suite load(String nameOrFile) {
        if (BUILT_IN.contains(nameOrFile)) {
            try (InputStream in = SuiteLoader.class.getResourceAsStream(BUILT_IN_RESOURCES + nameOrFile + ".yaml")) {
                return parse(in.readAllBytes(), "built-in suite " + nameOrFile);
            } catch (IOException e) {
                throw new IllegalStateException("built-in suite " + nameOrFile + " is missing", e);
            }
        }
        Path file = Path.of(nameOrFile);
        try {
            return parse(Files.readAllBytes(file), file.toString());
        } catch (NoSuchFileException e) {
            throw new UserError("no suite '" + nameOrFile + "': give a YAML file or one of the built-in suites " + BUILT_IN);
        } catch (IOException e) {
            throw new UserError("suite file " + file + " cannot be read: " + e.getMessage());
        }
    }

    public static Suite parse(byte[] yaml, String source) {
        try {
            Suite suite = Json.yaml().readValue(yaml, Suite.class);
            if (suite == null) {
                throw new UserError(source + " is empty: a suite needs name, targets and scenarios");
            }
            return suite;
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
