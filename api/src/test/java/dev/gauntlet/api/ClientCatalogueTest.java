package dev.gauntlet.api;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class ClientCatalogueTest {

    @Test
    void everyLibraryHasAModuleAVersionAndItsModesClasses() {
        ClientCatalogue catalogue = ClientCatalogue.builtIn();

        assertThat(catalogue.clients().stream().map(c -> c.library().id()).distinct()).hasSizeGreaterThanOrEqualTo(6);
        catalogue.clients().forEach(c -> {
            assertThat(c.name()).isEqualTo(c.library().id() + "-" + c.mode().id());
            assertThat(c.library().version()).as(c.name()).doesNotContain("${").isNotBlank();
            // The api module's tests run in api/: the engine modules are its siblings.
            assertThat(Path.of("..", c.library().module(), "pom.xml")).as(c.name()).exists();
            // The module's package: a module may serve more than one library (jersey and jersey-jdk).
            assertThat(c.engineClass()).as(c.name())
                    .startsWith("dev.gauntlet.engines." + Path.of(c.library().module()).getFileName() + ".");
            assertThat(c.describe()).as(c.name()).doesNotContain("null");
        });
    }

    @Test
    void platformAndVirtualCallTheSameBlockingClassAndAsyncTheAsyncClassTheLibraryNames() {
        ClientCatalogue catalogue = ClientCatalogue.builtIn();

        ClientCatalogue.ClientEntry platform = catalogue.client("apache-platform").orElseThrow();
        ClientCatalogue.ClientEntry virtual = catalogue.client("apache-virtual").orElseThrow();
        ClientCatalogue.ClientEntry async = catalogue.client("apache-async").orElseThrow();
        assertThat(platform.engineClass()).isEqualTo(virtual.engineClass()).endsWith("ApacheClassicClient");
        assertThat(async.engineClass()).endsWith("ApacheAsyncClient");
        assertThat(platform.mode()).isEqualTo(ClientMode.PLATFORM);
        assertThat(async.mode().blocking()).isFalse();

        // A library whose two calls go through one configured client names one class for all three modes.
        assertThat(catalogue.client("okhttp-async").orElseThrow().engineClass())
                .isEqualTo(catalogue.client("okhttp-platform").orElseThrow().engineClass()).endsWith("OkHttpCalls");
        assertThat(catalogue.client("okhttp-async").orElseThrow().mode()).isEqualTo(ClientMode.ASYNC);
    }

    @Test
    void aLibraryWithoutAnAsyncApiHasNoAsyncClientAndSaysWhy() {
        ClientCatalogue catalogue = ClientCatalogue.builtIn();

        assertThat(catalogue.client("helidon-virtual")).isPresent();
        assertThat(catalogue.client("helidon-async")).isEmpty();
        assertThat(catalogue.client("helidon-virtual").orElseThrow().library().note()).contains("blocking only");
    }

    @Test
    void aLibraryNamingNoProtocolsSpeaksCleartextHttp1AndOneNamingThemSpeaksJustThose() {
        ClientCatalogue catalogue = ClientCatalogue.builtIn();

        ClientCatalogue.Library jdk = catalogue.client("jdk-async").orElseThrow().library();
        assertThat(jdk.protocols()).containsExactly(Protocol.HTTP1, Protocol.HTTPS1, Protocol.H2);
        assertThat(jdk.speaks(Protocol.H2C)).isFalse();
        ClientCatalogue.Library ahc = catalogue.client("ahc-async").orElseThrow().library();
        assertThat(ahc.protocols()).containsExactly(Protocol.HTTP1);
    }

    @Test
    void everyEngineModuleIsInTheBuild() throws Exception {
        String rootPom = Files.readString(Path.of("..", "pom.xml"));

        ClientCatalogue.builtIn().clients().forEach(c ->
                assertThat(rootPom).as(c.name()).contains("<module>" + c.library().module() + "</module>"));
    }
}
