package dev.ariadne.http2;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.fuzz.SeededCases;

/**
 * Seeded property tests of HPACK, in the manner of {@code RequestParserFuzzTest} (plain JUnit and
 * a seeded {@link Random}; see there for why not jqwik). The properties:
 * <ul>
 * <li>random fields, sensitive or not, through an encoder and a decoder, with random table sizes
 * and settings changes between blocks, come out as they went in, and the two dynamic tables stay
 * equal entry for entry;</li>
 * <li>random and mutated blocks end in fields or in a {@link ErrorCode#COMPRESSION_ERROR}
 * connection error, never another exception; the table never exceeds the setting, the fields
 * reported never exceed the header list limit, and decoding CPU is linear in the block.</li>
 * </ul>
 *
 * <p>Runs: {@value #DEFAULT_TRIES} cases per property by default. Longer: {@code -Dfuzz.tries=100000};
 * {@code -Dfuzz.seed=<number>} or {@code random} changes the seed; a failure names its case, rerun
 * alone with {@code -Dfuzz.seed=<seed> -Dfuzz.case=<index>}.
 */
class HpackFuzzTest {

	static final int DEFAULT_TRIES = 300;

	private static final int TRIES = SeededCases.tries(DEFAULT_TRIES);

	private static final SeededCases CASES = new SeededCases(20261202L, "the decoder");

	private static final String[] CUSTOM_NAMES = { "x-request-id", "custom-key", "x-a", "x-forwarded-for",
			"grpc-status", "x-\u00e9t\u00e9" };

	private static final String[] COMMON_VALUES = { "", "0", "200", "gzip", "text/html; charset=utf-8",
			"no-cache", "Mon, 21 Oct 2013 20:13:21 GMT" };

	private static final String TOKEN = "abcdefghijklmnopqrstuvwxyz0123456789-";

	private static final int[] TABLE_SIZES = { 0, 32, 64, 100, 256, 1000, 4096, 8192 };

	/** How hostile blocks are made. */
	enum Mutation {

		/** Random octets, biased toward the representations' first-octet patterns. */
		RANDOM_OCTETS,

		/** One bit of a valid block flipped. */
		FLIP_BIT,

		/** One octet of a valid block replaced by a boundary value. */
		REPLACE_OCTET,

		/** Random octets inserted into a valid block. */
		INSERT,

		/** A range of a valid block removed. */
		DELETE,

		/** A valid block cut short. */
		TRUNCATE,

		/** A range of a valid block repeated in place. */
		DUPLICATE,

		/** A long integer (a length, an index or a size) spliced into a valid block. */
		HUGE_INTEGER

	}

	@Test
	void encoderAndDecoderStayInStepThroughRandomFieldsTableSizesAndSettingsChanges() {
		CASES.run("round trip", TRIES, (random) -> {
			HpackEncoder encoder = new HpackEncoder(pick(random, TABLE_SIZES));
			encoder.huffman(random.nextInt(4) != 0);
			HpackDecoder decoder = new HpackDecoder(Settings.DEFAULT_HEADER_TABLE_SIZE, Long.MAX_VALUE);
			int blocks = 1 + random.nextInt(40);
			for (int block = 0; block < blocks; block++) {
				for (int changes = (random.nextInt(4) == 0) ? 1 + random.nextInt(3) : 0; changes > 0; changes--) {
					int size = random.nextBoolean() ? pick(random, TABLE_SIZES) : random.nextInt(10_000);
					encoder.peerMaxTableSize(size);
					decoder.maxTableSize(size);
				}
				List<String> fields = new ArrayList<>();
				encoder.startBlock();
				for (int count = random.nextInt(24); count > 0; count--) {
					String name = name(random);
					String value = value(random);
					encoder.add(name, value, random.nextInt(10) == 0);
					fields.add(name + ": " + value);
				}
				ByteBuffer encoded = encoder.endBlock();
				String where = "block " + block + " " + HpackEncoderTest.hex(encoded);
				List<String> decoded = new ArrayList<>();
				try {
					assertThat(decoder.decode(encoded, (name, value) -> decoded.add(name + ": " + value))).isTrue();
				}
				catch (Http2Exception ex) {
					throw new AssertionError(where + ": " + ex.getMessage(), ex);
				}
				assertThat(decoded).as(where).isEqualTo(fields);
				assertThat(HpackDynamicTableTest.entries(decoder.table())).as(where)
					.isEqualTo(HpackDynamicTableTest.entries(encoder.table()));
				assertThat(decoder.tableSize()).as(where).isEqualTo(encoder.table().size())
					.isLessThanOrEqualTo(encoder.table().capacity());
			}
		});
	}

