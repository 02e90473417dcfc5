package dev.ariadne.http2;

import static dev.ariadne.http2.HpackDecoderTest.REQUESTS;
import static dev.ariadne.http2.HpackDecoderTest.REQUEST_FIELDS;
import static dev.ariadne.http2.HpackDecoderTest.REQUEST_SIZES;
import static dev.ariadne.http2.HpackDecoderTest.REQUEST_TABLES;
import static dev.ariadne.http2.HpackDecoderTest.RESPONSES;
import static dev.ariadne.http2.HpackDecoderTest.RESPONSE_FIELDS;
import static dev.ariadne.http2.HpackDecoderTest.RESPONSE_TABLES;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.api.Test;

import com.sun.management.ThreadMXBean;

/**
 * The encoder against RFC 7541 Appendix C (exact bytes where its policy matches the RFC's), its
 * indexing policy, the size updates it owes the peer, and its allocation.
 */
class HpackEncoderTest {

	@Test
	void encodesTheIntegersOfC1() {
		assertThat(encoded((encoder) -> encoder.integer(0xe0, 5, 10))).isEqualTo("ea");
		assertThat(encoded((encoder) -> encoder.integer(0x00, 5, 1337))).isEqualTo("1f9a0a");
		assertThat(encoded((encoder) -> encoder.integer(0x00, 8, 42))).isEqualTo("2a");
		assertThat(encoded((encoder) -> encoder.integer(0x80, 7, Integer.MAX_VALUE))).isEqualTo("ff80ffffff07");
		assertThat(encoded((encoder) -> encoder.integer(0x00, 4, 15))).isEqualTo("0f00");
	}

	@Test
	void encodesTheRequestsOfC3WithoutHuffmanAndC4WithHuffmanExactly() {
		for (int huffman = 0; huffman <= 1; huffman++) {
			HpackEncoder encoder = new HpackEncoder(4096);
			encoder.huffman(huffman == 1);
			for (int i = 0; i < REQUESTS.length; i++) {
				String where = "C." + (3 + huffman) + "." + (i + 1);
				assertThat(encode(encoder, REQUEST_FIELDS[i])).as(where)
					.isEqualTo(REQUESTS[i][huffman].replace(" ", ""));
				assertThat(HpackDynamicTableTest.entries(encoder.table())).as(where).containsExactly(REQUEST_TABLES[i]);
				assertThat(encoder.table().size()).as(where).isEqualTo(REQUEST_SIZES[i]);
			}
		}
	}

	@Test
	void encodesTheResponsesOfC5AndC6ButNeverIndexesSetCookie() throws Http2Exception {
		for (int huffman = 0; huffman <= 1; huffman++) {
			HpackEncoder encoder = new HpackEncoder(4096);
			encoder.huffman(huffman == 1);
			encoder.peerMaxTableSize(256);
			HpackDecoder decoder = new HpackDecoder(4096, Long.MAX_VALUE);
			decoder.maxTableSize(256);
			String where = "C." + (5 + huffman);
			// The peer's setting went from 4096 to 256: the first block says so (§4.2).
			String first = encode(encoder, RESPONSE_FIELDS[0]);
			assertThat(first).as(where + ".1").isEqualTo("3fe101" + RESPONSES[0][huffman].replace(" ", ""));
			assertThat(HpackDynamicTableTest.entries(encoder.table())).containsExactly(RESPONSE_TABLES[0]);
			String second = encode(encoder, RESPONSE_FIELDS[1]);
			// '307' takes 3 octets either way: the RFC chose Huffman, this encoder keeps it raw.
			assertThat(second).as(where + ".2").isEqualTo(RESPONSES[1][0].replace(" ", ""));
			String third = encode(encoder, RESPONSE_FIELDS[2]);
			String rfc = RESPONSES[2][huffman].replace(" ", "");
			String contentEncoding = (huffman == 1) ? "5a839bd9ab" : "5a04677a6970";
			int cookie = rfc.indexOf(contentEncoding) + contentEncoding.length();
			assertThat(rfc.substring(cookie, cookie + 2)).isEqualTo("77");
			// RFC: 77 (set-cookie, incremental indexing); here 1f28 (never indexed, name index 55).
			assertThat(third).as(where + ".3").isEqualTo(rfc.substring(0, cookie) + "1f28" + rfc.substring(cookie + 2));
			assertThat(HpackDynamicTableTest.entries(encoder.table())).containsExactly("content-encoding: gzip",
					"date: Mon, 21 Oct 2013 20:13:22 GMT", ":status: 307", "location: https://www.example.com");
			for (String block : new String[] { first, second, third }) {
				HpackDecoderTest.decode(decoder, block);
			}
			assertThat(HpackDynamicTableTest.entries(decoder.table()))
				.isEqualTo(HpackDynamicTableTest.entries(encoder.table()));
			assertThat(decoder.tableSize()).isEqualTo(encoder.table().size()).isEqualTo(222);
		}
	}

