package dev.gauntlet.loadgen.measure;

import dev.gauntlet.api.ErrorClass;
import dev.gauntlet.api.ErrorKind;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.api.LoadSpec;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpTimeoutException;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ErrorKindsTest {
    private static final long START_NS = 1_000_000_000L;
    private static final LoadSpec SPEC = LoadSpec.of(URI.create("http://127.0.0.1:1/hello"),
            new LoadModel.OpenLoop(100, LoadModel.InterArrival.CONSTANT)).toBuilder().responseTimeoutMs(250).build();

    @Test
    void eachClassAndStatusWithItsCountFirstAndLastSecondAndFirstMessage() {
        ErrorKinds engine = new ErrorKinds();
        engine.badStatus(503, START_NS + 1_500_000_000L);
        engine.failed(ErrorClass.RESPONSE_TIMEOUT, START_NS + 200_000_000L, null);
        engine.badStatus(500, START_NS + 2_000_000_000L);
        engine.badStatus(503, START_NS + 2_500_000_000L);
        engine.failed(ErrorClass.RESPONSE_TIMEOUT, START_NS + 3_000_000_000L, null);

        assertThat(ErrorKinds.summary(List.of(engine), START_NS, SPEC)).containsExactly(
                new ErrorKind(ErrorClass.RESPONSE_TIMEOUT, null, "no whole response within 250 ms (the response timeout)", 2, 0.2, 3.0),
                new ErrorKind(ErrorClass.BAD_STATUS, 500, "status 500", 1, 2.0, 2.0),
                new ErrorKind(ErrorClass.BAD_STATUS, 503, "status 503", 2, 1.5, 2.5));
    }

    @Test
    void aLibrarysExceptionIsTheMessageOfTheEngineThatFailedFirst() {
        ErrorKinds early = new ErrorKinds();
        ErrorKinds late = new ErrorKinds();
        late.failed(ErrorClass.RESET, START_NS + 900_000_000L, new IOException("Connection reset by peer"));
        early.failed(ErrorClass.RESET, START_NS + 100_000_000L,
                new RuntimeException(null, new HttpTimeoutException("request timed out\nat the second line")));

        assertThat(ErrorKinds.summary(List.of(late, early), START_NS, SPEC)).containsExactly(
                new ErrorKind(ErrorClass.RESET, null, "HttpTimeoutException: request timed out", 2, 0.1, 0.9));
    }

    @Test
    void processesTablesMergeKindByKind() {
        List<ErrorKind> first = List.of(new ErrorKind(ErrorClass.RESET, null, "first's", 3, 0.5, 1.0),
                new ErrorKind(ErrorClass.BAD_STATUS, 503, "status 503", 1, 0.2, 0.2));
        List<ErrorKind> second = List.of(new ErrorKind(ErrorClass.RESET, null, "second's", 2, 0.1, 0.8));

        assertThat(ErrorKinds.merge(List.of(first, second))).containsExactly(
                new ErrorKind(ErrorClass.RESET, null, "second's", 5, 0.1, 1.0),
                new ErrorKind(ErrorClass.BAD_STATUS, 503, "status 503", 1, 0.2, 0.2));
        assertThat(ErrorKinds.merge(java.util.Arrays.asList(null, null))).as("summaries written before").isNull();
    }
}
