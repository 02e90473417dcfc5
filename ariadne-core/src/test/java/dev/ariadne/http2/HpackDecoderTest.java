package dev.ariadne.http2;

import static dev.ariadne.http2.HpackHuffmanTest.hex;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.junit.jupiter.params.provider.Arguments.argumentSet;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import com.sun.management.ThreadMXBean;

/**
 * The decoder against every example of RFC 7541 Appendix C (fields, then the dynamic table's
 * entries and size after each block), one table row per decoding error, size updates, and the
 * header list limit.
 */
class HpackDecoderTest {

	/** Appendix C.3 and C.4: three requests, as blocks without and with Huffman coding. */
	static final String[][] REQUESTS = {
			{ "8286 8441 0f77 7777 2e65 7861 6d70 6c65 2e63 6f6d", "8286 8441 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff" },
			{ "8286 84be 5808 6e6f 2d63 6163 6865", "8286 84be 5886 a8eb 1064 9cbf" },
			{ "8287 85bf 400a 6375 7374 6f6d 2d6b 6579 0c63 7573 746f 6d2d 7661 6c75 65",
					"8287 85bf 4088 25a8 49e9 5ba9 7d7f 8925 a849 e95b b8e8 b4bf" } };

	static final String[][] REQUEST_FIELDS = {
			{ ":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com" },
			{ ":method: GET", ":scheme: http", ":path: /", ":authority: www.example.com", "cache-control: no-cache" },
			{ ":method: GET", ":scheme: https", ":path: /index.html", ":authority: www.example.com",
					"custom-key: custom-value" } };

	static final String[][] REQUEST_TABLES = { { ":authority: www.example.com" },
			{ "cache-control: no-cache", ":authority: www.example.com" },
			{ "custom-key: custom-value", "cache-control: no-cache", ":authority: www.example.com" } };

	static final long[] REQUEST_SIZES = { 57, 110, 164 };

	/** Appendix C.5 and C.6: three responses with a 256-octet table. */
	static final String[][] RESPONSES = {
			{ "4803 3330 3258 0770 7269 7661 7465 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32"
					+ " 3120 474d 546e 1768 7474 7073 3a2f 2f77 7777 2e65 7861 6d70 6c65 2e63 6f6d",
					"4882 6402 5885 aec3 771a 4b61 96d0 7abe 9410 54d4 44a8 2005 9504 0b81 66e0 82a6 2d1b ff6e 919d"
							+ " 29ad 1718 63c7 8f0b 97c8 e9ae 82ae 43d3" },
			{ "4803 3330 37c1 c0bf", "4883 640e ffc1 c0bf" },
			{ "88c1 611d 4d6f 6e2c 2032 3120 4f63 7420 3230 3133 2032 303a 3133 3a32 3220 474d 54c0 5a04 677a 6970"
					+ " 7738 666f 6f3d 4153 444a 4b48 514b 425a 584f 5157 454f 5049 5541 5851 5745 4f49 553b 206d"
					+ " 6178 2d61 6765 3d33 3630 303b 2076 6572 7369 6f6e 3d31",
					"88c1 6196 d07a be94 1054 d444 a820 0595 040b 8166 e084 a62d 1bff c05a 839b d9ab 77ad 94e7 821d"
							+ " d7f2 e6c7 b335 dfdf cd5b 3960 d5af 2708 7f36 72c1 ab27 0fb5 291f 9587 3160 65c0 03ed"
							+ " 4ee5 b106 3d50 07" } };

	static final String DATE_21 = "date: Mon, 21 Oct 2013 20:13:21 GMT";

	static final String COOKIE = "set-cookie: foo=ASDJKHQKBZXOQWEOPIUAXQWEOIU; max-age=3600; version=1";

	static final String[][] RESPONSE_FIELDS = {
			{ ":status: 302", "cache-control: private", DATE_21, "location: https://www.example.com" },
			{ ":status: 307", "cache-control: private", DATE_21, "location: https://www.example.com" },
			{ ":status: 200", "cache-control: private", "date: Mon, 21 Oct 2013 20:13:22 GMT",
					"location: https://www.example.com", "content-encoding: gzip", COOKIE } };

	static final String[][] RESPONSE_TABLES = {
			{ "location: https://www.example.com", DATE_21, "cache-control: private", ":status: 302" },
			{ ":status: 307", "location: https://www.example.com", DATE_21, "cache-control: private" },
			{ COOKIE, "content-encoding: gzip", "date: Mon, 21 Oct 2013 20:13:22 GMT" } };

	static final long[] RESPONSE_SIZES = { 222, 222, 215 };

