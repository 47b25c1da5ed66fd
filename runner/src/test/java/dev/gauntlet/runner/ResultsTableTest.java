package dev.gauntlet.runner;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ResultsTableTest {

    @Test
    void millisKeepThreeSignificantFigures() {
        assertThat(ResultsTable.millis(0.04123)).isEqualTo("0.041");
        assertThat(ResultsTable.millis(1.2345)).isEqualTo("1.23");
        assertThat(ResultsTable.millis(12.345)).isEqualTo("12.3");
        assertThat(ResultsTable.millis(1234.5)).isEqualTo("1235");
        assertThat(ResultsTable.millis(Double.NaN)).isEqualTo("-");
    }

    @Test
    void aRowShowsItsFiguresAndItsNote() {
        ResultRow row = new ResultRow("dummy", "closed-50c", 1, "closed 50c", 0, 123_456, 3, 12_345.6,
                0.5, 2.25, 10.5, 101, 50L, 0.21, 3.4, "platform-noisy", "schedule lag p99 3.1 ms is the platform's");

        String table = ResultsTable.render(List.of(row));

        assertThat(table.lines().toList()).hasSize(2);
        assertThat(table.lines().toList().getFirst()).contains("target", "rate/s", "p99.9 ms", "errors", "in flight",
                "hiccup p99", "verdict");
        assertThat(table.lines().toList().get(1)).contains("dummy", "closed-50c", "123456", "12346", "0.500", "2.25",
                "10.5", "101", " 50 ", "0.210/3.40", "platform-noisy", "schedule lag p99 3.1 ms is the platform's");
    }
}
