package dev.gauntlet.api;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AdminTokenTest {
    @TempDir
    Path home;

    @Test
    void aFreshTokenIs128RandomBitsInHex() {
        String token = AdminToken.fresh();

        assertThat(token).matches("[0-9a-f]{32}");
        assertThat(AdminToken.fresh()).isNotEqualTo(token);
        assertThat(AdminToken.bearer(token)).isEqualTo("Bearer " + token);
    }

    @Test
    void theUsersFileIsCreatedForItsOwnerOnlyAndKeepsItsToken() throws IOException {
        Path file = home.resolve(".gauntlet").resolve("admin-token");

        String token = AdminToken.readOrCreate(file);

        assertThat(token).matches("[0-9a-f]{32}");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent()))).isEqualTo("rwx------");
        assertThat(AdminToken.readOrCreate(file)).as("read again, not replaced").isEqualTo(token);
        try (var left = Files.list(file.getParent())) {
            assertThat(left).as("no temporary file left").containsExactly(file);
        }
    }

    @Test
    void aFileOthersMayReadIsRefused() throws IOException {
        Path file = Files.writeString(home.resolve("admin-token"), "0123456789abcdef0123456789abcdef\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r--r--"));

        assertThatThrownBy(() -> AdminToken.readOrCreate(file)).isInstanceOf(IOException.class)
                .hasMessage(file + " may be read by other users; chmod 600 it");
    }

    @Test
    void anEmptyFileIsRefused() throws IOException {
        Path file = Files.writeString(home.resolve("admin-token"), "\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));

        assertThatThrownBy(() -> AdminToken.readOrCreate(file)).isInstanceOf(IOException.class)
                .hasMessageContaining("is empty");
    }
}