	@Test
	void decodesTheIntegersOfC1() throws Http2Exception {
		assertThat(HpackDecoder.integer(ByteBuffer.allocate(0), 0xea, 5)).isEqualTo(10);
		ByteBuffer rest = ByteBuffer.wrap(hex("9a0a ff"));
		assertThat(HpackDecoder.integer(rest, 0x1f, 5)).isEqualTo(1337);
		assertThat(rest.position()).isEqualTo(2);
		assertThat(HpackDecoder.integer(ByteBuffer.allocate(0), 42, 8)).isEqualTo(42);
		assertThat(HpackDecoder.integer(ByteBuffer.wrap(hex("80 80 80 80 07")), 0x7f, 7))
			.isEqualTo(127 + (7 << 28));
		assertThat(HpackDecoder.integer(ByteBuffer.wrap(hex("80 ff ff ff 07")), 0x7f, 7)).isEqualTo(Integer.MAX_VALUE);
	}

	static Stream<Arguments> fieldRepresentations() {
		return Stream.of(
				argumentSet("C.2.1 literal with indexing",
						"400a 6375 7374 6f6d 2d6b 6579 0d63 7573 746f 6d2d 6865 6164 6572",
						List.of("custom-key: custom-header"), List.of("custom-key: custom-header"), 55L),
				argumentSet("C.2.2 literal without indexing", "040c 2f73 616d 706c 652f 7061 7468",
						List.of(":path: /sample/path"), List.of(), 0L),
				argumentSet("C.2.3 literal never indexed", "1008 7061 7373 776f 7264 0673 6563 7265 74",
						List.of("password: secret"), List.of(), 0L),
				argumentSet("C.2.4 indexed", "82", List.of(":method: GET"), List.of(), 0L));
	}

	@ParameterizedTest
	@MethodSource("fieldRepresentations")
	void decodesTheFieldRepresentationsOfC2(String block, List<String> fields, List<String> table, long size)
			throws Http2Exception {
		HpackDecoder decoder = new HpackDecoder(4096, Long.MAX_VALUE);
		assertThat(decode(decoder, block)).isEqualTo(fields);
		assertThat(HpackDynamicTableTest.entries(decoder.table())).isEqualTo(table);
		assertThat(decoder.tableSize()).isEqualTo(size);
	}

	@Test
	void decodesTheRequestsOfC3WithoutHuffmanAndC4WithHuffman() throws Http2Exception {
		for (int huffman = 0; huffman <= 1; huffman++) {
			HpackDecoder decoder = new HpackDecoder(4096, Long.MAX_VALUE);
			for (int i = 0; i < REQUESTS.length; i++) {
				String where = "C." + (3 + huffman) + "." + (i + 1);
				assertThat(decode(decoder, REQUESTS[i][huffman])).as(where).containsExactly(REQUEST_FIELDS[i]);
				assertThat(HpackDynamicTableTest.entries(decoder.table())).as(where).containsExactly(REQUEST_TABLES[i]);
				assertThat(decoder.tableSize()).as(where).isEqualTo(REQUEST_SIZES[i]);
			}
		}
	}

	@Test
	void decodesTheResponsesOfC5WithoutHuffmanAndC6WithHuffmanEvictingFromA256OctetTable() throws Http2Exception {
		for (int huffman = 0; huffman <= 1; huffman++) {
			HpackDecoder decoder = new HpackDecoder(256, Long.MAX_VALUE);
			for (int i = 0; i < RESPONSES.length; i++) {
				String where = "C." + (5 + huffman) + "." + (i + 1);
				assertThat(decode(decoder, RESPONSES[i][huffman])).as(where).containsExactly(RESPONSE_FIELDS[i]);
				assertThat(HpackDynamicTableTest.entries(decoder.table())).as(where)
					.containsExactly(RESPONSE_TABLES[i]);
				assertThat(decoder.tableSize()).as(where).isEqualTo(RESPONSE_SIZES[i]);
			}
		}
	}

	@Test
	void handsOutTheSameStringsForIndexedNamesAndValues() throws Http2Exception {
		HpackDecoder decoder = new HpackDecoder(4096, Long.MAX_VALUE);
		List<String> strings = new ArrayList<>();
		decoder.decode(ByteBuffer.wrap(hex(REQUESTS[0][1] + "be 41 8cf1 e3c2 e5f2 3a6b a0ab 90f4 ff")),
				(name, value) -> {
					strings.add(name);
					strings.add(value);
				});
		assertThat(strings.get(6)).isSameAs(":authority").isSameAs(strings.get(8)).isSameAs(strings.get(10));
		assertThat(strings.get(1)).isSameAs("GET");
		assertThat(strings.get(9)).isSameAs(strings.get(7)).isEqualTo("www.example.com");
		assertThat(strings.get(11)).isNotSameAs(strings.get(7)).isEqualTo("www.example.com");
	}

