package dev.gauntlet.runner.base;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The Gauntlet checkout the runner works from: where each process module's artifacts are, so the
 * runner can compose a separate classpath for every process it starts. The {@code gauntlet}
 * launcher passes the checkout as {@code -Dgauntlet.home}.
 */
public final class GauntletHome {
    static final String PROPERTY = "gauntlet.home";

    private final Path root;

    GauntletHome(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    public static GauntletHome fromSystemProperty() {
        String home = System.getProperty(PROPERTY);
        if (home == null || home.isBlank()) {
            throw new UserError("the Gauntlet checkout is unknown: start Gauntlet with ./gauntlet"
                    + " (or pass -D" + PROPERTY + "=DIR)");
        }
        return new GauntletHome(Path.of(home));
    }

    public Path root() {
        return root;
    }

    /**
     * The classpath of a process module: its own jar plus its runtime dependencies, as packaged by
     * the build into {@code <module>/target/} and {@code <module>/target/lib/} (absent for a module
     * with no dependencies of its own).
     */
    public String classpathOf(String module) {
        Path target = root.resolve(module).resolve("target");
        Path lib = target.resolve("lib");
        List<String> entries = new ArrayList<>();
        try (DirectoryStream<Path> jars = Files.newDirectoryStream(target, "gauntlet-*.jar")) {
            // A module's test-jar (gauntlet-loadgen-tests.jar) is the build's, never a process's.
            jars.forEach(jar -> {
                if (!jar.getFileName().toString().endsWith("-tests.jar")) {
                    entries.add(jar.toString());
                }
            });
        } catch (IOException e) {
            throw notBuilt(module);
        }
        if (entries.isEmpty()) {
            throw notBuilt(module);
        }
        if (Files.isDirectory(lib)) {
            entries.add(lib + "/*");
        }
        return String.join(java.io.File.pathSeparator, entries);
    }

    private UserError notBuilt(String module) {
        return new UserError(module + " is not built in " + root
                + ": run ./gauntlet (it builds what is missing) or ./mvnw package -DskipTests");
    }
}
