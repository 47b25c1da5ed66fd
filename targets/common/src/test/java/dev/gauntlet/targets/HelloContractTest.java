package dev.gauntlet.targets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HelloContractTest {

    @Test
    void waitIsZeroWithoutTheParameter() {
        assertThat(HelloContract.waitMs(null)).isZero();
        assertThat(HelloContract.waitMs("")).isZero();
        assertThat(HelloContract.waitMs("other=5")).isZero();
        assertThat(HelloContract.waitMs("await=5")).isZero();
    }

    @Test
    void waitIsFoundAmongOtherParameters() {
        assertThat(HelloContract.waitMs("wait=100")).isEqualTo(100);
        assertThat(HelloContract.waitMs("a=1&wait=250&b=2")).isEqualTo(250);
        assertThat(HelloContract.waitMs("x=wait=9&wait=7")).isEqualTo(7);
        assertThat(HelloContract.waitMs("wait=3600000")).isEqualTo(HelloContract.MAX_WAIT_MS);
    }

    @ParameterizedTest
    @ValueSource(strings = {"wait=", "wait=soon", "wait=-1", "wait=1.5", "wait=3600001", "wait=99999999999"})
    void aWaitThatIsNotAWholeNumberOfMillisecondsIsRefused(String query) {
        assertThatThrownBy(() -> HelloContract.waitMs(query)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("wait");
    }

    @Test
    void theBodyIsFiveAsciiBytes() {
        assertThat(HelloContract.BODY_BYTES).containsExactly('h', 'e', 'l', 'l', 'o');
    }
}
