package dev.gauntlet.runner;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.EvaluationResult;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import dev.gauntlet.api.LoadModel;
import dev.gauntlet.loadgen.model.LoadDriver;
import dev.gauntlet.loadgen.run.Generator;
import dev.gauntlet.runner.execution.SuiteRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shape docs/architecture.md promises, on loadgen's and the runner's own classes: the packages of each form no
 * cycle (every arrow points down), no source file is over {@value #MAX_LINES} lines, and only {@link LoadDriver#of}
 * tests a load model's type (what differs between models is a method of {@link LoadModel}, so a fourth model is a
 * record and a driver). Each rule is first shown to fail on code written to break it.
 */
class ArchitectureTest {
    private static final int MAX_LINES = 450;
    private static final List<String> MODULES = List.of("dev.gauntlet.loadgen", "dev.gauntlet.runner");
    private static final String FIXTURE = "dev.gauntlet.runner.architecturefixture";
    /** A pattern switch on a model's record, which compiles to no instanceof the class files would show. */
    private static final Pattern MODEL_CASE = Pattern.compile("case\\s+(LoadModel\\.)?(OpenLoop|ClosedLoop|MaxConcurrency)\\s+\\w+");
    /** The product's classes, read once: reading them is most of the test's time. */
    private static final JavaClasses PRODUCT = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS).importPackages(MODULES);

    @Test
    void packagesOfEachModuleFormNoCycle() {
        assertThat(PRODUCT.contain(Generator.class) && PRODUCT.contain(SuiteRunner.class)).as("both modules read").isTrue();
        EvaluationResult result = noCycleIn(MODULES).evaluate(PRODUCT);
        assertThat(result.hasViolation()).as(result.getFailureReport().toString()).isFalse();
    }

    @Test
    void aPackageCycleIsFound() {
        EvaluationResult result = noCycleIn(List.of(FIXTURE)).evaluate(fixture());
        assertThat(result.hasViolation()).isTrue();
        assertThat(result.getFailureReport().toString()).contains("Cycle detected", "up", "down");
    }

    @Test
    void onlyLoadDriverTestsALoadModelsType() throws IOException {
        EvaluationResult result = noModelTypeTest().evaluate(PRODUCT);
        assertThat(result.hasViolation()).as(result.getFailureReport().toString()).isFalse();
        assertThat(sourceFiles().filter(file -> !file.endsWith("LoadDriver.java"))
                .filter(file -> MODEL_CASE.matcher(read(file)).find()).map(Path::toString))
                .as("pattern switches on a model's record").isEmpty();
    }

    @Test
    void aModelTypeTestIsFound() {
        EvaluationResult result = noModelTypeTest().evaluate(fixture());
        assertThat(result.getFailureReport().toString()).contains("TestsAModelsType", "OpenLoop");
        assertThat(MODEL_CASE.matcher("case LoadModel.OpenLoop open -> open.ratePerSec();").find()).isTrue();
    }

    @Test
    void noSourceFileIsOverTheLimit() throws IOException {
        assertThat(overLimit(sourceFiles())).isEmpty();
    }

    @Test
    void aFileOverTheLimitIsFound(@TempDir Path dir) throws IOException {
        Path longFile = Files.writeString(dir.resolve("Long.java"), "//\n".repeat(MAX_LINES + 1));
        Files.writeString(dir.resolve("Short.java"), "//\n".repeat(MAX_LINES));

        assertThat(overLimit(Stream.of(longFile, dir.resolve("Short.java")))).containsExactly(longFile + ": 451 lines");
    }

    /** Slices by the package below each module's root (the root its own slice); a cycle among them fails. */
    private static ArchRule noCycleIn(List<String> modules) {
        SliceAssignment byPackage = new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                String name = javaClass.getPackageName();
                for (String module : modules) {
                    if (name.equals(module)) {
                        return SliceIdentifier.of(module, "(root)");
                    }
                    if (name.startsWith(module + ".")) {
                        return SliceIdentifier.of(module, name.substring(module.length() + 1).split("\\.")[0]);
                    }
                }
                return SliceIdentifier.ignore();
            }

            @Override
            public String getDescription() {
                return "the packages of " + modules;
            }
        };
        return slices().assignedFrom(byPackage).should().beFreeOfCycles();
    }

    private static ArchRule noModelTypeTest() {
        ArchCondition<JavaClass> testNoModelType = new ArchCondition<>("test no load model's type") {
            @Override
            public void check(JavaClass javaClass, ConditionEvents events) {
                javaClass.getCodeUnits().stream().flatMap(unit -> unit.getInstanceofChecks().stream())
                        .filter(check -> check.getRawType().isAssignableTo(LoadModel.class)
                                && !check.getRawType().isEquivalentTo(LoadModel.class))
                        .forEach(check -> events.add(SimpleConditionEvent.violated(check, javaClass.getName() + " tests whether a model is "
                                + check.getRawType().getName() + " " + check.getSourceCodeLocation())));
            }
        };
        return classes().that().doNotBelongToAnyOf(LoadDriver.class).should(testNoModelType);
    }

    private static List<String> overLimit(Stream<Path> files) {
        List<String> over = new ArrayList<>();
        files.forEach(file -> {
            long lines = read(file).lines().count();
            if (lines > MAX_LINES) {
                over.add(file + ": " + lines + " lines");
            }
        });
        return over;
    }

    private static JavaClasses fixture() {
        return new ClassFileImporter().importPackages(FIXTURE);
    }

    /** The main sources of loadgen and the runner; the tests run in the runner's directory. */
    private static Stream<Path> sourceFiles() throws IOException {
        Path root = Path.of("").toAbsolutePath().getParent();
        List<Path> files = new ArrayList<>();
        for (String module : List.of("loadgen", "runner")) {
            try (Stream<Path> walk = Files.walk(root.resolve(module).resolve("src/main/java"))) {
                walk.filter(file -> file.toString().endsWith(".java")).forEach(files::add);
            }
        }
        return files.stream();
    }

    private static String read(Path file) {
        try {
            return Files.readString(file);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
    }
}
