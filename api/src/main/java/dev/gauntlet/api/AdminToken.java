package dev.gauntlet.api;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Optional;
import java.util.Set;

/**
 * The secret that lets a client reset a target's counts ({@code POST /stats/reset} on its admin
 * port); reading them needs none. It travels in the environment ({@value #VARIABLE}), never on a
 * command line, where {@code ps} shows it to every user, and never in a spec or a summary, since
 * results directories get shared.
 *
 * <pre>{@code
 * String token = AdminToken.fresh();                         // the runner: one per run
 * builder.environment().put(AdminToken.VARIABLE, token);     // the target's and the generator's ProcessBuilder
 * connection.setRequestProperty(AdminProtocol.TOKEN_HEADER, AdminToken.bearer(token));
 * }</pre>
 *
 * A target started by hand ({@code ./gauntlet target}) and {@code ./gauntlet load --admin} both
 * take {@code $GAUNTLET_ADMIN_TOKEN} when it is set, else the user's own token file
 * ({@link #userFile()}, created readable by its owner only): whoever started the target can reset
 * it from another terminal without copying a secret around, and other users on the host cannot.
 */
public final class AdminToken {
    public static final String VARIABLE = "GAUNTLET_ADMIN_TOKEN";
    /** 128 bits: out of reach of guessing over a network port. */
    private static final int BYTES = 16;
    private static final SecureRandom RANDOM = new SecureRandom();
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private AdminToken() {
    }

    /** A new random token, 32 hex digits. */
    public static String fresh() {
        byte[] bytes = new byte[BYTES];
        RANDOM.nextBytes(bytes);
        return HexFormat.of().formatHex(bytes);
    }

    /** The {@code Authorization} header's value that carries {@code token}. */
    public static String bearer(String token) {
        return "Bearer " + token;
    }

    /** {@code ~/.gauntlet/admin-token}: the token of the targets a user starts by hand. */
    public static Path userFile() {
        return Path.of(System.getProperty("user.home"), ".gauntlet", "admin-token");
    }

    /** {@code $GAUNTLET_ADMIN_TOKEN}, when it is set and not empty. */
    public static Optional<String> fromEnvironment() {
        return Optional.ofNullable(System.getenv(VARIABLE)).filter(token -> !token.isEmpty());
    }

    /**
     * The token a client shows: {@code $GAUNTLET_ADMIN_TOKEN}, else the user's token file's; null
     * when neither is there or the file cannot be read (the target then refuses the reset, and the
     * generator says so).
     */
    public static String forClient() {
        return fromEnvironment().orElseGet(() -> {
            try {
                return Files.readString(userFile(), StandardCharsets.US_ASCII).strip();
            } catch (IOException e) {
                return null;
            }
        });
    }

    /**
     * The token in {@code file}, which is created (its directory too) readable by its owner only
     * with a fresh token when it does not exist: that of the targets a user starts by hand. A file others may read is refused, as ssh refuses
     * a readable private key: its token is no secret.
     */
    public static String readOrCreate(Path file) throws IOException {
        if (!Files.exists(file)) {
            Files.createDirectories(file.getParent(), PosixFilePermissions.asFileAttribute(
                    PosixFilePermissions.fromString("rwx------")));
            Path written = Files.createTempFile(file.getParent(), "admin-token", ".tmp",
                    PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            try {
                Files.writeString(written, fresh() + "\n", StandardCharsets.US_ASCII);
                // A link, not a move: of two first starts at once, one creates the file and the other reads it.
                Files.createLink(file, written);
            } catch (FileAlreadyExistsException e) {
                // The other start won; its token is the one.
            } finally {
                Files.delete(written);
            }
        }
        if (!OWNER_ONLY.containsAll(Files.getPosixFilePermissions(file))) {
            throw new IOException(file + " may be read by other users; chmod 600 it");
        }
        String token = Files.readString(file, StandardCharsets.US_ASCII).strip();
        if (token.isEmpty()) {
            throw new IOException(file + " is empty; delete it and a new token is made");
        }
        return token;
    }
}
