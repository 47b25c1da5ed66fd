package dev.gauntlet.runner.site;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.api.Json;
import dev.gauntlet.api.ResultsDirectory;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.report.ReportData;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The results directories a site is built from, each read whole or left out with one line saying why: not a results
 * directory, written in a format this build does not know, a file that does not read, or a run already given under
 * another path (the same id). What reads is ordered by when its suite began, the order of every history.
 *
 * <pre>
 * SiteInputs inputs = SiteInputs.read(List.of(Path.of("results/quick-A"), Path.of("results/quick-B")));
 * inputs.runs();      // oldest first
 * inputs.leftOut();   // [LeftOut[dir=results/notes, reason=not a results directory: it has no suite.json]]
 * </pre>
 */
record SiteInputs(List<StudyRun> runs, List<LeftOut> leftOut) {

    /** A directory the site does not show, and why, in words that say what to do. */
    record LeftOut(Path dir, String reason) {
        String line() {
            return dir + ": " + reason;
        }
    }

    static SiteInputs read(List<Path> dirs) {
        Map<String, StudyRun> byId = new LinkedHashMap<>();
        List<LeftOut> leftOut = new ArrayList<>();
        for (Path dir : dirs) {
            try {
                StudyRun run = readOne(dir);
                StudyRun earlier = byId.putIfAbsent(run.id(), run);
                if (earlier != null) {
                    leftOut.add(new LeftOut(dir, "claims the id " + run.id() + " of " + earlier.dir()
                            + ", read before it: one run given twice (a copy?), shown once"));
                }
            } catch (UserError e) {
                leftOut.add(new LeftOut(dir, e.getMessage()));
            }
        }
        List<StudyRun> runs = new ArrayList<>(studies(byId.values()));
        runs.sort(Comparator.comparing(StudyRun::startedAt).thenComparing(StudyRun::id));
        return new SiteInputs(List.copyOf(runs), List.copyOf(leftOut));
    }

    /**
     * Each run placed in its study: its suite's name, or where runs of one name were configured apart (a profile's
     * other collector, say), the name for the configuration that ran first and, for each other, the name and what sets
     * it apart, so that no history mixes them: the target JVM options only it has ({@code server · -XX:+UseParallelGC}),
     * else its place among them ({@code server · configuration 2}).
     */
    private static List<StudyRun> studies(Collection<StudyRun> runs) {
        Map<String, List<JsonNode>> configurations = new LinkedHashMap<>();
        runs.stream().sorted(Comparator.comparing(StudyRun::startedAt)).forEach(run -> {
            List<JsonNode> seen = configurations.computeIfAbsent(run.suite(), name -> new ArrayList<>());
            if (!seen.contains(run.configuration())) {
                seen.add(run.configuration());
            }
        });
        List<StudyRun> placed = new ArrayList<>();
        for (StudyRun run : runs) {
            List<JsonNode> seen = configurations.get(run.suite());
            int index = seen.indexOf(run.configuration());
            placed.add(run.of(index == 0 ? run.suite() : run.suite() + " · " + setApart(seen, index)));
        }
        return placed;
    }

    /** The target JVM options of configuration {@code index} that no other has, or its number when there are none. */
    private static String setApart(List<JsonNode> configurations, int index) {
        List<String> own = new ArrayList<>();
        configurations.get(index).path("jvm").path("target").forEach(option -> own.add(option.asText()));
        for (int other = 0; other < configurations.size(); other++) {
            if (other != index) {
                configurations.get(other).path("jvm").path("target").forEach(option -> own.remove(option.asText()));
            }
        }
        return own.isEmpty() ? "configuration " + (index + 1) : String.join(" ", own);
    }

    private static StudyRun readOne(Path dir) {
        if (!Files.exists(dir)) {
            throw new UserError("no such directory");
        }
        if (!Files.isDirectory(dir)) {
            throw new UserError("a file, not a results directory (give directories ./gauntlet run wrote)");
        }
        Path suiteFile = new ResultsDirectory(dir).suite();
        if (!Files.isRegularFile(suiteFile)) {
            throw new UserError("not a results directory: it has no suite.json (give directories ./gauntlet run wrote)");
        }
        JsonNode suiteJson;
        try {
            suiteJson = Json.json().readTree(suiteFile.toFile());
        } catch (IOException e) {
            throw new UserError("its suite.json does not read (" + e.getMessage().lines().findFirst().orElse("") + ")");
        }
        int format = suiteJson.path("formatVersion").asInt(1);
        if (format > ResultsDirectory.FORMAT_VERSION) {
            throw new UserError("written in results format " + format + ", and this build reads formats up to "
                    + ResultsDirectory.FORMAT_VERSION + ": build the site with the gauntlet that wrote it, or a later one");
        }
        ObjectNode data = ReportData.read(dir);
        String id = suiteJson.path("id").asText(dir.toAbsolutePath().normalize().getFileName().toString());
        data.set("versions", suiteJson.path("versions"));
        return new StudyRun(id, dir, data, startedAt(suiteJson), data.path("suite").path("name").asText());
    }

    private static Instant startedAt(JsonNode suiteJson) {
        try {
            return Instant.parse(suiteJson.path("environment").path("startedAt").asText());
        } catch (DateTimeParseException e) {
            throw new UserError("its suite.json records no start time (environment.startedAt), which orders a history");
        }
    }
}