	static Stream<Arguments> invalidBlocks() {
		return Stream.of(argumentSet("index 0 (§6.1)", "80", "with index 0"),
				argumentSet("an index past the empty dynamic table", "be", "Index past"),
				argumentSet("an index past the static and dynamic tables", "400161 0162 c0", "Index past"),
				argumentSet("a name index past the tables", "7f 00 01 61", "Index past"),
				argumentSet("an integer above 2^31-1", "ff 80 ff ff ff 08", "Integer above"),
				argumentSet("an integer of six continuation octets", "ff 80 80 80 80 80 00", "Integer above"),
				argumentSet("the block ends inside an integer", "ff 80", "ends inside an integer"),
				argumentSet("the block ends before a value", "41", "ends before a string"),
				argumentSet("the block ends before a name", "40", "ends before a string"),
				argumentSet("a value longer than the block", "41 03 61 62", "longer than the rest"),
				argumentSet("a Huffman length longer than the block", "41 85 6402", "longer than the rest"),
				argumentSet("a name longer than the block", "40 7f 10 61", "longer than the rest"),
				argumentSet("an empty literal name", "00 00 01 61", "empty name"),
				argumentSet("Huffman padding of 8 bits", "41 81 ff", "padding"),
				argumentSet("Huffman padding that is not ones", "41 81 00", "padding"),
				argumentSet("EOS in a Huffman string", "41 84 ffff ffff", "contains EOS"),
				argumentSet("a size update above the setting", "3f e2 1f", "above SETTINGS_HEADER_TABLE_SIZE"),
				argumentSet("a size update after a field (§4.2)", "82 20", "after a field"),
				argumentSet("three size updates", "20 20 20 82", "More than two"));
	}

	@ParameterizedTest
	@MethodSource("invalidBlocks")
	void rejectsInvalidBlocksAsCompressionConnectionErrors(String block, String reason) {
		HpackDecoder decoder = new HpackDecoder(4096, Long.MAX_VALUE);
		assertThatExceptionOfType(Http2Exception.class).isThrownBy(() -> decode(decoder, block))
			.withMessageContaining(reason)
			.satisfies((ex) -> assertThat(ex.error()).isEqualTo(ErrorCode.COMPRESSION_ERROR))
			.satisfies((ex) -> assertThat(ex.isConnectionError()).isTrue());
	}

	@Test
	void acceptsUpToTwoSizeUpdatesAtTheStartOfABlock() throws Http2Exception {
		HpackDecoder decoder = new HpackDecoder(4096, Long.MAX_VALUE);
		decode(decoder, REQUESTS[0][0]);
		assertThat(decode(decoder, "20 3f e1 1f 82")).containsExactly(":method: GET");
		assertThat(decoder.tableSize()).isZero();
		assertThat(decoder.table().capacity()).isEqualTo(4096);
		assertThat(decode(decoder, "3f e1 01")).isEmpty();
		assertThat(decoder.table().capacity()).isEqualTo(256);
	}

	@Test
	void aSizeUpdateEvictsAndASmallerTableStaysSmaller() throws Http2Exception {
		HpackDecoder decoder = new HpackDecoder(4096, Long.MAX_VALUE);
		decode(decoder, REQUESTS[0][0]);
		decode(decoder, REQUESTS[1][0]);
		// 64 octets keeps the newest entry (53) only.
		assertThat(decode(decoder, "3f 21 be")).containsExactly("cache-control: no-cache");
		assertThat(decoder.tableSize()).isEqualTo(53);
		assertThatExceptionOfType(Http2Exception.class).isThrownBy(() -> decode(decoder, "bf"));
	}

	@Test
	void requiresASizeUpdateAfterTheSettingWentBelowTheTable() throws Http2Exception {
		HpackDecoder decoder = new HpackDecoder(4096, Long.MAX_VALUE);
		decoder.maxTableSize(100);
		assertThatExceptionOfType(Http2Exception.class).isThrownBy(() -> decode(decoder, "82"))
			.satisfies((ex) -> assertThat(ex.error()).isEqualTo(ErrorCode.COMPRESSION_ERROR));
		HpackDecoder obeying = new HpackDecoder(4096, Long.MAX_VALUE);
		obeying.maxTableSize(100);
		assertThatExceptionOfType(Http2Exception.class).isThrownBy(() -> decode(obeying, "3f 46 82"));
		HpackDecoder updated = new HpackDecoder(4096, Long.MAX_VALUE);
		updated.maxTableSize(100);
		assertThat(decode(updated, "3f 45 82")).containsExactly(":method: GET");
		assertThat(decode(updated, "82")).containsExactly(":method: GET");
		updated.maxTableSize(8192);
		assertThat(decode(updated, "82")).containsExactly(":method: GET");
		assertThat(decode(updated, "3f e1 3f 82")).containsExactly(":method: GET");
		assertThat(updated.table().capacity()).isEqualTo(8192);
	}

