package dev.gauntlet.loadgen.split;

import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunDirectory.HistogramLog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShardArchiveTest {
    @TempDir
    Path dir;
    private Path shardDir;
    private Path copy;

    @BeforeEach
    void shardFiles() throws IOException {
        shardDir = Files.createDirectories(dir.resolve("shard"));
        copy = dir.resolve("copy");
        byte[] noise = new byte[20_000];
        new Random(7).nextBytes(noise);
        Files.write(new RunDirectory(shardDir).log(HistogramLog.RESPONSE), noise);
        Files.writeString(new RunDirectory(shardDir).summary(), "{\"completed\": 42}");
        Files.writeString(shardDir.resolve(".ready"), "1");
    }

    @Test
    void theFilesGoThroughTheZipWholeWithoutTheSkippedOne() throws Exception {
        ShardArchive.extract(zipped(), copy);

        assertThat(new RunDirectory(copy).summary()).hasSameBinaryContentAs(new RunDirectory(shardDir).summary());
        assertThat(new RunDirectory(copy).log(HistogramLog.RESPONSE)).hasSameBinaryContentAs(new RunDirectory(shardDir).log(HistogramLog.RESPONSE));
        assertThat(copy.resolve(".ready")).doesNotExist();
    }

    @Test
    void nothingIsNoArchive() throws Exception {
        assertUnreadable(new byte[0], "bad archive, cut short");
    }

    @Test
    void aZipCutInTheMiddleOfAnEntryIsABadArchive() throws Exception {
        byte[] whole = zipped();
        assertUnreadable(Arrays.copyOf(whole, whole.length / 2), "bad archive");
    }

    @Test
    void aCorruptEntryIsABadArchive() throws Exception {
        byte[] zip = zipped();
        // Inside the 20 KB of the first entry's stored-then-deflated noise: its CRC no longer matches.
        zip[5_000] ^= 0x55;
        assertUnreadable(zip, "bad archive (");
    }

    @Test
    void anArchiveCutAtAnEntrysEndIsABadArchive() throws Exception {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        ZipOutputStream zip = new ZipOutputStream(zipped);
        zip.putNextEntry(new ZipEntry("errors.csv"));
        zip.write("t,errors\n".getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
        zip.flush();
        // Not closed: no central directory, as if the transfer ended after the first entry's bytes.

        assertUnreadable(zipped.toByteArray(), "bad archive, cut short");
    }

    @Test
    void anEntryOutsideTheDirectoryIsRefused() throws Exception {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(zipped)) {
            zip.putNextEntry(new ZipEntry("../summary.json"));
            zip.closeEntry();
        }

        assertUnreadable(zipped.toByteArray(), "bad archive, unexpected entry ../summary.json");
    }

    private byte[] zipped() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ShardArchive.write(shardDir, ".ready", out);
        return out.toByteArray();
    }

    private void assertUnreadable(byte[] zipped, String reason) {
        assertThatThrownBy(() -> ShardArchive.extract(zipped, copy)).isInstanceOf(ShardArchive.Unreadable.class)
                .hasMessageStartingWith(reason);
        assertThat(copy).as("a broken archive writes nothing").doesNotExist();
    }
}
