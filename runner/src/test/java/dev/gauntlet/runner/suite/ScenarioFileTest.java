package dev.gauntlet.runner.suite;

import dev.gauntlet.api.Json;
import dev.gauntlet.api.LoadSpec;
import dev.gauntlet.loadgen.split.HostLimits;
import dev.gauntlet.runner.base.UserError;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.FieldSource;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A suite file reads and writes as it did before scenarios held a load template: {@code written/<suite>.json} is what
 * the runner wrote for each suite before that change, as loaded and as fitted here (scaled by 0.5, each scenario
 * once per client), the form {@code suite.json} keeps and {@code --resume} reads back.
 */
class ScenarioFileTest {
    private static final String RESOURCES = "/dev/gauntlet/runner/suite/";
    private static final HostLimits HERE = new HostLimits(20_000, 32_768, 60_999, 4_096);
    /** Every built-in suite, and one that gives every field a scenario can. */
    static final List<String> SUITES = Stream.concat(SuiteLoader.BUILT_IN.stream(), Stream.of("every-field")).toList();

    @ParameterizedTest
    @FieldSource("SUITES")
    void aSuiteWritesAsBeforeAndReadsBackEqual(String name) throws IOException {
        Suite suite = load(name);

        String written = Json.json().writeValueAsString(suite);

        assertThat(written).isEqualTo(resource("written/" + name + ".json"));
        assertThat(Json.json().readValue(written, Suite.class)).isEqualTo(suite);
    }

    @ParameterizedTest
    @FieldSource("SUITES")
    void aFittedSuiteWritesAsBeforeAndReadsBackEqual(String name) throws IOException {
        if (name.equals("client") || name.equals("protocols")) {
            // client: 30 clients × its cases, the other suites spell out their clients as it does; protocols: its
            // handshake scenario is the built-in engine's (a client library keeps its own pool)
            return;
        }
        Suite suite = load(name);
        Suite fitted = name.equals("every-field") ? SuiteScaling.fit(suite, 1, null, HERE).suite().withClientScenarios()
                : SuiteScaling.fit(suite.withClients(List.of("okhttp-virtual")), 1, 0.5, HERE).suite().withClientScenarios();

        String written = Json.json().writeValueAsString(fitted);

        assertThat(written).isEqualTo(resource("written/" + name + "-fitted.json"));
        assertThat(Json.json().readValue(written, Suite.class)).isEqualTo(fitted);
    }

    @Test
    void theTemplateHoldsTheLoadAndToSpecOnlyPointsItAtATarget() {
        Suite.Scenario scenario = load("every-field").scenarios().get(1);
        URI hello = URI.create("http://127.0.0.1:1/hello?wait=5");
        URI admin = URI.create("http://127.0.0.1:2/");

        LoadSpec spec = scenario.toSpec(hello, admin);

        assertThat(spec.url()).isEqualTo(hello);
        assertThat(spec.declaredWaitMs()).isEqualTo(scenario.waitMs());
        assertThat(spec.adminUrl()).isEqualTo(admin);
        assertThat(spec.model()).isEqualTo(scenario.load());
        assertThat(spec.processes()).isEqualTo(3);
        assertThat(spec.responseTimeoutMs()).isEqualTo(7_000);
        assertThat(spec.hardCapMs()).isEqualTo(scenario.template().hardCapMs());
        assertThat(scenario.autoProcesses()).isFalse();
        assertThat(load("every-field").scenarios().get(2).autoProcesses()).isTrue();
        assertThatThrownBy(() -> new Suite.Scenario("s", null, spec, 0, false, false))
                .hasMessage("scenario s needs a load template that names no target");
    }

    @Test
    void aResponseTimeoutOfTheGeneratorsDefaultIsWrittenAsTheDefault() throws IOException {
        Suite given = parse("generator: { responseTimeoutMs: " + LoadSpec.DEFAULT_RESPONSE_TIMEOUT_MS + " }");

        String written = Json.json().writeValueAsString(given);

        assertThat(written).contains("\"responseTimeoutMs\" : 0");
        assertThat(Json.json().readValue(written, Suite.class)).isEqualTo(given).isEqualTo(parse(""));
    }

    @Test
    void whatOnlyALoadSpecChecksIsOneLineNamingTheScenario() {
        assertThatThrownBy(() -> parse("generator: { threads: 2 }", "{ type: max-concurrency, requests: 10 }"))
                .isInstanceOf(UserError.class)
                .hasMessage("my.yaml line 8: scenario s: max concurrency runs on one thread: its limit is the process's"
                        + " open files, not CPU; split it with processes instead");
    }

    private static Suite parse(String generator) {
        return parse(generator, "{ type: closed, connections: 2 }");
    }

    private static Suite parse(String generator, String load) {
        return OneScenarioSuite.of(load, generator);
    }

    private static Suite load(String name) {
        if (name.equals("every-field")) {
            return SuiteLoader.parse(resource("every-field.yaml").getBytes(StandardCharsets.UTF_8), "every-field.yaml");
        }
        return SuiteLoader.load(name);
    }

    private static String resource(String path) {
        try (InputStream in = ScenarioFileTest.class.getResourceAsStream(RESOURCES + path)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new AssertionError(path, e);
        }
    }
}
