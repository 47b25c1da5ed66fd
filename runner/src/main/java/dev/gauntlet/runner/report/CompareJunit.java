package dev.gauntlet.runner.report;

import dev.gauntlet.api.Numbers;
import dev.gauntlet.runner.base.UserError;
import dev.gauntlet.runner.results.Comparison;
import dev.gauntlet.runner.results.HostDifference;
import dev.gauntlet.runner.results.RowChange;

import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;

/**
 * {@code compare --junit FILE}: the comparison as JUnit XML, which the test reporters of CI systems (Jenkins' junit
 * step, GitLab's {@code artifacts:reports:junit}, GitHub's test-report actions) read:
 *
 * <pre>
 * List&lt;CompareJunit.TestCase&gt; cases = CompareJunit.testCases(comparison, comparison.rowChanges(), hosts, true);
 * new CompareJunit(Map.of("thresholds", "p99=+10%"), List.of(), cases).write(Path.of("compare.xml"));
 * </pre>
 *
 * One {@code <testsuite name="gauntlet compare">} whose test cases are named {@code TARGET · SCENARIO} (their
 * {@code classname}) and what was checked of it: {@code compared} (passes with its changes, skipped when not compared,
 * with why), each threshold judged on it ({@code p99=+10%}: a failure beyond the limit and the noise, a pass that says
 * so in its {@code system-out} within the noise, skipped when the hosts differ), and {@code row #N} for each row change
 * given (a failure unless allowed). The hosts' capacity test is the case {@code hosts · capacity}, failed when they
 * differ under a gate. A failure's message is the line the terminal prints after {@code FAILED}.
 */
public record CompareJunit(Map<String, String> properties, List<String> warnings, List<TestCase> testCases) {
    public static final String SUITE_NAME = "gauntlet compare";

    /** What became of a check. */
    public enum Result {
        PASSED, FAILED, SKIPPED
    }

    /**
     * One check as a {@code <testcase>}.
     *
     * @param message for a failure or a skip, its one line; else empty
     * @param out     what the check saw, for its {@code <system-out>}; empty for none
     */
    public record TestCase(String classname, String name, Result result, String message, String out) {
    }

    /**
     * Every check of a comparison, target × scenario by target × scenario, then the hosts' and the rows'.
     *
     * @param rows  the row changes to report: a gate's ({@link Comparison#rowChanges()}), or without one the rows NEW
     *              lost ({@link RowChange#lost})
     * @param gated whether {@code --fail-on} gave thresholds: only then can the hosts' difference fail
     */
    public static List<TestCase> testCases(Comparison comparison, List<RowChange> rows, HostDifference hosts, boolean gated) {
        List<TestCase> cases = new ArrayList<>();
        for (Comparison.TargetScenario ts : comparison.targetScenarios()) {
            String classname = ts.target() + " · " + ts.scenario();
            if (ts.compared()) {
                String changes = comparison.deltas().stream()
                        .filter(d -> d.target().equals(ts.target()) && d.scenario().equals(ts.scenario()))
                        .map(CompareJunit::change).collect(Collectors.joining("\n"));
                cases.add(new TestCase(classname, "compared", Result.PASSED, "", ts + "\n" + changes));
            } else {
                cases.add(new TestCase(classname, "compared", Result.SKIPPED, "not compared: " + ts, ""));
            }
            comparison.checks().stream().filter(c -> c.target().equals(ts.target()) && c.scenario().equals(ts.scenario()))
                    .map(c -> check(classname, c)).forEach(cases::add);
        }
        hosts.line().ifPresent(line -> cases.add(hosts.differ() && gated
                ? new TestCase("hosts", "capacity", Result.FAILED, line, "")
                : new TestCase("hosts", "capacity", Result.PASSED, "", line)));
        for (RowChange row : rows) {
            String classname = row.target() + " · " + row.scenario();
            cases.add(row.failsGate() ? new TestCase(classname, "row " + row.run(), Result.FAILED, row.toString(), "")
                    : new TestCase(classname, "row " + row.run(), Result.PASSED, "", "allowed: " + row));
        }
        return List.copyOf(cases);
    }

    private static TestCase check(String classname, Comparison.ThresholdCheck check) {
        return switch (check.outcome()) {
            case HOLDS -> new TestCase(classname, check.threshold(), Result.PASSED, "", "holds: " + check.line());
            case WITHIN_NOISE -> new TestCase(classname, check.threshold(), Result.PASSED, "",
                    "within the noise, not failed: " + check.line());
            case FAILED -> new TestCase(classname, check.threshold(), Result.FAILED, check.line(), "");
            case NOT_JUDGED -> new TestCase(classname, check.threshold(), Result.SKIPPED,
                    "not judged, the hosts differ: " + check.line(), "");
        };
    }

