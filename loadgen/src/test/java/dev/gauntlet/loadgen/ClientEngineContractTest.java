package dev.gauntlet.loadgen;

import dev.gauntlet.api.ClientCatalogue.ClientEntry;
import dev.gauntlet.api.ClientCatalogue.Library;
import dev.gauntlet.api.ClientMode;
import dev.gauntlet.loadgen.transport.LeanEngine;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ClientEngineContractTest {
    private static final ClassLoader LOADER = ClientEngineContractTest.class.getClassLoader();

    @Test
    void aMisspeltEngineClassInTheCatalogueFails() {
        ClientEntry misspelt = entry("dev.gauntlet.loadgen.LeanEngien");

        assertThatThrownBy(() -> ClientEngineContract.assertEngineOnClasspath(misspelt, LOADER))
                .isInstanceOf(AssertionError.class)
                .hasMessageContaining("lean-virtual")
                .hasMessageContaining("dev.gauntlet.loadgen.LeanEngien");
    }

    @Test
    void anEngineClassOnTheClasspathPasses() {
        assertThatCode(() -> ClientEngineContract.assertEngineOnClasspath(entry(LeanEngine.class.getName()), LOADER))
                .doesNotThrowAnyException();
    }

    /** One catalogue line as clients.yaml would give it: a library whose blocking class is {@code engineClass}. */
    private static ClientEntry entry(String engineClass) {
        Library library = new Library("lean", "Lean", "loadgen", "1", engineClass, "send()", null, null, null, null);
        return new ClientEntry("lean-virtual", library, ClientMode.VIRTUAL, engineClass);
    }
}
