package dev.gauntlet.runner.report;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The CSV downloads of a page as drawn ({@code data:} links), each parsed as RFC 4180 has it: quoted fields may hold
 * commas, quotes doubled and line breaks.
 *
 * <pre>{@code
 * Map<String, CsvDownloads.Csv> csvs = CsvDownloads.of(page.dom());
 * csvs.get("rates-open.csv").column("achieved /s");
 * }</pre>
 */
final class CsvDownloads {
    private static final Pattern LINK = Pattern.compile("<a href=\"data:text/csv;charset=utf-8,([^\"]*)\" download=\"([^\"]+)\">");

    /** A download's lines: its header and its rows, each of as many fields as the header or not. */
    record Csv(String name, List<String> header, List<List<String>> rows) {
        /** The column named {@code name}, a field of each row. */
        List<String> column(String name) {
            int index = header.indexOf(name);
            if (index < 0) {
                throw new AssertionError(this.name + " has no column '" + name + "': " + header);
            }
            return rows.stream().map(row -> row.get(index)).toList();
        }

        /** The field of {@code column} in the row whose first field is {@code first}. */
        String field(String first, String column) {
            int index = header.indexOf(column);
            return rows.stream().filter(row -> row.getFirst().equals(first)).findFirst()
                    .orElseThrow(() -> new AssertionError(name + " has no row '" + first + "': " + rows)).get(index);
        }
    }

    private CsvDownloads() {
    }

    /** Every CSV link of {@code dom} by its file name. */
    static Map<String, Csv> of(String dom) {
        Map<String, Csv> csvs = new LinkedHashMap<>();
        Matcher link = LINK.matcher(dom);
        while (link.find()) {
            String name = link.group(2).replace("&amp;", "&");
            List<List<String>> lines = parse(URLDecoder.decode(link.group(1).replace("&amp;", "&"), StandardCharsets.UTF_8));
            csvs.put(name, new Csv(name, lines.getFirst(), lines.subList(1, lines.size())));
        }
        return csvs;
    }

    static List<List<String>> parse(String csv) {
        List<List<String>> lines = new ArrayList<>();
        List<String> fields = new ArrayList<>();
        StringBuilder field = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < csv.length(); i++) {
            char c = csv.charAt(i);
            if (quoted) {
                if (c == '"' && i + 1 < csv.length() && csv.charAt(i + 1) == '"') {
                    field.append('"');
                    i++;
                } else if (c == '"') {
                    quoted = false;
                } else {
                    field.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                fields.add(field.toString());
                field.setLength(0);
            } else if (c == '\n') {
                fields.add(field.toString());
                field.setLength(0);
                lines.add(fields);
                fields = new ArrayList<>();
            } else {
                field.append(c);
            }
        }
        if (!field.isEmpty() || !fields.isEmpty()) {
            fields.add(field.toString());
            lines.add(fields);
        }
        return lines;
    }
}
