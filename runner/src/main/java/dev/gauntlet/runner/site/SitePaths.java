package dev.gauntlet.runner.site;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Where each page of a site is, relative to its root, and the anchors that deep-link into them; named here only:
 *
 * <pre>
 * index.html                  the front page
 * targets/NAME.html           a target's page        clients/NAME.html    a client's
 * studies/ID.html             a 2014–2016 study's page: its findings, decided here
 * runs/ID/report.html         a run's own report, drawn from the results directory it was read from
 * </pre>
 */
final class SitePaths {
    static final String FRONT = "index.html";

    private SitePaths() {
    }

    static String entry(boolean client, String name) {
        return (client ? "clients/" : "targets/") + fileName(name) + ".html";
    }

    static String seed(String id) {
        return "studies/" + fileName(id) + ".html";
    }

    static String report(String runId) {
        return "runs/" + fileName(runId) + "/report.html";
    }

    /** {@code series-quick-closed-50c}: an id safe in a URL's fragment, from the words that name a section. */
    static String anchor(String kind, String... names) {
        return kind + "-" + Arrays.stream(names).map(SitePaths::fileName).collect(Collectors.joining("-"));
    }

    /** A name as a file's: letters, digits, dots and dashes kept, anything else an underscore. */
    static String fileName(String name) {
        return name.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "_");
    }
}
