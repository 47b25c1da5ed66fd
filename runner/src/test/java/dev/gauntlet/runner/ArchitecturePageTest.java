package dev.gauntlet.runner;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * docs/architecture.md names classes and paths that the code must still have: each class it names in backticks
 * ({@code `Generator`}, {@code `LoadDriver.of`}, {@code `Engine#PENDING_PER_PROCESS`}) has a source file of that name
 * under some module's {@code src/main/java}, declaring the member named (a use such as {@code Engine.PENDING_PER_PROCESS}
 * in another class's file does not count); each repository path it names in backticks
 * ({@code `docs/targets.md`}, {@code `.ci/run`}) exists; and the page stays within {@value #MAX_LINES} lines, to be
 * read at one sitting. A package move that leaves the page behind fails the build.
 */
class ArchitecturePageTest {
    private static final int MAX_LINES = 300;
    /** Tests run in the runner's directory; the repository is its parent. */
    private static final Path ROOT = Path.of("").toAbsolutePath().getParent();

    @Test
    void everyClassAndPathThePageNamesExists() throws IOException {
        String page = Files.readString(ROOT.resolve("docs/architecture.md"));

        assertThat(PageNames.problems(page, ROOT)).isEmpty();
        assertThat(PageNames.classesNamed(page)).as("the page names classes").hasSizeGreaterThan(50);
    }

    @Test
    void thePageIsShortEnoughToReadAtOneSitting() throws IOException {
        String page = Files.readString(ROOT.resolve("docs/architecture.md"));

        assertThat(PageNames.tooLong(page, MAX_LINES)).isEmpty();
    }

    @Test
    void aMissingClassMemberOrPathIsReported() {
        String page = """
                # A page

                `GeneratorMain` runs `Generator.runWarmed` and `LoadDriver#of` over `NoSuchEngine`, with
                `Engine.PENDING_PER_PROCESS` (not `EngineThreads.PENDING_PER_PROCESS`, which only uses it) and
                `LoadModel.OpenLoop`; `Generator.noSuchMethod` is gone. Read `docs/targets.md`, not `docs/no-such-page.md`.
                A `load --rate 10` flag, `READY port=P`, `summary.json` and `runs/<target>/target.log` are not names.
                """;

        assertThat(PageNames.problems(page, ROOT)).containsExactly(
                "`NoSuchEngine`: no NoSuchEngine.java under any module's src/main/java",
                "`EngineThreads.PENDING_PER_PROCESS`: EngineThreads.java declares no PENDING_PER_PROCESS",
                "`Generator.noSuchMethod`: Generator.java declares no noSuchMethod",
                "`docs/no-such-page.md`: no such path in the repository");
    }

    @Test
    void aPageOverTheLimitIsReported() {
        assertThat(PageNames.tooLong("line\n".repeat(MAX_LINES), MAX_LINES)).isEmpty();
        assertThat(PageNames.tooLong("line\n".repeat(MAX_LINES + 1), MAX_LINES))
                .contains("301 lines, more than 300");
    }

    /** What a page names in backticks, checked against a repository's sources and files. */
    static final class PageNames {
        private static final Pattern CODE_SPAN = Pattern.compile("`([^`\\n]+)`");
        /** An UpperCamelCase class (a lowercase letter in it, so not `GET` or `READY`), then members by '.' or '#'. */
        private static final Pattern CLASS = Pattern.compile(
                "([A-Z][A-Za-z0-9]*[a-z][A-Za-z0-9]*)((?:[.#][A-Za-z_][A-Za-z0-9_]*)*)(?:\\(\\))?");
        /** A relative repository path: a slash, nothing a placeholder or an absolute or shell path has. */
        private static final Pattern PATH = Pattern.compile("(?!/)[A-Za-z0-9._-]*(?:/[A-Za-z0-9._-]+)+/?");
        /** Words that may stand before a name that is called, not declared. */
        private static final Set<String> KEYWORDS = Set.of("return", "new", "throw", "else", "case", "yield", "assert");
        private static final Set<String> SKIPPED_DIRECTORIES = Set.of(".git", "target", "node_modules", ".gauntlet-build");

        private PageNames() {
        }

        /** Each class, member or path {@code page} names in backticks that {@code root} does not have; one line each. */
        static List<String> problems(String page, Path root) {
            Map<String, List<Path>> sources = mainSources(root);
            List<String> problems = new ArrayList<>();
            Matcher span = CODE_SPAN.matcher(page);
            while (span.find()) {
                String token = span.group(1).strip();
                Matcher name = CLASS.matcher(token);
                if (name.matches()) {
                    problems.addAll(classProblems(token, name.group(1), name.group(2), sources));
                } else if (PATH.matcher(token).matches() && !Files.exists(root.resolve(token))) {
                    problems.add("`" + token + "`: no such path in the repository");
                }
            }
            return problems;
        }

        /** The classes {@code page} names in backticks. */
        static List<String> classesNamed(String page) {
            List<String> names = new ArrayList<>();
            Matcher span = CODE_SPAN.matcher(page);
            while (span.find()) {
                Matcher name = CLASS.matcher(span.group(1).strip());
                if (name.matches()) {
                    names.add(name.group(1));
                }
            }
            return names;
        }

        /** A line saying {@code page} is over {@code maxLines}, or nothing. */
        static List<String> tooLong(String page, int maxLines) {
            long lines = page.lines().count();
            return lines > maxLines ? List.of(lines + " lines, more than " + maxLines) : List.of();
        }

        private static List<String> classProblems(String token, String className, String members,
                                                  Map<String, List<Path>> sources) {
            List<Path> files = sources.get(className);
            if (files == null) {
                return List.of("`" + token + "`: no " + className + ".java under any module's src/main/java");
            }
            List<String> problems = new ArrayList<>();
            for (String member : members.isEmpty() ? new String[0] : members.substring(1).split("[.#]")) {
                if (files.stream().noneMatch(file -> declares(read(file), member))) {
                    problems.add("`" + token + "`: " + className + ".java declares no " + member);
                }
            }
            return problems;
        }

        /**
         * Whether {@code source} declares {@code member}: a nested type, a method, field or record component after its
         * type ({@code long takeDue(}, {@code int PENDING_PER_PROCESS =}), or an enum constant; not a use of another
         * class's member ({@code Engine.PENDING_PER_PROCESS}) nor a call after a keyword ({@code return of(}).
         */
        static boolean declares(String source, String member) {
            String name = Pattern.quote(member);
            if (Pattern.compile("\\b(?:class|record|interface|enum)\\s+" + name + "\\b").matcher(source).find()
                    || Pattern.compile("(?m)^\\s*" + name + "\\s*(?:[,;(]|$)").matcher(source).find()
                    || Pattern.compile("[{,]\\s*" + name + "\\s*[,;}]").matcher(source).find()) {
                return true;
            }
            Matcher typed = Pattern.compile("([\\w>\\]]+)\\s+" + name + "\\s*[(=;,)]").matcher(source);
            while (typed.find()) {
                if (!KEYWORDS.contains(typed.group(1))) {
                    return true;
                }
            }
            return false;
        }

        /** Every main source file of every module, by class name (one name may be in several modules). */
        private static Map<String, List<Path>> mainSources(Path root) {
            Map<String, List<Path>> sources = new HashMap<>();
            try {
                Files.walkFileTree(root, new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                        return SKIPPED_DIRECTORIES.contains(String.valueOf(dir.getFileName()))
                                ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                        String name = file.getFileName().toString();
                        if (name.endsWith(".java") && root.relativize(file).toString().replace('\\', '/').contains("/src/main/java/")) {
                            sources.computeIfAbsent(name.substring(0, name.length() - ".java".length()), k -> new ArrayList<>())
                                    .add(file);
                        }
                        return FileVisitResult.CONTINUE;
                    }
                });
            } catch (IOException e) {
                throw new UncheckedIOException("cannot list the sources under " + root, e);
            }
            return sources;
        }

        private static String read(Path file) {
            try {
                return Files.readString(file);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + file, e);
            }
        }
    }
}
