package dev.gauntlet.runner.execution;

import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.api.TargetCatalogue.TargetEntry;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

/**
 * The catalogue's entries a contract IT checks ({@link TargetContractIT}, {@link ProtocolContractIT}): all, or those whose
 * names start with one of {@code -Dgauntlet.targets=jetty-,dummy} (comma-separated prefixes).
 */
final class ContractTargets {
    private ContractTargets() {
    }

    static Stream<TargetEntry> selected() {
        List<String> prefixes = Arrays.stream(System.getProperty("gauntlet.targets", "").split(","))
                .map(String::trim).filter(p -> !p.isEmpty()).toList();
        return TargetCatalogue.builtIn().targets().stream()
                .filter(t -> prefixes.isEmpty() || prefixes.stream().anyMatch(t.name()::startsWith));
    }
}
