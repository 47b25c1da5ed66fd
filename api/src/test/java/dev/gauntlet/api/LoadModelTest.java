package dev.gauntlet.api;

import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

class LoadModelTest {

    @Test
    void modelsRoundTripThroughJsonWithTheirType() throws Exception {
        for (LoadModel model : new LoadModel[]{new LoadModel.OpenLoop(1500, LoadModel.InterArrival.CONSTANT),
                LoadModel.OpenLoop.fixedPool(50_000, LoadModel.InterArrival.EXPONENTIAL, 100),
                new LoadModel.OpenLoop(10, null, LoadModel.ConnectionPolicy.UNBOUNDED, 0),
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
        assertThat(LoadModel.OpenLoop.fixedPool(50_000, null, 100).describe()).isEqualTo("open 50k/s exp 100c");
        assertThat(new LoadModel.OpenLoop(10, null, LoadModel.ConnectionPolicy.UNBOUNDED, 0).describe())
                .isEqualTo("open 10/s exp unbounded");
    }

    @Test
    void anOpenLoopIsAdaptiveUnlessItNamesAPoolOrAnotherPolicy() throws Exception {
        assertThat(new LoadModel.OpenLoop(1000, null).connectionPolicy()).isEqualTo(LoadModel.ConnectionPolicy.ADAPTIVE);
        assertThat(Json.json().readValue("{\"type\": \"open\", \"ratePerSec\": 1000}", LoadModel.class))
                .isEqualTo(new LoadModel.OpenLoop(1000, LoadModel.InterArrival.EXPONENTIAL));
        // Connections alone mean a fixed pool, as --rate with --connections does.
        assertThat(Json.json().readValue("{\"type\": \"open\", \"ratePerSec\": 1000, \"connections\": 8}", LoadModel.class))
                .isEqualTo(LoadModel.OpenLoop.fixedPool(1000, null, 8));
    }

    @Test
    void impossibleModelsAreRefused() {
        assertThatThrownBy(() -> new LoadModel.OpenLoop(0, null)).hasMessageContaining("rate must be > 0");
        // A schedule divides by the rate: an infinite one has every start at 0, a NaN one no order at all.
        assertThatThrownBy(() -> new LoadModel.OpenLoop(Double.POSITIVE_INFINITY, null))
                .hasMessage("rate must be > 0 requests/s and finite, got Infinity");
        assertThatThrownBy(() -> new LoadModel.OpenLoop(Double.NaN, null)).hasMessageContaining("got NaN");
        assertThatThrownBy(() -> new LoadModel.ClosedLoop(0)).hasMessageContaining("connections must be >= 1");
        assertThatThrownBy(() -> new LoadModel.OpenLoop(10, null, LoadModel.ConnectionPolicy.FIXED, 0))
                .hasMessage("a FIXED pool needs connections >= 1, got 0");
        assertThatThrownBy(() -> new LoadModel.OpenLoop(10, null, LoadModel.ConnectionPolicy.ADAPTIVE, 8))
                .hasMessageStartingWith("connections (8) is the size of a FIXED pool");
        assertThatThrownBy(() -> LoadSpec.of(URI.create("http://127.0.0.1:1/"), LoadModel.OpenLoop.fixedPool(10, null, 8))
                .toBuilder().maxConnections(4).build())
                .hasMessage("a fixed pool of 8 connections exceeds max connections 4");
    }

    @Test
    void aSpecGetsAHardCapCoveringItsPhases() {
        LoadSpec spec = LoadSpec.of(URI.create("http://127.0.0.1:1/hello"), new LoadModel.ClosedLoop(1)).withPhases(1_000, 5_000);

        assertThat(spec.hardCapMs()).isGreaterThan(6_000);
        assertThatThrownBy(() -> LoadSpec.of(URI.create("ftp://127.0.0.1/"), new LoadModel.ClosedLoop(1)))
                .hasMessageContaining("http://");
        assertThat(LoadSpec.of(URI.create("https://127.0.0.1/"), new LoadModel.ClosedLoop(1)).tls()).isTrue();
    }

    @Test
    void trustIsForHttpsAndANewConnectionPerRequestCarriesOneStream() {
        LoadSpec plain = LoadSpec.of(URI.create("http://127.0.0.1:1/hello"), new LoadModel.ClosedLoop(1));
        assertThatThrownBy(() -> plain.toBuilder().trust(new TlsTrust(null, true)).build())
                .hasMessageContaining("for an https url");
        assertThatThrownBy(() -> plain.toBuilder().http2(true, 4).newConnectionPerRequest(true).build())
                .hasMessageContaining("carries one stream");
        assertThat(plain.toBuilder().http2(true, 4).build().protocol()).isEqualTo(Protocol.H2C);
        assertThatThrownBy(() -> new TlsTrust("ca.pem", true)).hasMessageContaining("exclude each other");
    }

    @Test
    void aLoadSplitOverProcessesDividesItsRateAndCountsEvenlyAndInterleavesOnlyAConstantSchedule() {
        LoadModel constant = new LoadModel.OpenLoop(1_000, LoadModel.InterArrival.CONSTANT);
        assertThat(constant.share(1, 4)).isEqualTo(new LoadModel.OpenLoop(250, LoadModel.InterArrival.CONSTANT));
        assertThat(constant.shareStartOffsetNs(3)).isEqualTo(3_000_000);
        assertThat(new LoadModel.OpenLoop(1_000, LoadModel.InterArrival.EXPONENTIAL).shareStartOffsetNs(3)).isZero();
        assertThat(LoadModel.OpenLoop.fixedPool(1_000, null, 10).share(0, 3))
                .isEqualTo(LoadModel.OpenLoop.fixedPool(1_000 / 3.0, null, 4));
        assertThat(new LoadModel.ClosedLoop(10).share(2, 3)).isEqualTo(new LoadModel.ClosedLoop(3));
        assertThat(new LoadModel.MaxConcurrency(5).share(4, 5)).isEqualTo(new LoadModel.MaxConcurrency(1));
        assertThatThrownBy(() -> new LoadModel.MaxConcurrency(2).share(2, 3))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("2 requests cannot be split over 3 processes");
    }

    @Test
    void onlyAnOpenLoopSchedulesARateAndOnlyMaxConcurrencyHoldsRequests() {
        assertThat(new LoadModel.OpenLoop(500, null).scheduledRatePerSec()).isEqualTo(500);
        assertThat(new LoadModel.ClosedLoop(5).scheduledRatePerSec()).isZero();
        assertThat(new LoadModel.MaxConcurrency(7).scheduledRatePerSec()).isZero();
        assertThat(new LoadModel.MaxConcurrency(7).heldRequests()).isEqualTo(7);
        assertThat(new LoadModel.ClosedLoop(5).heldRequests()).isZero();
        assertThat(List.of(new LoadModel.OpenLoop(500, null), new LoadModel.ClosedLoop(5), new LoadModel.MaxConcurrency(7)))
                .extracting(LoadModel::schedulesByRate, LoadModel::holdsRequests, LoadModel::connectionsCalled)
                .containsExactly(tuple(true, false, "connections"), tuple(false, false, "connections"),
                        tuple(false, true, "held requests"));
    }

    @Test
    void aResultsRowsLoadSaysWhetherItHeldItsRequests() throws Exception {
        assertThat(LoadModel.describesHeldLoad(new LoadModel.MaxConcurrency(7).describe())).isTrue();
        assertThat(LoadModel.describesHeldLoad(new LoadModel.OpenLoop(500, null).describe())).isFalse();
        assertThat(LoadModel.describesHeldLoad(new LoadModel.ClosedLoop(5).describe())).isFalse();
        assertThat(Json.json().writeValueAsString(new LoadModel.MaxConcurrency(7))).as("no property of the model's JSON")
                .doesNotContain("holds", "connectionsCalled");
    }

    @Test
    void onlyAnOpenLoopsTimesAreFreeOfCoordinatedOmission() throws Exception {
        assertThat(LoadModel.OpenLoop.fixedPool(500, null, 4).freeOfCoordinatedOmission()).isTrue();
        assertThat(new LoadModel.ClosedLoop(5).freeOfCoordinatedOmission()).as("as wrk's: the next request waits for an answer").isFalse();
        assertThat(new LoadModel.MaxConcurrency(7).freeOfCoordinatedOmission()).as("after its burst, as a closed loop").isFalse();
        assertThat(Json.json().writeValueAsString(new LoadModel.ClosedLoop(2))).as("no property of the model's JSON")
                .doesNotContain("oordinated");
    }
}
