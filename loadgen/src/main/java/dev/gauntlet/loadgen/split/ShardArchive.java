package dev.gauntlet.loadgen.split;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * A shard's result files as one zip, the body its {@link ResultsServer} answers with and the runner
 * unpacks: the regular files directly under the shard's output directory.
 *
 * <pre>{@code
 * ShardArchive.write(outputDir, ".ready", response);       // in the shard
 * ShardArchive.extract(body, localDir);                    // in the runner; throws Unreadable
 * }</pre>
 */
public final class ShardArchive {
    private static final int END_RECORD_BYTES = 22;
    private static final int END_RECORD_SIGNATURE = 0x06054b50;
    /** Where in the end record the count of the archive's entries is. */
    private static final int END_RECORD_ENTRIES = 10;

    private ShardArchive() {
    }

    /** Writes every regular file directly under {@code dir}, except {@code skip}, to {@code out} as one zip. */
    public static void write(Path dir, String skip, OutputStream out) throws IOException {
        try (ZipOutputStream zip = new ZipOutputStream(out); var files = Files.list(dir)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                if (file.getFileName().toString().equals(skip)) {
                    continue;
                }
                zip.putNextEntry(new ZipEntry(file.getFileName().toString()));
                Files.copy(file, zip);
                zip.closeEntry();
            }
        }
    }

    /**
     * Writes the files of the zip {@code zipped} into {@code dir}, once all of them have been read
     * whole: a broken archive writes nothing.
     *
     * @throws Unreadable  when {@code zipped} is no whole archive of a shard's; its message says what is wrong
     * @throws IOException when {@code dir} cannot be written
     */
    public static void extract(byte[] zipped, Path dir) throws Unreadable, IOException {
        Map<String, byte[]> files = read(zipped);
        Files.createDirectories(dir);
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Files.write(dir.resolve(file.getKey()), file.getValue());
        }
    }

    private static Map<String, byte[]> read(byte[] zipped) throws Unreadable {
        Map<String, byte[]> files = new TreeMap<>();
        try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(zipped))) {
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                // Names are the shard's own flat file names; anything else is not an archive of ours.
                if (!entry.getName().matches("[\\w.-]+") || entry.getName().startsWith(".")) {
                    throw new Unreadable("bad archive, unexpected entry " + entry.getName());
                }
                files.put(entry.getName(), zip.readAllBytes());
            }
        } catch (IOException | IllegalArgumentException e) {
            // IllegalArgumentException: an entry's name that is not UTF-8.
            throw new Unreadable("bad archive (" + e.getMessage() + ")");
        }
        // ZipInputStream takes a cut at an entry's boundary for the end; the archive's last record, the
        // central directory's end, says how many entries it holds (ZipOutputStream writes no comment after it).
        ByteBuffer bytes = ByteBuffer.wrap(zipped).order(ByteOrder.LITTLE_ENDIAN);
        int endRecord = zipped.length - END_RECORD_BYTES;
        if (endRecord < 0 || bytes.getInt(endRecord) != END_RECORD_SIGNATURE
                || Short.toUnsignedInt(bytes.getShort(endRecord + END_RECORD_ENTRIES)) != files.size()) {
            throw new Unreadable("bad archive, cut short (no end of its central directory)");
        }
        return files;
    }

    /** Bytes that are no whole archive; the message says what is wrong in a few words ("bad archive, cut short"). */
    public static final class Unreadable extends Exception {
        Unreadable(String message) {
            super(message, null, false, false);
        }
    }
}
