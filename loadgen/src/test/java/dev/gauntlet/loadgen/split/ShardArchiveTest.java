package dev.gauntlet.loadgen.split;

import dev.gauntlet.api.RunDirectory;
import dev.gauntlet.api.RunDirectory.HistogramLog;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
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
    void theFilesGoThroughTheLogWholeWithoutTheSkippedOne() throws Exception {
        List<String> log = new ArrayList<>(List.of("gauntlet shard 0 of 2: said before"));
        log.addAll(printed());

        ShardArchive.extract(log, copy);

        assertThat(new RunDirectory(copy).summary()).hasSameBinaryContentAs(new RunDirectory(shardDir).summary());
        assertThat(new RunDirectory(copy).log(HistogramLog.RESPONSE)).hasSameBinaryContentAs(new RunDirectory(shardDir).log(HistogramLog.RESPONSE));
        assertThat(copy.resolve(".ready")).doesNotExist();
        assertThat(ShardArchive.withoutArchive(log)).containsExactly("gauntlet shard 0 of 2: said before");
    }

    @Test
    void aLogWithoutTheArchiveSaysSo() throws Exception {
        assertUnreadable(List.of("gauntlet shard 0 of 2: ready"), "no results marker in its log");
    }

    @Test
    void anArchiveWithoutItsEndIsTruncated() throws Exception {
        List<String> log = printed();
        assertUnreadable(log.subList(0, log.size() / 2), "truncated, no end marker");
    }

    @Test
    void anArchiveWithoutItsBeginningIsCutAtTheStart() throws Exception {
        List<String> log = printed();
        assertUnreadable(log.subList(log.size() / 2, log.size()), "cut at the start, no begin marker");
    }

    @Test
    void aCharacterOutsideBase64IsBadBase64() throws Exception {
        List<String> log = new ArrayList<>(printed());
        log.set(1, "*" + log.get(1).substring(1));
        assertUnreadable(log, "bad base64 (Illegal base64 character 2a)");
    }

    @Test
    void aLineLostFromTheMiddleIsABadArchive() throws Exception {
        List<String> log = new ArrayList<>(printed());
        log.remove(log.size() / 2);
        assertUnreadable(log, "bad archive");
    }

    @Test
    void anArchiveCutAtAnEntrysEndIsABadArchive() throws Exception {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        ZipOutputStream zip = new ZipOutputStream(zipped);
        zip.putNextEntry(new ZipEntry("errors.csv"));
        zip.write("t,errors\n".getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
        zip.flush();
        // Not closed: no central directory, as if the log ended after the first entry's bytes.
        String encoded = Base64.getEncoder().encodeToString(zipped.toByteArray());

        assertUnreadable(List.of(ShardArchive.BEGIN, encoded, ShardArchive.END), "bad archive, cut short");
    }

    private List<String> printed() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ShardArchive.print(shardDir, ".ready", new PrintStream(out, true, StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private void assertUnreadable(List<String> log, String reason) {
        assertThatThrownBy(() -> ShardArchive.extract(log, copy)).isInstanceOf(ShardArchive.Unreadable.class)
                .hasMessageStartingWith(reason);
        assertThat(copy).as("a broken archive writes nothing").doesNotExist();
    }
}
