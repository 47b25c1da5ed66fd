package dev.gauntlet.runner.site;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.runner.results.ClientTable;
import dev.gauntlet.runner.results.RowFigure;
import dev.gauntlet.runner.statistics.Contrast;
import dev.gauntlet.runner.statistics.Estimate;
import dev.gauntlet.runner.statistics.ForkMeans;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The 2014–2016 studies Gauntlet succeeds and their findings ({@code seed-studies.yaml}), each finding decided on a
 * run of the suite that repeats it, as {@code ./gauntlet contrast} decides it: one mean per fork of each of two
 * entries in one case, Welch's interval of the difference ({@link Contrast}), the sentence {@link RowFigure} says.
 *
 * <pre>
 * SeedStudies.Study server = SeedStudies.builtIn().getFirst();     // server-2016, suite server
 * server.findings().getFirst().decide(run).outcome();              // REPRODUCED
 * </pre>
 */
final class SeedStudies {
    private SeedStudies() {
    }

    /** What a run says of a finding. */
    enum Outcome {
        REPRODUCED("reproduced"), CONTRADICTED("contradicted"), NO_DIFFERENCE("no difference detectable"),
        NOT_MEASURED("not in these results");

        final String words;

        Outcome(String words) {
            this.words = words;
        }
    }

    /**
     * A finding's decision on one run.
     *
     * @param sentence what the contrast says, with its interval, or what the run lacks
     */
    record Decision(Outcome outcome, String sentence) {
    }

    /**
     * One finding as its study said it, and the contrast that decides it: {@code better} beats {@code than} in
     * {@code figure}, or the two of {@code alike} do not differ.
     */
    record Finding(String said, @JsonProperty("case") String caseName, String figure, String better, String than,
                   List<String> alike) {
        Decision decide(StudyRun run) {
            RowFigure by = RowFigure.named(figure);
            if (by == null) {
                throw new IllegalStateException("seed-studies.yaml names no figure " + figure + "; one of " + RowFigure.labels());
            }
            String a = alike == null ? better : alike.get(1);
            String b = alike == null ? than : alike.get(0);
            double[] samplesA = forks(run, a, by);
            double[] samplesB = forks(run, b, by);
            if (samplesA.length == 0 || samplesB.length == 0) {
                return new Decision(Outcome.NOT_MEASURED, (samplesA.length == 0 ? a : b) + " has no " + figure + " in "
                        + caseName + " here");
            }
            Contrast contrast = Contrast.of(samplesA, samplesB, Estimate.DEFAULT_CONFIDENCE);
            String sentence = by.describe(contrast, a, b);
            if (!contrast.bounded()) {
                return new Decision(Outcome.NO_DIFFERENCE, sentence);
            }
            if (alike != null) {
                return new Decision(contrast.resolved() ? Outcome.CONTRADICTED : Outcome.REPRODUCED, sentence);
            }
            Outcome outcome = by.better(contrast) ? Outcome.REPRODUCED
                    : contrast.resolved() ? Outcome.CONTRADICTED : Outcome.NO_DIFFERENCE;
            return new Decision(outcome, sentence);
        }

        /** The entry's mean in each fork of the case, every run counted as {@code contrast} counts it. */
        private double[] forks(StudyRun run, String entry, RowFigure by) {
            List<JsonNode> rows = new ArrayList<>();
            for (JsonNode row : run.data().path("rows")) {
                String client = row.hasNonNull("client") ? row.path("client").asText() : null;
                String named = client == null ? row.path("target").asText() : client;
                if (named.equals(entry) && ClientTable.caseOf(row.path("scenario").asText(), client).equals(caseName)) {
                    rows.add(row);
                }
            }
            return ForkMeans.of(rows, row -> row.path("fork").asInt(1), by::of);
        }
    }

    /** A study: what it was, the suite that repeats it, and its findings. */
    record Study(String id, String title, String original, String suite, List<Finding> findings) {
    }

    private record File(List<Study> studies) {
    }

    static List<Study> builtIn() {
        try (InputStream in = SeedStudies.class.getResourceAsStream("seed-studies.yaml")) {
            if (in == null) {
                throw new IllegalStateException("seed-studies.yaml is missing beside SeedStudies");
            }
            return List.copyOf(Json.yaml().readValue(in, File.class).studies());
        } catch (IOException e) {
            throw new UncheckedIOException("seed-studies.yaml cannot be read", e);
        }
    }
}
