package dev.gauntlet.runner.suite;

import dev.gauntlet.api.ProtocolTarget;

import java.util.List;

/**
 * A suite's references ({@code baselines: [dummy]}): the targets the report shows beside its ranking as what the others
 * are measured against, never as best. A suite that names none has {@link #DEFAULT}, which suite.json then leaves out;
 * a baseline is a catalogue name, so {@code dummy} stands for {@code dummy@h2} too in a study of protocols.
 */
public final class Baselines {
    /** The references of a suite that names none: the server that does nothing but answer. */
    public static final List<String> DEFAULT = List.of("dummy");

    private Baselines() {
    }

    /** The suite's own baselines, each one of {@code targets} (unless they are the whole catalogue); null: none named. */
    static List<String> checked(List<String> baselines, List<String> targets, String allTargets) {
        if (baselines == null || targets.equals(List.of(allTargets))) {
            return baselines == null ? null : List.copyOf(baselines);
        }
        List<String> named = catalogueNames(targets);
        baselines.stream().filter(b -> !named.contains(b)).findFirst().ifPresent(b -> {
            throw new IllegalArgumentException("baselines names " + b + ", which is not one of the targets " + named);
        });
        return List.copyOf(baselines);
    }

    /** Of the suite's own baselines, those still among {@code targets} (a run of fewer targets); null: none named. */
    static List<String> among(List<String> baselines, List<String> targets) {
        List<String> named = catalogueNames(targets);
        return baselines == null ? null : baselines.stream().filter(named::contains).toList();
    }

    /** The catalogue's names of the targets, each {@code NAME@PROTOCOL} as its {@code NAME}. */
    private static List<String> catalogueNames(List<String> targets) {
        return targets.stream().map(t -> ProtocolTarget.parse(t).target()).toList();
    }
}
