package dev.gauntlet.runner.suite;

import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * JVM options per role; each role's defaults apply when a suite names none. {@code perTarget} gives a target its
 * own options instead of {@code target}'s, whole (a collector flag beside another collector's would not start):
 * {@code perTarget: { tomcat-servlet-sync: [-Xms4g, -Xmx4g, -XX:+UseParallelGC] }}. A key names a target as the
 * suite lists it, or without its {@code @PROTOCOL}, for each protocol's JVM of it.
 */
public record JvmOptions(List<String> target, List<String> generator,
                         @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, List<String>> perTarget) {
    static final List<String> DEFAULT_TARGET = List.of("-Xms1g", "-Xmx1g");
    static final List<String> DEFAULT_GENERATOR = List.of("-Xms512m", "-Xmx512m");

    public JvmOptions {
        target = target == null ? DEFAULT_TARGET : List.copyOf(target);
        generator = generator == null ? DEFAULT_GENERATOR : List.copyOf(generator);
        // In the file's order, for suite.json.
        perTarget = perTarget == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(perTarget));
    }

    /** The options target {@code name} ({@code NAME} or {@code NAME@PROTOCOL}) starts with. */
    public List<String> forTarget(String name) {
        List<String> own = perTarget.get(name);
        if (own == null && name.contains("@")) {
            own = perTarget.get(name.substring(0, name.indexOf('@')));
        }
        return own == null ? target : List.copyOf(own);
    }

    /** Whether {@code targets} lists {@code name}, as it is or as one of its protocols' ({@code NAME@PROTOCOL}). */
    private static boolean listed(String name, List<String> targets) {
        return targets.stream().anyMatch(t -> t.equals(name) || t.startsWith(name + "@"));
    }

    /** These options with {@code perTarget} cut to the targets among {@code targets} (as {@code --targets} leaves). */
    JvmOptions among(List<String> targets) {
        Map<String, List<String>> kept = new LinkedHashMap<>(perTarget);
        kept.keySet().removeIf(name -> !listed(name, targets));
        return new JvmOptions(target, generator, kept);
    }

    /** Each {@code perTarget} key names one of {@code targets}, or a one-line error says which does not. */
    void checkNamed(List<String> targets) {
        for (String name : perTarget.keySet()) {
            if (!listed(name, targets)) {
                throw new IllegalArgumentException("jvm.perTarget names " + name + ", which is not among the suite's"
                        + " targets " + targets);
            }
        }
    }
}
