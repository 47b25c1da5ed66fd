package dev.gauntlet.runner.site;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.nio.file.Path;
import java.time.Instant;

/**
 * One results directory as the site reads it: its suite's run at one commit, with everything its own report shows.
 *
 * @param id        {@code suite.json}'s id (the directory's name for one written before ids); unique per run
 * @param dir       where it was read from
 * @param data      what {@code ReportData.read} made of it: suite, environment, rows, decisions, runs
 * @param startedAt when the suite began, which orders a history
 * @param study     the study it is a run of: its suite's name, and where runs of one name were configured apart (another
 *                  collector, say) what sets this configuration apart ({@link SiteInputs}); its runs make its histories
 */
record StudyRun(String id, Path dir, ObjectNode data, Instant startedAt, String study) {
    /** The suite's name. */
    String suite() {
        return data.path("suite").path("name").asText();
    }

    /** The checkout's commit, {@code unknown} where git was not there. */
    String commit() {
        return data.path("environment").path("gitCommit").asText("unknown");
    }

    /** The commit as a person reads it: its first 7 characters, and whether the checkout had changes. */
    String shortCommit() {
        String commit = commit();
        int dirty = commit.indexOf("+dirty");
        String head = dirty < 0 ? commit : commit.substring(0, dirty);
        return head.substring(0, Math.min(7, head.length())) + (dirty < 0 ? "" : "+changes");
    }

    /** What {@code suite.json} recorded of a target's or client's version; null for a run written before it did. */
    String versionOf(String kind, String name) {
        JsonNode version = data.path("versions").path(kind).path(name).path("version");
        return version.isTextual() ? version.asText() : null;
    }

    /** The machine in one line: CPUs, OS and kernel, JDK. */
    String machine() {
        JsonNode environment = data.path("environment");
        return environment.path("cpus").asInt() + " CPUs, " + environment.path("os").asText() + " "
                + environment.path("kernel").asText() + ", " + environment.path("jdk").asText();
    }

    /**
     * What must be alike for two runs to be one study's: the suite's scenarios, JVM options, resources, table and
     * protocols. The targets, clients, forks and repetitions may differ: a history follows each entry where it ran.
     */
    JsonNode configuration() {
        ObjectNode configuration = data.path("suite").deepCopy();
        configuration.retain("scenarios", "jvm", "resources", "table", "protocols", "placement");
        return configuration;
    }

    /** This run as one of {@code study}. */
    StudyRun of(String study) {
        return new StudyRun(id, dir, data, startedAt, study);
    }

    /** The study's kind as its suite's table says it ({@code server}, {@code sweep}, {@code latency-diff}, ...). */
    String table() {
        return data.path("suite").path("table").asText("");
    }
}
