package dev.gauntlet.runner.suite;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;

import dev.gauntlet.api.LoadSpec;

import java.io.IOException;
import java.util.List;

/**
 * A scenario's {@code generator} section in a suite file ({@link ScenarioFile}): how the generator runs it; every field
 * is optional (0 or empty: the generator's default). The scenario keeps them in its load template.
 *
 * @param processes       generator processes the load is split over (past the open-files limit of one);
 *                        {@code auto} or absent ({@link #AUTO_PROCESSES}): the fewest whose shares each fit one
 *                        process's open files, which {@link SuiteScaling} picks on the machine at hand
 * @param threads         engine threads in each generator process (open and closed loops; more cores)
 * @param sourceAddresses local addresses the connections spread over (each one, e.g. 127.0.0.2), past 64k ports per address
 * @param maxConnections  open loop: connections opened at most
 * @param responseTimeoutMs how long a request may take from its send (0: the generator's default)
 * @param rampMs          open loop: the rate rises from zero over this first part of the warm-up (0: none)
 * @param client          a client library engine from {@code clients.yaml} sends the requests; null: the built-in one
 * @param streams         HTTP/2 requests in flight on one connection at most (h2load's {@code -m}) when the target is
 *                        loaded over h2 or h2c (a suite's {@code protocols}); 0 or absent: 1 (and written so)
 * @param newConnectionPerRequest every request on a new connection: what setting one up costs (the TLS handshake's
 *                        scenario)
 */
record GeneratorSettings(@JsonDeserialize(using = ProcessesReader.class) int processes, int threads,
                  List<String> sourceAddresses, int maxConnections, long responseTimeoutMs, long rampMs,
                  String client, @JsonInclude(JsonInclude.Include.NON_DEFAULT) int streams,
                  @JsonInclude(JsonInclude.Include.NON_DEFAULT) boolean newConnectionPerRequest) {
    /** {@code processes: auto}, and a scenario that names none: the number is left to {@link SuiteScaling}. */
    static final int AUTO_PROCESSES = 0;
    static final GeneratorSettings DEFAULTS = new GeneratorSettings(AUTO_PROCESSES, 1, List.of(), 0, 0, 0, null, 0, false);
    /** Each a JVM of its own: more would be a typo, not a load one machine can offer. */
    static final int MAX_PROCESSES = 64;
    static final int MAX_THREADS = 1024;
    /** More connections than one generator machine can open: a typo. */
    static final int MAX_CONNECTIONS = 1_000_000;

    GeneratorSettings {
        if (processes < 0 || processes > MAX_PROCESSES) {
            throw new IllegalArgumentException("generator.processes must be 1 to " + MAX_PROCESSES + " or auto, got "
                    + processes);
        }
        threads = threads == 0 ? 1 : threads;
        Suite.checkRange("generator.threads", threads, 1, MAX_THREADS);
        Suite.checkRange("generator.maxConnections", maxConnections, 0, MAX_CONNECTIONS);
        Suite.checkRange("generator.streams", streams, 0, LoadSpec.MAX_STREAMS);
        Suite.checkMs("generator.responseTimeoutMs", responseTimeoutMs, 0);
        Suite.checkMs("generator.rampMs", rampMs, 0);
        sourceAddresses = sourceAddresses == null ? List.of() : List.copyOf(sourceAddresses);
    }

    /** Whether {@link SuiteScaling} picks the number of processes. */
    boolean autoProcesses() {
        return processes == AUTO_PROCESSES;
    }

    /** Reads {@code generator.processes}: a number, or {@code auto}, which is {@link GeneratorSettings#AUTO_PROCESSES}. */
    static final class ProcessesReader extends StdDeserializer<Integer> {
        ProcessesReader() {
            super(Integer.class);
        }

        @Override
        public Integer deserialize(JsonParser parser, DeserializationContext context) throws IOException {
            if (parser.currentToken() == JsonToken.VALUE_NUMBER_INT) {
                return parser.getIntValue();
            }
            if (parser.currentToken() == JsonToken.VALUE_STRING && "auto".equals(parser.getText().trim())) {
                return GeneratorSettings.AUTO_PROCESSES;
            }
            throw JsonMappingException.from(parser, "generator.processes must be 1 to " + GeneratorSettings.MAX_PROCESSES
                    + " or auto, got '" + parser.getText() + "'");
        }

        @Override
        public Integer getNullValue(DeserializationContext context) {
            return GeneratorSettings.AUTO_PROCESSES;
        }

        @Override
        public Object getAbsentValue(DeserializationContext context) {
            return GeneratorSettings.AUTO_PROCESSES;
        }
    }
}
