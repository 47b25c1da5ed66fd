package dev.gauntlet.loadgen;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Base64;
import java.util.List;
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
 * boolean found = ShardArchive.extract(podLog, localDir);   // in the runner
 * }</pre>
 */
public final class ShardArchive {
    static final String BEGIN = "-----BEGIN GAUNTLET SHARD RESULTS-----";
    static final String END = "-----END GAUNTLET SHARD RESULTS-----";
    private static final int LINE = 76;

    private ShardArchive() {
    }

    /** Prints every regular file directly under {@code dir}, except {@code skip}, as one archive. */
    static void print(Path dir, String skip, PrintStream out) throws IOException {
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
     * Writes the files of the archive in {@code log} into {@code dir}; false when the log holds
     * no whole archive (the shard did not get that far).
     */
    public static boolean extract(List<String> log, Path dir) {
        int begin = log.indexOf(BEGIN);
        int end = log.lastIndexOf(END);
        if (begin < 0 || end < begin) {
            return false;
        }
        byte[] zipped = Base64.getDecoder().decode(String.join("", log.subList(begin + 1, end)));
        try (ZipInputStream zip = new ZipInputStream(new ByteArrayInputStream(zipped))) {
            Files.createDirectories(dir);
            for (ZipEntry entry = zip.getNextEntry(); entry != null; entry = zip.getNextEntry()) {
                // Names are the shard's own flat file names; anything else is not an archive of ours.
                Path file = dir.resolve(entry.getName()).normalize();
                if (!file.getParent().equals(dir.normalize())) {
                    throw new IOException("unexpected entry " + entry.getName());
                }
                Files.copy(zip, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return true;
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
