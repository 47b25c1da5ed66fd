package dev.gauntlet.runner.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.Numbers;
import dev.gauntlet.api.ResultsDirectory;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.results.ClientTable;
import dev.gauntlet.runner.results.RowFigure;
import dev.gauntlet.runner.statistics.Contrast;
import dev.gauntlet.runner.statistics.Estimate;
import dev.gauntlet.runner.statistics.ForkMeans;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * {@code gauntlet contrast DIR --scenario S A B...}: whether targets of one results directory differ in one figure,
 * decided over their forks (Welch's interval, {@link Contrast}) and never on one run, so that a finding names the
 * interval that decides it. A run without the figure (failed, or a JVM not recorded) is left out and said. In a study of
 * clients, whose scenarios are named per client ({@code held.okhttp-virtual}), a case's name ({@code held}) contrasts
 * its clients instead: what that study varies.
 */
@Command(name = "contrast", mixinStandardHelpOptions = true,
        description = "Whether targets of one results directory differ in a figure of one scenario: each target's mean "
                + "over its forks with its interval, then each target after the first against the first, with the "
                + "interval of the difference (\"no difference detectable\" when it spans 0). In a client study, name "
                + "a case (held, not held.okhttp-virtual) to contrast its clients.",
        footer = {"", "Examples:",
                "  ./gauntlet contrast results/server-20261206-160008 --scenario slow --figure mean \\",
                "      jetty-servlet-sync jetty-servlet-async-fjp jetty-servlet-async-timer",
                "  ./gauntlet contrast results/client-... --scenario held --figure generator-heap-max \\",
                "      okhttp-platform okhttp-virtual"})
final class ContrastCommand implements Runnable {
    @Parameters(index = "0", paramLabel = "DIR", description = "a results directory that ./gauntlet run wrote")
    Path resultsDir;

    @Parameters(index = "1..*", arity = "1..*", paramLabel = "TARGET",
            description = "the targets, as its rows name them (where --scenario names a client study's case, its "
                    + "clients); the first is what the others are contrasted with")
    List<String> targets;

    @Option(names = "--scenario", required = true, paramLabel = "NAME", description = "the scenario, as its rows name it")
    String scenario;

    @Option(names = "--figure", paramLabel = "FIGURE", description = "one of: ${COMPLETION-CANDIDATES} (default: p99)",
            completionCandidates = Figures.class)
    String figure = "p99";

    @Option(names = "--confidence", paramLabel = "LEVEL", description = "the intervals' level (default: 0.95)")
    double confidence = Estimate.DEFAULT_CONFIDENCE;

    @Spec
    CommandSpec spec;

    /** The figures' names, for the help text. */
    static final class Figures extends ArrayList<String> {
        Figures() {
            super(Arrays.stream(RowFigure.values()).map(RowFigure::label).toList());
        }
    }

    @Override
    public void run() {
        RowFigure by = RowFigure.named(figure);
        if (by == null) {
            throw new UserError("--figure " + figure + " is not a figure rows have; one of: " + RowFigure.labels());
        }
        if (!(confidence > 0 && confidence < 1)) {
            throw new UserError("--confidence must be above 0 and below 1, such as 0.95 or 0.99, got " + confidence);
        }
        List<JsonNode> rows = rowsOf(scenario);
        // Every name is checked before a line is printed, so that a misspelt one is the only line.
        List<List<JsonNode>> runsOf = targets.stream().map(target -> runsOf(rows, target)).toList();
        PrintWriter out = spec.commandLine().getOut();
        out.printf(Locale.ROOT, "%s · %s (%s) over forks, mean and %s interval:%n", scenario, by.label(), by.unit(),
                Estimate.level(confidence));
        int width = targets.stream().mapToInt(String::length).max().orElse(0);
        List<double[]> samples = new ArrayList<>();
        for (int i = 0; i < targets.size(); i++) {
            String target = targets.get(i);
            List<JsonNode> runs = runsOf.get(i);
            double[] forks = ForkMeans.of(runs, r -> r.path("fork").asInt(1), by::of);
            samples.add(forks);
            long without = runs.stream().filter(r -> Double.isNaN(by.of(r))).count();
            out.printf(Locale.ROOT, "  %-" + width + "s  %s; verdicts %s%s%n", target,
                    described(Estimate.of(forks, confidence)), verdicts(runs),
                    without == 0 ? "" : "; " + without + " run" + (without == 1 ? "" : "s") + " without the figure, left out");
        }
        for (int i = 1; i < targets.size(); i++) {
            Contrast contrast = Contrast.of(samples.get(i), samples.getFirst(), confidence);
            String difference = Double.isNaN(contrast.difference()) ? "" : signed(contrast.difference()) + " " + by.unit()
                    + (contrast.bounded() ? " (" + Estimate.level(confidence) + " CI " + signed(contrast.low()) + "–"
                    + signed(contrast.high()) + " " + by.unit() + ")" : "") + ": ";
            out.printf(Locale.ROOT, "%s against %s: %s%s%n", targets.get(i), targets.getFirst(), difference,
                    by.describe(contrast, targets.get(i), targets.getFirst()));
        }
    }

    /** The runs of one target (or client) among the scenario's rows, or a one-line error naming those there are. */
    private List<JsonNode> runsOf(List<JsonNode> rows, String target) {
        List<JsonNode> runs = rows.stream().filter(r -> entryOf(r).equals(target)).toList();
        if (runs.isEmpty()) {
            throw new UserError(resultsDir + " has no " + scenario + " row of " + target + "; its "
                    + (byClient(rows) ? "clients" : "targets") + " there: " + distinct(rows, this::entryOf));
        }
        if (runs.stream().map(r -> r.path("target").asText()).distinct().count() > 1) {
            throw new UserError(target + " ran " + scenario + " against several targets (" + distinct(runs,
                    r -> r.path("target").asText()) + "); contrast those targets instead: --scenario " + scenario
                    + "." + target + " TARGET TARGET...");
        }
        return runs;
    }

    /** The scenario's rows, or a one-line error naming the scenarios there are. */
    private List<JsonNode> rowsOf(String scenario) {
        Path results = new ResultsDirectory(resultsDir).results();
        if (!Files.isRegularFile(results)) {
            throw new UserError(resultsDir + " is not a results directory with rows: it has no results.json (pass one"
                    + " that ./gauntlet run wrote)");
        }
        List<JsonNode> all = new ArrayList<>();
        try {
            Json.json().readTree(results.toFile()).forEach(all::add);
        } catch (IOException e) {
            throw new UserError(results + " cannot be read: " + e.getMessage());
        }
        List<JsonNode> rows = all.stream().filter(r -> r.path("scenario").asText().equals(scenario)
                || caseOf(r).equals(scenario)).toList();
        if (rows.isEmpty()) {
            throw new UserError(resultsDir + " has no scenario " + scenario + "; its scenarios: "
                    + distinct(all, r -> r.path("scenario").asText()));
        }
        return rows;
    }

    /** A row's case: its scenario's name without the client it ran for. */
    private static String caseOf(JsonNode row) {
        return ClientTable.caseOf(row.path("scenario").asText(), row.path("client").asText(null));
    }

    /** Whether the scenario named a client study's case, whose rows are then its clients' and not its targets'. */
    private boolean byClient(List<JsonNode> rows) {
        return rows.stream().anyMatch(r -> !r.path("scenario").asText().equals(scenario));
    }

    /** What a row is named by on the command line: its client where the scenario named a case, else its target. */
    private String entryOf(JsonNode row) {
        return row.path("scenario").asText().equals(scenario) ? row.path("target").asText() : row.path("client").asText();
    }

    /**
     * The estimate with the decimals its interval needs to show two digits of its half-width: targets a few tenths
     * apart in a figure of a thousand read apart, as their contrast is decided.
     */
    private static String described(Estimate estimate) {
        if (!estimate.bounded() || !(estimate.halfWidth() > 0)) {
            return estimate.describe();
        }
        int decimals = Math.clamp(1 - (int) Math.floor(Math.log10(estimate.halfWidth())), 0, 4);
        String figure = "%." + decimals + "f";
        return String.format(Locale.ROOT, figure + " (%s CI " + figure + "–" + figure + ", %d forks)", estimate.mean(),
                Estimate.level(estimate.confidence()), estimate.low(), estimate.high(), estimate.samples());
    }

    /** The names {@code rows} have, in their order, once each: for an error naming what there is. */
    private static String distinct(List<JsonNode> rows, Function<JsonNode, String> name) {
        return String.join(", ", rows.stream().map(name).collect(Collectors.toCollection(LinkedHashSet::new)));
    }

    /** {@code +4.46}, {@code -0.79}, {@code 0}. */
    private static String signed(double value) {
        return (value > 0 ? "+" : "") + Numbers.figure(value);
    }

    /** {@code ok ×2, not-steady ×1}. */
    private static String verdicts(List<JsonNode> runs) {
        Map<String, Long> counts = new TreeMap<>(runs.stream()
                .collect(Collectors.groupingBy(r -> r.path("verdict").asText("–"), Collectors.counting())));
        return counts.entrySet().stream().map(e -> e.getKey() + " ×" + e.getValue()).collect(Collectors.joining(", "));
    }
}
