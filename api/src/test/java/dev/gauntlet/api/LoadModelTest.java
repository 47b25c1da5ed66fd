package dev.gauntlet.api;

import org.junit.jupiter.api.Test;

import java.net.URI;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LoadModelTest {

    @Test
    void modelsRoundTripThroughJsonWithTheirType() throws Exception {
        for (LoadModel model : new LoadModel[]{new LoadModel.OpenLoop(1500, LoadModel.InterArrival.CONSTANT),
                new LoadModel.ClosedLoop(50), new LoadModel.MaxConcurrency(15_000)}) {
            String json = Json.json().writeValueAsString(model);
            assertThat(Json.json().readValue(json, LoadModel.class)).isEqualTo(model);
        }
        assertThat(Json.json().writeValueAsString(new LoadModel.ClosedLoop(2))).contains("\"type\" : \"closed\"");
    }

    @Test
    void descriptionsAreShort() {
        assertThat(new LoadModel.OpenLoop(1000, null).describe()).isEqualTo("open 1k/s exp");
        assertThat(new LoadModel.OpenLoop(2.5, LoadModel.InterArrival.CONSTANT).describe()).isEqualTo("open 2.5/s const");
        assertThat(new LoadModel.ClosedLoop(50).describe()).isEqualTo("closed 50c");
    }

    @Test
    void impossibleModelsAreRefused() {
        assertThatThrownBy(() -> new LoadModel.OpenLoop(0, null)).hasMessageContaining("rate must be > 0");
        assertThatThrownBy(() -> new LoadModel.ClosedLoop(0)).hasMessageContaining("connections must be >= 1");
    }

    @Test
    void aSpecGetsAHardCapCoveringItsPhases() {
        LoadSpec spec = LoadSpec.of(URI.create("http://127.0.0.1:1/hello"), new LoadModel.ClosedLoop(1)).withPhases(1_000, 5_000);

        assertThat(spec.hardCapMs()).isGreaterThan(6_000);
        assertThatThrownBy(() -> LoadSpec.of(URI.create("https://127.0.0.1/"), new LoadModel.ClosedLoop(1)))
                .hasMessageContaining("http://");
    }
}