	@ParameterizedTest
	@EnumSource(Mutation.class)
	void hostileBlocksEndInFieldsOrACompressionErrorWithinTheLimits(Mutation mutation) {
		CASES.run("hostile blocks, " + mutation, TRIES, (random) -> {
			int maxTableSize = pick(random, 0, 256, 4096);
			long maxListSize = pick(random, 100, 16 * 1024, Integer.MAX_VALUE);
			HpackDecoder decoder = new HpackDecoder(maxTableSize, maxListSize);
			HpackEncoder encoder = new HpackEncoder(4096);
			encoder.peerMaxTableSize(maxTableSize);
			int blocks = 1 + random.nextInt(8);
			for (int block = 0; block < blocks; block++) {
				encoder.startBlock();
				for (int count = random.nextInt(12); count > 0; count--) {
					encoder.add(name(random), value(random), random.nextInt(10) == 0);
				}
				ByteBuffer valid = encoder.endBlock();
				byte[] input = new byte[valid.remaining()];
				valid.get(input);
				if (block == blocks - 1 || random.nextInt(3) == 0) {
					input = mutate(mutation, input, random);
				}
				if (!decodeHostile(decoder, input, maxTableSize, maxListSize)) {
					return;
				}
			}
		});
	}

	/** Decodes one block, checking the properties; whether the decoder may go on. */
	private static boolean decodeHostile(HpackDecoder decoder, byte[] input, int maxTableSize, long maxListSize) {
		AtomicLong listSize = new AtomicLong();
		AtomicInteger fields = new AtomicInteger();
		long start = SeededCases.cpuNanos();
		boolean usable;
		try {
			decoder.decode(ByteBuffer.wrap(input).asReadOnlyBuffer(), (name, value) -> {
				check(input, !name.isEmpty(), "an empty name was reported");
				fields.incrementAndGet();
				listSize.addAndGet(name.length() + value.length() + 32);
			});
			usable = true;
		}
		catch (Http2Exception ex) {
			check(input, ex.error() == ErrorCode.COMPRESSION_ERROR && ex.isConnectionError(),
					"a " + ex.error() + " error: " + ex.getMessage());
			usable = false;
		}
		catch (RuntimeException ex) {
			throw new AssertionError(ex + "; input " + show(input), ex);
		}
		long elapsed = SeededCases.cpuNanos() - start;
		check(input, fields.get() <= input.length, fields.get() + " fields from " + input.length + " octets");
		check(input, listSize.get() <= maxListSize, "reported " + listSize + " octets, over " + maxListSize);
		check(input, decoder.tableSize() <= decoder.table().capacity() && decoder.table().capacity() <= maxTableSize,
				"table of " + decoder.tableSize() + " in " + decoder.table().capacity() + ", setting " + maxTableSize);
		long bound = TimeUnit.MILLISECONDS.toNanos(500) + TimeUnit.MICROSECONDS.toNanos(50) * input.length;
		check(input, elapsed <= bound, "decoding took " + elapsed / 1_000_000 + " ms of CPU");
		return usable;
	}