    /** {@code p99 10 → 12 (+20.0 %, beyond the noise)}: one figure's change, as the compared case's output lists it. */
    private static String change(Comparison.Delta d) {
        String percent = Double.isNaN(d.percent()) ? "" : String.format(Locale.ROOT, "%+.1f %%, ", d.percent());
        String noise = switch (d.noise()) {
            case "beyond" -> "beyond the noise";
            case "within" -> "within the noise";
            default -> "no interval: one fork a side";
        };
        return d.metric() + " " + Numbers.figure(d.base()) + " → " + Numbers.figure(d.now()) + " (" + percent + noise + ")";
    }

    private long count(Result result) {
        return testCases.stream().filter(c -> c.result() == result).count();
    }

    /** The XML, every text escaped by the JDK's StAX writer. */
    public String xml() {
        StringWriter text = new StringWriter();
        try {
            XMLStreamWriter xml = XMLOutputFactory.newFactory().createXMLStreamWriter(text);
            xml.writeStartDocument("UTF-8", "1.0");
            xml.writeCharacters("\n");
            xml.writeStartElement("testsuite");
            xml.writeAttribute("name", SUITE_NAME);
            xml.writeAttribute("tests", Integer.toString(testCases.size()));
            xml.writeAttribute("failures", Long.toString(count(Result.FAILED)));
            xml.writeAttribute("errors", "0");
            xml.writeAttribute("skipped", Long.toString(count(Result.SKIPPED)));
            xml.writeCharacters("\n  ");
            xml.writeStartElement("properties");
            for (var property : properties.entrySet()) {
                xml.writeCharacters("\n    ");
                xml.writeEmptyElement("property");
                xml.writeAttribute("name", property.getKey());
                xml.writeAttribute("value", legal(property.getValue()));
            }
            xml.writeCharacters("\n  ");
            xml.writeEndElement();
            for (TestCase testCase : testCases) {
                writeTestCase(xml, testCase);
            }
            if (!warnings.isEmpty()) {
                xml.writeCharacters("\n  ");
                xml.writeStartElement("system-out");
                xml.writeCharacters(legal(String.join("\n", warnings)));
                xml.writeEndElement();
            }
            xml.writeCharacters("\n");
            xml.writeEndElement();
            xml.writeCharacters("\n");
            xml.writeEndDocument();
            xml.close();
        } catch (XMLStreamException e) {
            throw new IllegalStateException("JUnit XML to a string", e);
        }
        return text.toString();
    }

    private static void writeTestCase(XMLStreamWriter xml, TestCase testCase) throws XMLStreamException {
        xml.writeCharacters("\n  ");
        xml.writeStartElement("testcase");
        xml.writeAttribute("classname", legal(testCase.classname()));
        xml.writeAttribute("name", legal(testCase.name()));
        if (testCase.result() != Result.PASSED) {
            xml.writeCharacters("\n    ");
            xml.writeStartElement(testCase.result() == Result.FAILED ? "failure" : "skipped");
            xml.writeAttribute("message", legal(testCase.message()));
            if (testCase.result() == Result.FAILED) {
                xml.writeCharacters(legal(testCase.message()));
            }
            xml.writeEndElement();
        }
        if (!testCase.out().isEmpty()) {
            xml.writeCharacters("\n    ");
            xml.writeStartElement("system-out");
            xml.writeCharacters(legal(testCase.out()));
            xml.writeEndElement();
        }
        xml.writeCharacters("\n  ");
        xml.writeEndElement();
    }

    /**
     * The text with each character XML 1.0 cannot hold (control characters but tab and line breaks, lone
     * surrogates) as U+FFFD: StAX escapes markup but writes such characters as they are, and a reader then refuses
     * the whole file. A row's note is a process's own words, whatever they hold.
     */
    private static String legal(String text) {
        StringBuilder legal = new StringBuilder(text.length());
        text.codePoints().forEach(c -> legal.appendCodePoint(c == '\t' || c == '\n' || c == '\r'
                || (c >= 0x20 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) || c >= 0x10000 ? c : 0xFFFD));
        return legal.toString();
    }

    /** Writes the XML to {@code file}; a file that cannot be written is a {@link UserError}, one line. */
    public void write(Path file) {
        try {
            Files.writeString(file, xml(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UserError("--junit: cannot write " + file + ": " + reason(e));
        }
    }

    /** Why a file could not be written, without the path the exception's message repeats. */
    private static String reason(IOException e) {
        if (e instanceof FileSystemException failed && failed.getReason() != null) {
            return failed.getReason();
        }
        return switch (e) {
            case NoSuchFileException missing -> "no such directory";
            case AccessDeniedException denied -> "permission denied";
            default -> e.getMessage();
        };
    }
}