	@Test
	void announcesASmallerOwnTableInTheFirstBlock() {
		assertThat(encode(new HpackEncoder(1024), ":method: GET")).isEqualTo("3fe10782");
		assertThat(encode(new HpackEncoder(0), ":method: GET")).isEqualTo("2082");
		assertThat(encode(new HpackEncoder(4096), ":method: GET")).isEqualTo("82");
		assertThat(encode(new HpackEncoder(65536), ":method: GET")).isEqualTo("82");
	}

	@Test
	void announcesThePeersNewSizeOnceAtTheStartOfTheNextBlock() {
		HpackEncoder encoder = new HpackEncoder(4096);
		encode(encoder, "x: 1");
		encoder.peerMaxTableSize(256);
		assertThat(encode(encoder, ":method: GET")).isEqualTo("3fe10182");
		assertThat(encode(encoder, ":method: GET")).isEqualTo("82");
		encoder.peerMaxTableSize(256);
		assertThat(encode(encoder, ":method: GET")).isEqualTo("82");
		// Above this side's own maximum changes nothing.
		encoder.peerMaxTableSize(4096);
		encoder.peerMaxTableSize(65536);
		assertThat(encode(encoder, ":method: GET")).isEqualTo("3fe11f82");
		assertThat(encode(encoder, ":method: GET")).isEqualTo("82");
	}

	@Test
	void announcesTheSmallestThenTheFinalSizeWhenTheSettingWentDownThenUp() {
		HpackEncoder encoder = new HpackEncoder(4096);
		encode(encoder, "x: 1");
		encoder.peerMaxTableSize(0);
		assertThat(encoder.table().length()).as("evicted at once").isZero();
		encoder.peerMaxTableSize(4096);
		assertThat(encode(encoder, ":method: GET")).isEqualTo("203fe11f82");
		encoder.peerMaxTableSize(1000);
		encoder.peerMaxTableSize(100);
		encoder.peerMaxTableSize(256);
		assertThat(encode(encoder, ":method: GET")).isEqualTo("3f453fe10182");
		encoder.peerMaxTableSize(1000);
		encoder.peerMaxTableSize(300);
		assertThat(encode(encoder, ":method: GET")).isEqualTo("3f8d0282");
	}

	@Test
	void indexesWhatItFindsAndAddsWhatFits() {
		HpackEncoder encoder = new HpackEncoder(4096);
		encoder.huffman(false);
		assertThat(encode(encoder, ":method: GET", "x: 1", "x: 1", "x: 2", "accept-encoding: gzip, deflate"))
			.isEqualTo("82" + "4001780131" + "be" + "7e0132" + "90");
		assertThat(HpackDynamicTableTest.entries(encoder.table())).containsExactly("x: 2", "x: 1");
	}

	@Test
	void sendsSensitiveFieldsAndCredentialsNeverIndexed() {
		HpackEncoder encoder = new HpackEncoder(4096);
		encoder.huffman(false);
		encoder.startBlock();
		encoder.add("x-token", "t", true);
		encoder.add("x-token", "t", true);
		encoder.add(":path", "/", true);
		encoder.add("authorization", "Basic x");
		encoder.add("set-cookie", "a=b");
		encoder.add("proxy-authorization", "p");
		encoder.add("cookie", "c=d");
		assertThat(hex(encoder.endBlock())).isEqualTo("1007782d746f6b656e0174" + "1007782d746f6b656e0174" + "14012f"
				+ "1f080742617369632078" + "1f2803613d62" + "1f220170" + "1f1103633d64");
		assertThat(encoder.table().length()).isZero();
	}

	@Test
	void indexesNoEntryOfMoreThanThreeQuartersOfTheTable() {
		HpackEncoder encoder = new HpackEncoder(4096);
		encoder.huffman(false);
		encoder.startBlock();
		encoder.add("x", "v".repeat(3039));
		assertThat(encoder.table().size()).isEqualTo(3072);
		encoder.add("y", "v".repeat(3040));
		assertThat(encoder.table().size()).isEqualTo(3072);
		ByteBuffer block = encoder.endBlock();
		assertThat(block.get(3 + 3042)).isEqualTo((byte) 0x00);
	}

