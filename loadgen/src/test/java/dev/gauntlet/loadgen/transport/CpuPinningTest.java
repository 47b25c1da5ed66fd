package dev.gauntlet.loadgen.transport;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CpuPinningTest {
    @Test
    void countsTheCpusOfAKernelList() {
        assertThat(CpuPinning.count("0-1")).isEqualTo(2);
        assertThat(CpuPinning.count("1")).isEqualTo(1);
        assertThat(CpuPinning.count("0-3,6,8-9")).isEqualTo(7);
    }

    @Test
    void aListItCannotReadIsNoCount() {
        assertThat(CpuPinning.count("")).isEqualTo(-1);
        assertThat(CpuPinning.count("3-1")).isEqualTo(-1);
        assertThat(CpuPinning.count("0-1-2")).isEqualTo(-1);
        assertThat(CpuPinning.count("ff")).isEqualTo(-1);
    }
}