	@Test
	void reportsFieldsUpToTheHeaderListLimitAndKeepsTheTableInStep() throws Http2Exception {
		// C.3.1's list is 42 + 43 + 38 + 57 = 180 octets (RFC 9113 §6.5.2).
		assertThat(decoded(new HpackDecoder(4096, 180), REQUESTS[0][0]))
			.isEqualTo("true " + List.of(REQUEST_FIELDS[0]));
		HpackDecoder decoder = new HpackDecoder(4096, 179);
		assertThat(decoded(decoder, REQUESTS[0][0])).isEqualTo("false [:method: GET, :scheme: http, :path: /]");
		assertThat(HpackDynamicTableTest.entries(decoder.table())).containsExactly(REQUEST_TABLES[0]);
		HpackDecoder small = new HpackDecoder(4096, 86);
		assertThat(decoded(small, REQUESTS[0][1])).isEqualTo("false [:method: GET, :scheme: http]");
		assertThat(decoded(small, REQUESTS[1][1])).isEqualTo("false [:method: GET, :scheme: http]");
		assertThat(decoded(small, REQUESTS[2][1])).isEqualTo("false [:method: GET, :scheme: https]");
		assertThat(HpackDynamicTableTest.entries(small.table())).containsExactly(REQUEST_TABLES[2]);
		assertThat(decoded(small, "be")).isEqualTo("true [custom-key: custom-value]");
	}

	@Test
	void aSmallBlockReferencingALargeEntryManyTimesAllocatesNothingPastTheLimit() throws Http2Exception {
		int references = 10_000;
		ByteBuffer block = ByteBuffer.allocate(8 + 4000 + references);
		// x: 4000 octets, literal with indexing (a 4033-octet entry), then index 62 ten thousand times.
		block.put(hex("40 01 78 7f a1 1e")).put("a".repeat(4000).getBytes(StandardCharsets.ISO_8859_1));
		for (int i = 0; i < references; i++) {
			block.put((byte) 0xbe);
		}
		block.flip();
		HpackDecoder decoder = new HpackDecoder(4096, 16 * 1024);
		// A listener that copies what it gets, as a request builder does: the bomb would be 40 MB.
		List<String> values = new ArrayList<>();
		HeaderListener listener = (name, value) -> values.add(name + ": " + value);
		decoder.decode(block.duplicate(), listener);
		ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
		long start = threads.getCurrentThreadAllocatedBytes();
		long started = System.nanoTime();
		values.clear();
		boolean within = decoder.decode(block.duplicate(), listener);
		long elapsed = System.nanoTime() - started;
		long allocated = threads.getCurrentThreadAllocatedBytes() - start;
		assertThat(within).isFalse();
		assertThat(values).hasSize(4).allSatisfy((value) -> assertThat(value).hasSize(4003));
		// The entry's value once and four copies: 20 KB, where 10,001 copies would be 40 MB.
		assertThat(allocated).isLessThan(64 * 1024);
		assertThat(elapsed).isLessThan(1_000_000_000L);
		assertThat(decoder.tableSize()).isEqualTo(4033);
	}

	@Test
	void decodesReadOnlyAndDirectBuffersAndConsumesTheBlock() throws Http2Exception {
		for (ByteBuffer block : new ByteBuffer[] { ByteBuffer.wrap(hex(REQUESTS[2][0])).asReadOnlyBuffer(),
				ByteBuffer.allocateDirect(60).put(hex(REQUESTS[2][1])).flip() }) {
			HpackDecoder decoder = new HpackDecoder(4096, Long.MAX_VALUE);
			decode(decoder, "41 0f 7777 772e 6578 616d 706c 652e 636f 6d 58 08 6e6f 2d63 6163 6865 ");
			List<String> fields = new ArrayList<>();
			assertThat(decoder.decode(block, (name, value) -> fields.add(name + ": " + value))).isTrue();
			assertThat(fields).containsExactly(REQUEST_FIELDS[2]);
			assertThat(block.hasRemaining()).isFalse();
		}
	}

	static List<String> decode(HpackDecoder decoder, String block) throws Http2Exception {
		List<String> fields = new ArrayList<>();
		decoder.decode(ByteBuffer.wrap(hex(block)), (name, value) -> fields.add(name + ": " + value));
		return fields;
	}

	private static String decoded(HpackDecoder decoder, String block) throws Http2Exception {
		List<String> fields = new ArrayList<>();
		boolean within = decoder.decode(ByteBuffer.wrap(hex(block)), (name, value) -> fields.add(name + ": " + value));
		return within + " " + fields;
	}

}