	@Test
	void usesHuffmanOnlyWhenShorter() {
		HpackEncoder encoder = new HpackEncoder(4096);
		// 'www.example.com' takes 12 octets in Huffman; two 255s take 52 bits, more than 2 octets.
		assertThat(encode(encoder, ":authority: www.example.com")).isEqualTo("418cf1e3c2e5f23a6ba0ab90f4ff");
		assertThat(encode(encoder, "x: \u00ff\u00ff")).isEqualTo("40017802ffff");
	}

	@Test
	void rejectsCharactersAboveAnOctetLeavingTheBlockAndTheTableAsTheyWere() {
		HpackEncoder encoder = new HpackEncoder(4096);
		encoder.startBlock();
		encoder.add("x", "1");
		assertThatIllegalArgumentException().isThrownBy(() -> encoder.add("y", "\u20ac"));
		assertThatIllegalArgumentException().isThrownBy(() -> encoder.add("\u20ac", "1"));
		assertThat(hex(encoder.endBlock())).isEqualTo("4001780131");
		assertThat(encoder.table().length()).isEqualTo(1);
	}

	@Test
	void addsOnlyInsideABlockAndReturnsAReadOnlyView() {
		HpackEncoder encoder = new HpackEncoder(4096);
		assertThatIllegalStateException().isThrownBy(() -> encoder.add("x", "1"));
		assertThatIllegalStateException().isThrownBy(encoder::endBlock);
		encoder.startBlock();
		encoder.add(":status", "200");
		ByteBuffer block = encoder.endBlock();
		assertThat(block.isReadOnly()).isTrue();
		assertThat(block.remaining()).isEqualTo(1);
		assertThatIllegalStateException().isThrownBy(() -> encoder.add("x", "1"));
	}

	@Test
	void growsItsArrayForALargeBlock() throws Http2Exception {
		HpackEncoder encoder = new HpackEncoder(4096);
		List<String> fields = new ArrayList<>();
		for (int i = 0; i < 200; i++) {
			fields.add("x-" + i + ": " + "v".repeat(i * 10));
		}
		String block = encode(encoder, fields.toArray(new String[0]));
		HpackDecoder decoder = new HpackDecoder(4096, Long.MAX_VALUE);
		assertThat(HpackDecoderTest.decode(decoder, block)).isEqualTo(fields);
	}

	@Test
	void allocatesNothingPerFieldOnceTheTableHoldsTheFields() {
		HpackEncoder encoder = new HpackEncoder(4096);
		String big = "b".repeat(3500);
		Runnable response = () -> {
			encoder.startBlock();
			encoder.add(":status", "200");
			encoder.add("content-type", "application/json");
			encoder.add("content-length", "1234");
			encoder.add("set-cookie", "session=0123456789abcdef");
			encoder.add("x-large", big);
			encoder.add("x-secret", "s3cr3t", true);
			encoder.endBlock();
		};
		for (int i = 0; i < 20_000; i++) {
			response.run();
		}
		ThreadMXBean threads = (ThreadMXBean) ManagementFactory.getThreadMXBean();
		long start = threads.getCurrentThreadAllocatedBytes();
		for (int i = 0; i < 10_000; i++) {
			response.run();
		}
		assertThat(threads.getCurrentThreadAllocatedBytes() - start).as("bytes allocated by 10,000 blocks")
			.isLessThan(16 * 1024);
	}

	/** Encodes one block of "name: value" fields, as hex. */
	static String encode(HpackEncoder encoder, String... fields) {
		encoder.startBlock();
		for (String field : fields) {
			int colon = field.indexOf(": ", 1);
			encoder.add(field.substring(0, colon), field.substring(colon + 2));
		}
		return hex(encoder.endBlock());
	}

	private static String encoded(Consumer<HpackEncoder> writes) {
		HpackEncoder encoder = new HpackEncoder(4096);
		encoder.startBlock();
		writes.accept(encoder);
		return hex(encoder.endBlock());
	}

	static String hex(ByteBuffer block) {
		byte[] bytes = new byte[block.remaining()];
		block.duplicate().get(bytes);
		return HexFormat.of().formatHex(bytes);
	}

}
