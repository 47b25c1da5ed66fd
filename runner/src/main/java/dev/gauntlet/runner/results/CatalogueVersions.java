package dev.gauntlet.runner.results;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.api.ClientCatalogue;
import dev.gauntlet.api.ProtocolTarget;
import dev.gauntlet.api.TargetCatalogue;
import dev.gauntlet.runner.suite.Suite;

/**
 * What each target and client of a suite was, as this build's catalogues say, recorded in {@code suite.json} so that a
 * later reader (the site) can place a figure on its server's or library's version, whatever the catalogue says by then:
 *
 * <pre>
 * "versions": { "targets": { "jetty-handler-sync": { "technology": "jetty", "version": "12.1.5" } },
 *               "clients": { "okhttp-virtual": { "library": "okhttp", "version": "5.3.2" } } }
 * </pre>
 */
final class CatalogueVersions {
    private CatalogueVersions() {
    }

    static ObjectNode of(Suite suite) {
        ObjectNode versions = JsonNodeFactory.instance.objectNode();
        ObjectNode targets = versions.putObject("targets");
        TargetCatalogue catalogue = TargetCatalogue.builtIn();
        for (String name : suite.targets()) {
            catalogue.target(ProtocolTarget.parse(name).target()).ifPresent(entry -> targets.putObject(name)
                    .put("technology", entry.technology())
                    .put("version", catalogue.technology(entry.technology()).version()));
        }
        ObjectNode clients = versions.putObject("clients");
        if (suite.clients() != null) {
            for (String name : suite.clients()) {
                ClientCatalogue.builtIn().client(name).ifPresent(entry -> clients.putObject(name)
                        .put("library", entry.library().id()).put("version", entry.library().version()));
            }
        }
        return versions;
    }
}
