package dev.gauntlet.runner.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.runner.suite.JvmOptions;

/**
 * The JVM options each target of a suite ran with, and the generator's, as {@code suite.json}'s {@code jvm} gives
 * them ({@link JvmOptions#forTarget}): the report names a target's collector and heap beside its costs.
 *
 * <pre>{@code
 * ObjectNode options = JvmOptionsByTarget.of(data.get("suite"));
 * // { "generator": ["-Xms1g", ...], "targets": { "jetty-servlet-sync": ["-Xms4g", "-Xmx4g", "-XX:+UseParallelGC"] } }
 * }</pre>
 */
final class JvmOptionsByTarget {
    private JvmOptionsByTarget() {
    }

    static ObjectNode of(JsonNode suite) {
        JsonNode recorded = suite.path("jvm");
        JvmOptions jvm = recorded.isObject() ? Json.json().convertValue(recorded, JvmOptions.class)
                : new JvmOptions(null, null, null);
        ObjectNode options = JsonNodeFactory.instance.objectNode();
        options.set("generator", Json.json().valueToTree(jvm.generator()));
        ObjectNode targets = options.putObject("targets");
        for (JsonNode target : suite.path("targets")) {
            targets.set(target.asText(), Json.json().valueToTree(jvm.forTarget(target.asText())));
        }
        return options;
    }
}
