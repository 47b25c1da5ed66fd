package dev.gauntlet.runner.suite;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.runner.base.UserError;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A suite file's {@code profiles}: named variants of the suite, each laid over it when {@code --profile NAME} asks.
 * A profile gives only what it changes; an object merges field by field into the suite's, a scenario by its name
 * into the suite's scenario of that name, and anything else replaces what the suite says. The suite's description
 * then ends with each profile's own, so the header, {@code suite.json} and the report say which ran.
 *
 * <pre>{@code
 * profiles:
 *   full:
 *     description: the 2016 window lengths, 100,000 requests a case
 *     scenarios:
 *       - { name: slow, durationMs: 100000 }
 *   parallel-gc:
 *     description: 2016's JVM, the Parallel collector on a fixed heap
 *     jvm: { target: [-Xms4g, -Xmx4g, -XX:+UseParallelGC] }
 * }</pre>
 */
final class SuiteProfiles {
    static final String FIELD = "profiles";

    private SuiteProfiles() {
    }

    /** The profiles a suite file offers, by name, each with its description ("" when it has none). */
    static Map<String, String> offered(JsonNode suite) {
        Map<String, String> offered = new LinkedHashMap<>();
        suite.path(FIELD).properties().forEach(p -> offered.put(p.getKey(), p.getValue().path("description").asText("")));
        return offered;
    }

    /**
     * {@code suite} with the named profiles laid over it in order, its {@code profiles} field removed; a name the
     * file does not offer, or a profile that names a scenario the suite lacks, is a one-line error.
     */
    static ObjectNode applied(ObjectNode suite, List<String> names, String source) {
        ObjectNode result = suite.deepCopy();
        JsonNode profiles = result.remove(FIELD);
        List<String> descriptions = new ArrayList<>();
        for (String name : names) {
            JsonNode profile = profiles == null ? null : profiles.get(name);
            if (profile == null || !profile.isObject()) {
                throw new UserError(source + " has no profile '" + name + "'"
                        + (profiles == null || profiles.isEmpty() ? ": it offers none"
                        : "; it offers: " + String.join(", ", offered(suite).keySet())));
            }
            ObjectNode overlay = ((ObjectNode) profile).deepCopy();
            JsonNode description = overlay.remove("description");
            mergeScenarios(result, overlay.remove("scenarios"), source + " profile " + name);
            merge(result, overlay);
            descriptions.add("Profile " + name + (description == null ? "." : ": " + sentence(description.asText())));
        }
        if (!descriptions.isEmpty()) {
            String base = result.path("description").asText("");
            result.put("description", (base.isEmpty() ? "" : base + " ") + String.join(" ", descriptions));
        }
        return result;
    }

    /** {@code text} ending with a full stop, to be followed by another sentence. */
    private static String sentence(String text) {
        String stripped = text.strip();
        return stripped.endsWith(".") ? stripped : stripped + ".";
    }

    /** Each of the overlay's scenarios merged into the suite's scenario of its name. */
    private static void mergeScenarios(ObjectNode suite, JsonNode overlays, String source) {
        if (overlays == null) {
            return;
        }
        if (!overlays.isArray()) {
            throw new UserError(source + ": scenarios must be a list of scenarios, each with its name and what changes");
        }
        JsonNode scenarios = suite.path("scenarios");
        for (JsonNode overlay : overlays) {
            String name = overlay.path("name").asText(null);
            ObjectNode scenario = scenarios instanceof ArrayNode list ? named(list, name) : null;
            if (scenario == null) {
                throw new UserError(source + ": scenario '" + name + "' is not one of the suite's: a profile changes"
                        + " the suite's scenarios by name");
            }
            merge(scenario, overlay);
        }
    }

    private static ObjectNode named(ArrayNode scenarios, String name) {
        for (JsonNode scenario : scenarios) {
            if (scenario.isObject() && scenario.path("name").asText("").equals(name)) {
                return (ObjectNode) scenario;
            }
        }
        return null;
    }

    /** {@code overlay}'s fields into {@code base}: objects field by field, anything else replacing. */
    private static void merge(ObjectNode base, JsonNode overlay) {
        for (Map.Entry<String, JsonNode> field : overlay.properties()) {
            JsonNode existing = base.get(field.getKey());
            if (existing instanceof ObjectNode object && field.getValue().isObject()) {
                merge(object, field.getValue());
            } else {
                base.set(field.getKey(), field.getValue());
            }
        }
    }
}
