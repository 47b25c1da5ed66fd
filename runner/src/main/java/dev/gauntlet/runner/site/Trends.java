package dev.gauntlet.runner.site;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gauntlet.api.Numbers;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.statistics.ChangePoints;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The histories of {@code compare BASE... NEW}: every figure over the results directories given, in the order they ran,
 * its change points marked as on a site ({@link Histories}, {@link ChangePoints}), said on the terminal, drawn on a page,
 * and the changes at NEW for the gate ({@code --fail-on change}):
 *
 * <pre>
 * Trends trends = Trends.of(List.of(first, second, base, now));
 * trends.lines();          // "dummy · quick · closed-50c, rate /s: 12,396 → 4,071 → ...: change at 2222222: ..."
 * trends.worseAtNew();     // one sentence per figure whose latest run moved it for the worse beyond the noise
 * trends.page(pageFile);   // the trend page's data, its reports linked relative to the page
 * </pre>
 *
 * Unlike a site, a comparison reads every directory or none: one that does not read is a {@link UserError}, and NEW
 * (the last given) must be the run that began last.
 */
public final class Trends {
    private final SiteInputs inputs;
    private final SitePages pages;
    private final List<Histories.Series> series;

    private Trends(SiteInputs inputs) {
        this.inputs = inputs;
        this.pages = new SitePages(inputs);
        this.series = Histories.of(inputs.runs());
    }

    public static Trends of(List<Path> dirs) {
        SiteInputs inputs = SiteInputs.read(dirs);
        if (!inputs.leftOut().isEmpty()) {
            throw new UserError("cannot compare " + inputs.leftOut().getFirst().line());
        }
        StudyRun last = inputs.runs().getLast();
        Path now = dirs.getLast().toAbsolutePath().normalize();
        if (!last.dir().toAbsolutePath().normalize().equals(now)) {
            throw new UserError("NEW (" + dirs.getLast() + ") must be the latest run, but " + last.dir() + " began after it, at "
                    + last.startedAt() + ": give BASE... NEW in the order they ran");
        }
        return new Trends(inputs);
    }

    /** How many runs the histories span. */
    public int runs() {
        return inputs.runs().size();
    }

    /**
     * A line per figure whose history has a mark (a change, an outlier, a latest change), then how many have none:
     * {@code dummy · it-site · closed, rate /s: 12,396 → 4,071 → 3,171; change: rate /s fell 67 % (...) from 2222222 on}.
     */
    public List<String> lines() {
        List<String> lines = new ArrayList<>();
        int quiet = 0;
        for (Histories.Series s : series) {
            List<Histories.Point> marked = s.points().stream()
                    .filter(p -> p.reading() != null && p.reading().mark() != ChangePoints.Mark.NONE).toList();
            if (marked.isEmpty()) {
                quiet++;
                continue;
            }
            lines.add(s.entry() + " · " + s.study() + " · " + s.caseName() + ", " + SitePages.metricWords(s.metric()) + ": "
                    + s.points().stream().map(p -> Numbers.figure(p.figure().mean())).collect(Collectors.joining(" → "))
                    + marked.stream().map(p -> "; " + SitePages.markWord(p.reading().mark()) + ": " + SitePages.sentence(s, p))
                    .collect(Collectors.joining()));
        }
        lines.add(quiet + " figure" + (quiet == 1 ? "" : "s") + " without a change beyond the noise");
        return lines;
    }

    /**
     * A figure whose history ends in a change for the worse at NEW.
     *
     * @param figure   {@code ENTRY · CASE}
     * @param sentence how it moved, against which level, with its interval
     */
    public record WorseAtNew(String figure, String sentence) {
        @Override
        public String toString() {
            return figure + ": " + sentence;
        }
    }

    /** Per figure whose last point, NEW's, is a latest change for the worse: what the gate fails on. */
    public List<WorseAtNew> worseAtNew() {
        StudyRun now = inputs.runs().getLast();
        List<WorseAtNew> worse = new ArrayList<>();
        for (Histories.Series s : series) {
            Histories.Point last = s.points().getLast();
            if (last.run() == now && last.reading() != null && last.reading().mark() == ChangePoints.Mark.LATEST_CHANGE
                    && SitePages.worse(s, last.reading().contrast())) {
                worse.add(new WorseAtNew(s.entry() + " · " + s.caseName(), SitePages.sentence(s, last)));
            }
        }
        return worse;
    }

    /** The data of a page of every history ({@code site.js}'s trend page), each run's report linked from {@code pageFile}. */
    public ObjectNode page(Path pageFile) {
        return pages.trend(pageFile);
    }
}
