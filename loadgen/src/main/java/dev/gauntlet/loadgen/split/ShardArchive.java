package dev.gauntlet.loadgen.split;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipInputStream;
import java.util.zip.ZipOutputStream;

/**
 * A shard's result files carried in its own output, so that the runner can read them back from
 * the pod's log once the pod has ended (a finished pod can no longer be copied from; its log can):
 * the directory's files zipped, in base64 lines between two marker lines.
 *
 * <pre>{@code
 * ShardArchive.print(outputDir, System.out);               // in the shard, last
 * ShardArchive.extract(podLog, localDir);                  // in the runner; throws Unreadable
 * }</pre>
 */
public final class ShardArchive {
    static final String BEGIN = "-----BEGIN GAUNTLET SHARD RESULTS-----";
    static final String END = "-----END GAUNTLET SHARD RESULTS-----";
    private static final int LINE = 76;
    private static final int END_RECORD_BYTES = 22;
    private static final int END_RECORD_SIGNATURE = 0x06054b50;
    /** Where in the end record the count of the archive's entries is. */
    private static final int END_RECORD_ENTRIES = 10;

    private ShardArchive() {
    }

    /** Prints every regular file directly under {@code dir}, except {@code skip}, as one archive. */
    public static void print(Path dir, String skip, PrintStream out) throws IOException {
        ByteArrayOutputStream zipped = new ByteArrayOutputStream();
        try (ZipOutputStream zip = new ZipOutputStream(zipped); var files = Files.list(dir)) {
            for (Path file : files.filter(Files::isRegularFile).sorted().toList()) {
                if (file.getFileName().toString().equals(skip)) {
                    continue;
                }
                zip.putNextEntry(new ZipEntry(file.getFileName().toString()));
                Files.copy(file, zip);
                zip.closeEntry();
            }
        }
        String encoded = Base64.getEncoder().encodeToString(zipped.toByteArray());
        StringBuilder text = new StringBuilder(encoded.length() + encoded.length() / LINE + 100).append(BEGIN).append('\n');
        for (int i = 0; i < encoded.length(); i += LINE) {
            text.append(encoded, i, Math.min(encoded.length(), i + LINE)).append('\n');
        }
        out.print(text.append(END).append('\n'));
        out.flush();
    }

    /**
     * Writes the files of the archive in {@code log} into {@code dir}, once all of them have been
     * read whole: a broken archive writes nothing.
     *
     * @throws Unreadable  when the log holds no whole archive; its message says what is wrong
     * @throws IOException when {@code dir} cannot be written
     */
    public static void extract(List<String> log, Path dir) throws Unreadable, IOException {
        Map<String, byte[]> files = read(log);
        Files.createDirectories(dir);
        for (Map.Entry<String, byte[]> file : files.entrySet()) {
            Files.write(dir.resolve(file.getKey()), file.getValue());
        }
    }

    private static Map<String, byte[]> read(List<String> log) throws Unreadable {
        int begin = log.indexOf(BEGIN);
        int end = log.lastIndexOf(END);
        if (begin < 0 && end < 0) {
            throw new Unreadable("no results marker in its log");
        }
        if (begin < 0) {
            // kubectl logs serves a container's current log file only: a rotated log lost its head.
            throw new Unreadable("cut at the start, no begin marker (the node's log rotation, containerLogMaxSize, "
                    + "may have dropped it)");
        }
        if (end < begin) {
            throw new Unreadable("truncated, no end marker");
        }
        byte[] zipped;
        try {
            zipped = Base64.getDecoder().decode(String.join("", log.subList(begin + 1, end)));
        } catch (IllegalArgumentException e) {
            throw new Unreadable("bad base64 (" + e.getMessage() + ")");
        }
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

    /** A log that holds no whole archive; the message says what is wrong in a few words ("truncated, no end marker"). */
    public static final class Unreadable extends Exception {
        Unreadable(String message) {
            super(message, null, false, false);
        }
    }

    /** The log without the archive: what the shard said. */
    public static List<String> withoutArchive(List<String> log) {
        int begin = log.indexOf(BEGIN);
        int end = log.lastIndexOf(END);
        if (begin < 0 || end < begin) {
            return log;
        }
        return Stream.concat(log.subList(0, begin).stream(), log.subList(end + 1, log.size()).stream()).toList();
    }
}
