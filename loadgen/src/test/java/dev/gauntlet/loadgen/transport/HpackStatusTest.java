package dev.gauntlet.loadgen.transport;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http2.DefaultHttp2Headers;
import io.netty.handler.codec.http2.DefaultHttp2HeadersDecoder;
import io.netty.handler.codec.http2.DefaultHttp2HeadersEncoder;
import io.netty.handler.codec.http2.Http2Exception;
import io.netty.handler.codec.http2.Http2Headers;
import io.netty.handler.codec.http2.Http2HeadersEncoder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link HpackStatus} against header blocks as a real server's HPACK encoder writes them (Netty's: fields added to the
 * connection's dynamic table and referred to afterwards, Huffman-coded), and against Netty's decoder as the judge of
 * what is valid HPACK.
 */
@Timeout(value = 10, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
class HpackStatusTest {
    /** Longer than 127 bytes even Huffman-coded: its length is a multi-byte HPACK integer. */
    private static final String LONG_VALUE = "x-".repeat(200) + "end";

    /** Statuses of the static table (indices 8 to 14) and others, written as literals. */
    @ParameterizedTest
    @ValueSource(ints = {200, 204, 404, 500, 302, 503, 418, 103, 206, 304, 400, 100, 599})
    void readsTheStatusAmongOtherFieldsOfAServersBlock(int status) throws Exception {
        byte[] block = encode(indexingEncoder(), responseHeaders(status));

        assertThat(new HpackStatus().of(ByteBuffer.wrap(block))).isEqualTo(status);
    }

    @Test
    void readsBlocksThatReferToFieldsTheServerPutInTheDynamicTable() throws Exception {
        DefaultHttp2HeadersEncoder encoder = indexingEncoder();
        HpackStatus decoder = new HpackStatus();
        byte[] first = encode(encoder, responseHeaders(302));
        byte[] second = encode(encoder, responseHeaders(302));
        // The premise: the second block refers to the first one's fields by their dynamic index, a byte each.
        assertThat(second.length).isLessThan(10).isLessThan(first.length / 10);
        assertThat(second[1] & 0xff).as("an index above the static table's 61").isGreaterThan(0x80 | 61);

        assertThat(decoder.of(ByteBuffer.wrap(first))).isEqualTo(302);
        assertThat(decoder.of(ByteBuffer.wrap(second))).isEqualTo(302);
        // Fields that change per response are inserted anew, evicting the oldest from the 4,096 bytes of table.
        for (int i = 0; i < 200; i++) {
            int status = i % 2 == 0 ? 200 : 404;
            byte[] block = encode(encoder, responseHeaders(status).add("x-request", "request-" + i));
            assertThat(decoder.of(ByteBuffer.wrap(block))).as("block %d", i).isEqualTo(status);
        }
    }

    @Test
    void literalStatusesAreHuffmanCodedWhereThatIsShorter() throws Exception {
        // The test's premise: Netty codes a value by Huffman only when it gets shorter, which for three digits
        // means at most one of 3..9 (16 bits); 302 and 103 take that path, 503 and 418 go raw. Netty adds a literal
        // status to the table (0x48: incremental indexing, name index 8).
        assertThat(statusField(encode(indexingEncoder(), headers(302)))).isEqualTo(new byte[]{0x48, (byte) 0x82, 0x64, 0x02});
        assertThat(statusField(encode(indexingEncoder(), headers(503)))[1] & 0x80).isZero();
    }

    /** Huffman codes that need padding (17 and 18 bits), which Netty does not write for three digits. */
    @ParameterizedTest
    @ValueSource(ints = {503, 418, 999, 345, 120})
    void readsHuffmanDigitsEndedByPadding(int status) throws Exception {
        byte[] block = huffmanStatusBlock(status);
        // Netty's decoder agrees that the block is valid HPACK carrying this status.
        assertThat(nettyDecode(block).status().toString()).isEqualTo(String.valueOf(status));

        assertThat(new HpackStatus().of(ByteBuffer.wrap(block))).isEqualTo(status);
    }

    @Test
    void followsTheServersTableSizeUpdatesAndSkipsSensitiveFields() throws Exception {
        // Fields named x-* are never indexed (sensitive); the server shrinks its table to 64 bytes, then to 0.
        DefaultHttp2HeadersEncoder encoder = new DefaultHttp2HeadersEncoder(
                (name, value) -> name.toString().startsWith("x-"), false, 16, 0);
        HpackStatus decoder = new HpackStatus();
        assertThat(decoder.of(ByteBuffer.wrap(encode(encoder, responseHeaders(418))))).isEqualTo(418);
        encoder.maxHeaderTableSize(64);
        byte[] shrunk = encode(encoder, responseHeaders(200));
        encoder.maxHeaderTableSize(0);
        byte[] none = encode(encoder, responseHeaders(204));

        assertThat(shrunk[0] & 0xe0).as("a dynamic table size update first").isEqualTo(0x20);
        assertThat(decoder.of(ByteBuffer.wrap(shrunk))).isEqualTo(200);
        assertThat(decoder.of(ByteBuffer.wrap(none))).isEqualTo(204);
    }

    @Test
    void readsTheBlockBetweenItsBuffersPositionAndLimitAndConsumesIt() throws Exception {
        byte[] block = encode(indexingEncoder(), responseHeaders(302));
        byte[] framed = new byte[block.length + 20];
        Arrays.fill(framed, (byte) 0xBE);
        System.arraycopy(block, 0, framed, 7, block.length);
        ByteBuffer buffer = ByteBuffer.wrap(framed, 7, block.length);

        assertThat(new HpackStatus().of(buffer)).isEqualTo(302);
        assertThat(buffer.position()).isEqualTo(7 + block.length);
    }

    @Test
    void aBlockWithoutStatusIsNone() throws Exception {
        Http2Headers trailers = new DefaultHttp2Headers(false).add("grpc-status", "0").add("x-custom", LONG_VALUE);
        byte[] block = encode(indexingEncoder(), trailers);

        assertThat(new HpackStatus().of(ByteBuffer.wrap(block))).isEqualTo(HpackStatus.NONE);
        assertThat(new HpackStatus().of(ByteBuffer.allocate(0))).isEqualTo(HpackStatus.NONE);
    }

    @Test
    void readsARawLiteralStatus() {
        // Literal without indexing, name index 8 (:status), raw value "302".
        byte[] withIndexedName = {0x08, 0x03, '3', '0', '2'};
        // Literal with incremental indexing of a new name, both raw: ":status: 503", then "content-length: 0".
        byte[] withLiteralName = {0x40, 0x07, ':', 's', 't', 'a', 't', 'u', 's', 0x03, '5', '0', '3', 0x0f, 0x0d, 0x01, '0'};

        assertThat(new HpackStatus().of(ByteBuffer.wrap(withIndexedName))).isEqualTo(302);
        assertThat(new HpackStatus().of(ByteBuffer.wrap(withLiteralName))).isEqualTo(503);
    }

    @Test
    void whatBreaksHpackIsMalformed() {
        // Index 62, the first dynamic entry, which the server never inserted.
        assertThat(new HpackStatus().of(ByteBuffer.wrap(new byte[]{(byte) 0xBE}))).isEqualTo(HpackStatus.MALFORMED);
        // The same as a literal's name index after a valid status.
        byte[] nameFromDynamic = {(byte) 0x88, 0x0f, 0x2f, 0x01, 'x'};
        assertThat(new HpackStatus().of(ByteBuffer.wrap(nameFromDynamic))).isEqualTo(HpackStatus.MALFORMED);
        // Index 0 is not an entry at all.
        assertThat(new HpackStatus().of(ByteBuffer.wrap(new byte[]{(byte) 0x80}))).isEqualTo(HpackStatus.MALFORMED);
        // A table size update to 4,097, above the client's SETTINGS.
        byte[] tableOf4097 = {0x3f, (byte) 0xe2, 0x1f, (byte) 0x88};
        assertThat(new HpackStatus().of(ByteBuffer.wrap(tableOf4097))).isEqualTo(HpackStatus.MALFORMED);
    }

    @Test
    void aTruncatedBlockIsMalformed() throws Exception {
        byte[] block = encode(indexingEncoder(), headers(503));
        // The status's value cut short.
        assertThat(new HpackStatus().of(ByteBuffer.wrap(block, 0, block.length - 1))).isEqualTo(HpackStatus.MALFORMED);

        byte[] withLong = encode(indexingEncoder(), new DefaultHttp2Headers(false).status("200").add("x-long", LONG_VALUE));
        // The long value's length is a two-byte integer; cut after its first byte, and in the middle of the value.
        // The status (1 byte), the literal's first byte, the name's length and the name, then the value's length.
        int valueLengthAt = 1 + 1 + 1 + huffmanLength("x-long");
        assertThat(withLong[valueLengthAt] & 0x7f).isEqualTo(0x7f);
        assertThat(new HpackStatus().of(ByteBuffer.wrap(withLong, 0, valueLengthAt + 1))).isEqualTo(HpackStatus.MALFORMED);
        assertThat(new HpackStatus().of(ByteBuffer.wrap(withLong, 0, withLong.length - 10))).isEqualTo(HpackStatus.MALFORMED);
    }

    /**
     * Every prefix of real blocks: where Netty's decoder takes the prefix as a whole block, the status is what it
     * decodes (or none); where it rejects it, the prefix is malformed. Never an exception.
     */
    @ParameterizedTest
    @ValueSource(ints = {200, 302, 503, 103})
    void everyPrefixOfABlockAgreesWithNettysDecoder(int status) throws Exception {
        byte[] block = encode(indexingEncoder(), responseHeaders(status));
        for (int length = 0; length <= block.length; length++) {
            byte[] prefix = Arrays.copyOf(block, length);
            int expected;
            try {
                CharSequence decoded = nettyDecode(prefix).status();
                expected = decoded == null ? HpackStatus.NONE : Integer.parseInt(decoded.toString());
            } catch (Http2Exception e) {
                expected = HpackStatus.MALFORMED;
            }
            assertThat(new HpackStatus().of(ByteBuffer.wrap(prefix))).as("the first %d of %d bytes", length, block.length)
                    .isEqualTo(expected);
        }
    }

    @Test
    void statusesThatAreNotThreeDigitsAreNotTakenAsStatuses() {
        byte[] twoDigits = {0x08, 0x02, '2', '0'};
        byte[] letters = {0x08, 0x03, '2', 'O', 'O'};
        byte[] leadingZero = {0x08, 0x03, '0', '9', '9'};
        // "2000" Huffman-coded: 21 bits, a fourth digit.
        byte[] fourHuffmanDigits = huffmanStatusBlock("2000");
        for (byte[] block : new byte[][]{twoDigits, letters, leadingZero, fourHuffmanDigits}) {
            assertThat(new HpackStatus().of(ByteBuffer.wrap(block))).as(Arrays.toString(block))
                    .isIn(HpackStatus.MALFORMED, HpackStatus.INVALID);
        }
    }

    @Test
    void aRequestsPseudoHeaderInAResponseIsTheStreamsErrorAndTheTableGoesOn() throws Exception {
        DefaultHttp2HeadersEncoder encoder = indexingEncoder();
        HpackStatus decoder = new HpackStatus();
        byte[] withMethod = encode(encoder, responseHeaders(200).method("GET"));
        byte[] next = encode(encoder, responseHeaders(200));

        assertThat(decoder.of(ByteBuffer.wrap(withMethod))).isEqualTo(HpackStatus.INVALID);
        assertThat(decoder.of(ByteBuffer.wrap(next))).isEqualTo(200);
    }

    @Test
    void aBlockThatComesAgainDecodesAlike() throws Exception {
        // Every field never indexed, so every response's block is the same bytes.
        DefaultHttp2HeadersEncoder neverIndexing = new DefaultHttp2HeadersEncoder((name, value) -> true, false, 16, 0);
        byte[] ok = encode(neverIndexing, responseHeaders(200));
        byte[] notFound = encode(neverIndexing, responseHeaders(404));
        HpackStatus decoder = new HpackStatus();

        for (byte[] block : new byte[][]{ok, ok, notFound, notFound, ok, notFound}) {
            ByteBuffer buffer = ByteBuffer.wrap(block);
            assertThat(decoder.of(buffer)).isEqualTo(block == ok ? 200 : 404);
            assertThat(buffer.hasRemaining()).isFalse();
        }
        // A block that is the kept one's first bytes, then more, is not taken for it.
        byte[] longer = Arrays.copyOf(ok, ok.length + 1);
        longer[ok.length] = (byte) 0x88;
        assertThat(decoder.of(ByteBuffer.wrap(ok))).isEqualTo(200);
        assertThat(decoder.of(ByteBuffer.wrap(longer))).isEqualTo(HpackStatus.INVALID);
    }

    /**
     * nginx's way: each response inserts the same fields into the table, and refers to none. Once the table is full of
     * them it stays as it is, and a block referring to the table afterwards finds what the server's table holds.
     */
    @Test
    void blocksThatInsertTheSameFieldsEachTimeKeepTheTableInStepWithTheServers() {
        HpackStatus decoder = new HpackStatus();
        // :status 200 (static), then "server: nginx" and "content-type: text/plain" with incremental indexing (name
        // indices 54 and 31), raw: 43 + 54 bytes of table a block, so 4,096 bytes hold 42 blocks' fields and a part.
        byte[] nginxLike = {(byte) 0x88, 0x76, 0x05, 'n', 'g', 'i', 'n', 'x', 0x5f, 0x0a, 't', 'e', 'x', 't', '/', 'p',
                'l', 'a', 'i', 'n'};
        for (int i = 0; i < 200; i++) {
            assertThat(decoder.of(ByteBuffer.wrap(nginxLike))).as("block %d", i).isEqualTo(200);
        }
        // The newest entry (62) is content-type, the one before it (63) server: an indexed reference to each, raw.
        byte[] referring = {(byte) 0x88, (byte) 0xBE, (byte) 0xBF};
        assertThat(decoder.of(ByteBuffer.wrap(referring))).isEqualTo(200);
        // A literal with a name from the table's newest entry and a status after it: a regular field before :status.
        assertThat(decoder.of(ByteBuffer.wrap(new byte[]{0x7e, 0x01, 'x', (byte) 0x88}))).isEqualTo(HpackStatus.INVALID);
    }

    @Test
    void theSameBytesReferringToTheTableDecodeToWhatTheTableHoldsNow() {
        HpackStatus decoder = new HpackStatus();
        byte[] firstDynamicEntry = {(byte) 0xBE};
        // Literals with incremental indexing, name index 8 (:status): the newest entry is index 62.
        assertThat(decoder.of(ByteBuffer.wrap(new byte[]{0x48, 0x03, '5', '0', '3'}))).isEqualTo(503);
        assertThat(decoder.of(ByteBuffer.wrap(firstDynamicEntry))).isEqualTo(503);
        assertThat(decoder.of(ByteBuffer.wrap(new byte[]{0x48, 0x03, '4', '1', '8'}))).isEqualTo(418);

        assertThat(decoder.of(ByteBuffer.wrap(firstDynamicEntry))).isEqualTo(418);

        // The same insertion three times in a row grows the table each time: none of them may be skipped.
        HpackStatus growing = new HpackStatus();
        byte[] insert503 = {0x48, 0x03, '5', '0', '3'};
        for (int i = 0; i < 3; i++) {
            assertThat(growing.of(ByteBuffer.wrap(insert503))).isEqualTo(503);
        }
        assertThat(growing.of(ByteBuffer.wrap(new byte[]{(byte) 0xC0}))).as("index 64, the third entry").isEqualTo(503);
    }

    /** Huffman forced on (threshold 0); every field indexed in the default table of 4,096 the client's SETTINGS allow. */
    private static DefaultHttp2HeadersEncoder indexingEncoder() {
        return new DefaultHttp2HeadersEncoder(Http2HeadersEncoder.NEVER_SENSITIVE, false, 16, 0);
    }

    private static Http2Headers headers(int status) {
        return new DefaultHttp2Headers(false).status(String.valueOf(status));
    }

    /** A response's fields around its status: before it (HTTP/2 wants pseudo-headers first; Netty writes them so). */
    private static Http2Headers responseHeaders(int status) {
        return headers(status)
                .add("content-type", "text/plain; charset=utf-8")
                .add("content-length", "5")
                .add("server", "gauntlet-test")
                .add("x-long-custom-header", LONG_VALUE);
    }

    private static byte[] encode(DefaultHttp2HeadersEncoder encoder, Http2Headers headers) throws Http2Exception {
        ByteBuf out = Unpooled.buffer();
        try {
            encoder.encodeHeaders(1, headers, out);
            byte[] bytes = new byte[out.readableBytes()];
            out.readBytes(bytes);
            return bytes;
        } finally {
            out.release();
        }
    }

    private static Http2Headers nettyDecode(byte[] block) throws Http2Exception {
        // Validation off: only HPACK itself is judged, not HTTP's rules on which fields a response has.
        DefaultHttp2HeadersDecoder decoder = new DefaultHttp2HeadersDecoder(false);
        ByteBuf in = Unpooled.wrappedBuffer(block);
        try {
            return decoder.decodeHeaders(1, in);
        } finally {
            in.release();
        }
    }

    /** The first field of a block, a literal status with an indexed name: its four bytes. */
    private static byte[] statusField(byte[] block) {
        return Arrays.copyOf(block, 4);
    }

    private static byte[] huffmanStatusBlock(int status) {
        return huffmanStatusBlock(String.valueOf(status));
    }

    /** A literal without indexing of {@code :status} (name index 8), its value Huffman-coded by RFC 7541's table. */
    private static byte[] huffmanStatusBlock(String digits) {
        long bits = 0;
        int count = 0;
        for (char digit : digits.toCharArray()) {
            int d = digit - '0';
            // RFC 7541, appendix B: '0'..'2' are 00000..00010 (5 bits), '3'..'9' are 011001..011111 (6 bits).
            int code = d <= 2 ? d : 0x19 + d - 3;
            int length = d <= 2 ? 5 : 6;
            bits = (bits << length) | code;
            count += length;
        }
        int bytes = (count + 7) / 8;
        int padding = bytes * 8 - count;
        bits = (bits << padding) | ((1L << padding) - 1);
        ByteArrayOutputStream block = new ByteArrayOutputStream();
        block.write(0x08);
        block.write(0x80 | bytes);
        for (int i = bytes - 1; i >= 0; i--) {
            block.write((int) (bits >>> (8 * i)) & 0xff);
        }
        return block.toByteArray();
    }

    /** The Huffman-coded length of a lower-case name such as Netty writes it (shorter than raw here). */
    private static int huffmanLength(String name) throws Http2Exception {
        byte[] block = encode(indexingEncoder(), new DefaultHttp2Headers(false).add(name, ""));
        return block[1] & 0x7f;
    }
}
