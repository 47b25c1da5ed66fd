package dev.gauntlet.loadgen.transport;

/**
 * Reads the {@code :status} of a response's header block (RFC 7541) and steps over every other field without decoding
 * it: the engine judges a response by its status and its body alone. It relies on the client's header table of 0
 * ({@link Http2Frames}): a field that refers to the dynamic table is an error, and a field the server adds to it is
 * dropped at once, as a table of 0 does. Huffman coding is decoded for the status's digits only, the one value read.
 */
final class HpackStatus {
    /** The block breaks HPACK, or refers to a dynamic table entry. */
    static final int MALFORMED = -1;
    /** The block has no {@code :status}: trailers. */
    static final int NONE = 0;

    /** The static table's statuses (RFC 7541, appendix A), indices 8 to 14. */
    private static final int[] STATIC_STATUSES = {200, 204, 206, 304, 400, 404, 500};
    private static final int FIRST_STATUS_INDEX = 8;
    private static final int LAST_STATUS_INDEX = 14;
    private static final int STATIC_ENTRIES = 61;

    private final byte[] block;
    private final int end;
    private int position;

    private HpackStatus(byte[] block, int offset, int length) {
        this.block = block;
        this.position = offset;
        this.end = offset + length;
    }

    /** The block's {@code :status}, {@link #NONE}, or {@link #MALFORMED}. */
    static int of(byte[] block, int offset, int length) {
        return new HpackStatus(block, offset, length).status();
    }

    private int status() {
        int status = NONE;
        while (position < end) {
            int first = block[position] & 0xff;
            int found;
            if ((first & 0x80) != 0) {
                found = indexed(integer(7));
            } else if ((first & 0xc0) == 0x40) {
                found = literal(6);
            } else if ((first & 0xe0) == 0x20) {
                // A table size update: only 0 fits the client's setting.
                found = integer(5) == 0 ? 0 : MALFORMED;
            } else {
                found = literal(4);
            }
            if (found == MALFORMED) {
                return MALFORMED;
            }
            if (found > 0) {
                status = found;
            }
        }
        return status;
    }

    /** An indexed field: its status when it is one, 0 for another static field. */
    private int indexed(int index) {
        if (index < 1 || index > STATIC_ENTRIES) {
            return MALFORMED;
        }
        return index >= FIRST_STATUS_INDEX && index <= LAST_STATUS_INDEX ? STATIC_STATUSES[index - FIRST_STATUS_INDEX] : 0;
    }

    /** A literal field, its name indexed (prefix bits) or literal: its status when it is {@code :status}, else 0. */
    private int literal(int prefixBits) {
        int nameIndex = integer(prefixBits);
        if (nameIndex == MALFORMED || nameIndex > STATIC_ENTRIES) {
            return MALFORMED;
        }
        boolean isStatus = nameIndex >= FIRST_STATUS_INDEX && nameIndex <= LAST_STATUS_INDEX;
        if (nameIndex == 0) {
            int nameStart = position;
            if (skipString() == MALFORMED) {
                return MALFORMED;
            }
            isStatus = isLiteralStatusName(nameStart);
        }
        if (!isStatus) {
            return skipString() == MALFORMED ? MALFORMED : 0;
        }
        return statusValue();
    }

    private boolean isLiteralStatusName(int nameStart) {
        boolean huffman = (block[nameStart] & 0x80) != 0;
        int length = (block[nameStart] & 0x7f);
        // ":status" in Huffman takes 6 bytes; servers that write the name literally write it raw (the static entry is shorter).
        return !huffman && length == 7 && new String(block, nameStart + 1, 7, java.nio.charset.StandardCharsets.US_ASCII).equals(":status");
    }

    /** Three digits, raw or Huffman-coded. */
    private int statusValue() {
        if (position >= end) {
            return MALFORMED;
        }
        boolean huffman = (block[position] & 0x80) != 0;
        int length = integer(7);
        if (length == MALFORMED || length > end - position) {
            return MALFORMED;
        }
        int start = position;
        position += length;
        return huffman ? huffmanDigits(start, length) : rawDigits(start, length);
    }

    private int rawDigits(int start, int length) {
        if (length != 3) {
            return MALFORMED;
        }
        int value = 0;
        for (int i = start; i < start + 3; i++) {
            int digit = block[i] - '0';
            if (digit < 0 || digit > 9) {
                return MALFORMED;
            }
            value = value * 10 + digit;
        }
        return value < 100 ? MALFORMED : value;
    }

    /**
     * Huffman-coded digits (RFC 7541, appendix B): '0' to '2' are the 5-bit codes 0 to 2, '3' to '9' the 6-bit codes
     * 0x19 to 0x1f; the last byte is padded with ones.
     */
    private int huffmanDigits(int start, int length) {
        long bits = 0;
        int available = 0;
        int value = 0;
        int digits = 0;
        int next = start;
        while (true) {
            while (available < 6 && next < start + length) {
                bits = (bits << 8) | (block[next++] & 0xff);
                available += 8;
            }
            if (available < 5 || (available < 8 && next == start + length && isPadding(bits, available))) {
                break;
            }
            int five = (int) (bits >>> (available - 5)) & 0x1f;
            int digit;
            if (five <= 2) {
                digit = five;
                available -= 5;
            } else if (available >= 6 && ((int) (bits >>> (available - 6)) & 0x3f) >= 0x19
                    && ((int) (bits >>> (available - 6)) & 0x3f) <= 0x1f) {
                digit = (((int) (bits >>> (available - 6))) & 0x3f) - 0x19 + 3;
                available -= 6;
            } else {
                return MALFORMED;
            }
            value = value * 10 + digit;
            digits++;
        }
        return digits == 3 && value >= 100 ? value : MALFORMED;
    }

    private static boolean isPadding(long bits, int available) {
        long mask = (1L << available) - 1;
        return (bits & mask) == mask;
    }

    /** Steps over a string literal; {@link #MALFORMED} if it runs past the block. */
    private int skipString() {
        if (position >= end) {
            return MALFORMED;
        }
        int length = integer(7);
        if (length == MALFORMED || length > end - position) {
            return MALFORMED;
        }
        position += length;
        return 0;
    }

    /** An HPACK integer with an N-bit prefix at the position (RFC 7541, 5.1), or {@link #MALFORMED}. */
    private int integer(int prefixBits) {
        int max = (1 << prefixBits) - 1;
        int value = block[position++] & max;
        if (value < max) {
            return value;
        }
        int shift = 0;
        while (position < end) {
            int b = block[position++] & 0xff;
            value += (b & 0x7f) << shift;
            if ((b & 0x80) == 0) {
                return value < 0 ? MALFORMED : value;
            }
            shift += 7;
            if (shift > 21) {
                return MALFORMED;
            }
        }
        return MALFORMED;
    }
}
