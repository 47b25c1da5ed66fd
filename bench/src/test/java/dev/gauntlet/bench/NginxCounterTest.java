package dev.gauntlet.bench;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NginxCounterTest {

    @Test
    void nginxsStatusPageGivesItsRequestCount() {
        assertThat(NginxCounter.requestsIn("HTTP/1.1 200 OK\r\n\r\nActive connections: 101 \nserver accepts handled requests\n"
                + " 2031 2031 915422 \nReading: 0 Writing: 1 Waiting: 100 \n")).isEqualTo(915_422);
        assertThatThrownBy(() -> NginxCounter.requestsIn("HTTP/1.1 404 Not Found\r\n\r\n")).hasMessageContaining("404");
    }
}