	private static byte[] mutate(Mutation mutation, byte[] valid, Random random) {
		int at = (valid.length == 0) ? 0 : random.nextInt(valid.length);
		byte[] out = valid.clone();
		switch (mutation) {
			case RANDOM_OCTETS -> {
				out = new byte[random.nextInt(200)];
				for (int i = 0; i < out.length; i++) {
					out[i] = (byte) (random.nextBoolean() ? pick(random, 0x00, 0x10, 0x20, 0x3f, 0x40, 0x7f, 0x80, 0xbe,
							0xff) : random.nextInt(256));
				}
			}
			case FLIP_BIT -> {
				if (out.length > 0) {
					out[at] ^= (byte) (1 << random.nextInt(8));
				}
			}
			case REPLACE_OCTET -> {
				if (out.length > 0) {
					out[at] = (byte) pick(random, 0x00, 0x01, 0x0f, 0x10, 0x1f, 0x20, 0x3f, 0x40, 0x7f, 0x80, 0xbe,
							0xff);
				}
			}
			case INSERT -> {
				byte[] noise = new byte[1 + random.nextInt(8)];
				random.nextBytes(noise);
				out = splice(valid, at, at, noise);
			}
			case DELETE -> out = splice(valid, at, Math.min(valid.length, at + 1 + random.nextInt(8)), new byte[0]);
			case TRUNCATE -> out = Arrays.copyOf(valid, at);
			case DUPLICATE -> {
				int end = Math.min(valid.length, at + 1 + random.nextInt(40));
				out = splice(valid, at, at, Arrays.copyOfRange(valid, at, end));
			}
			case HUGE_INTEGER -> out = splice(valid, at, at,
					new byte[] { (byte) pick(random, 0x3f, 0x7f, 0xff, 0x1f, 0x0f), (byte) 0xff, (byte) 0xff,
							(byte) 0xff, (byte) random.nextInt(0x10) });
		}
		return out;
	}

	private static byte[] splice(byte[] input, int from, int to, byte[] insert) {
		byte[] out = new byte[input.length - (to - from) + insert.length];
		System.arraycopy(input, 0, out, 0, from);
		System.arraycopy(insert, 0, out, from, insert.length);
		System.arraycopy(input, to, out, from + insert.length, input.length - to);
		return out;
	}

	private static String name(Random random) {
		return switch (random.nextInt(10)) {
			case 0, 1, 2, 3 -> HpackStaticTable.name(1 + random.nextInt(HpackStaticTable.LENGTH));
			case 4, 5, 6 -> pick(random, CUSTOM_NAMES);
			default -> octets(random, 1 + random.nextInt(20), random.nextInt(3) == 0);
		};
	}

	private static String value(Random random) {
		return switch (random.nextInt(20)) {
			case 0, 1, 2, 3, 4 -> HpackStaticTable.value(1 + random.nextInt(HpackStaticTable.LENGTH));
			case 5, 6, 7, 8, 9, 10 -> pick(random, COMMON_VALUES);
			case 11 -> octets(random, 500 + random.nextInt(4000), false);
			default -> octets(random, random.nextInt(60), random.nextInt(3) == 0);
		};
	}

	/** A string of lower-case letters and digits, or of any octet. */
	private static String octets(Random random, int length, boolean anyOctet) {
		char[] chars = new char[length];
		for (int i = 0; i < length; i++) {
			chars[i] = anyOctet ? (char) random.nextInt(256) : TOKEN.charAt(random.nextInt(TOKEN.length()));
		}
		return new String(chars);
	}

	private static int pick(Random random, int... choices) {
		return choices[random.nextInt(choices.length)];
	}

	private static String pick(Random random, String[] choices) {
		return choices[random.nextInt(choices.length)];
	}

	private static void check(byte[] input, boolean condition, String what) {
		if (!condition) {
			throw new AssertionError(what + "; input " + show(input));
		}
	}

	private static String show(byte[] input) {
		return input.length + " octets " + HexFormat.of().formatHex(input, 0, Math.min(input.length, 400))
				+ ((input.length > 400) ? "..." : "");
	}

}
