package dev.ariadne.http2;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.fuzz.SeededCases;

import dev.ariadne.http2.Frames.Outcome;
import dev.ariadne.http2.FuzzFrames.Generated;
import dev.ariadne.http2.FuzzFrames.Mutation;

/**
 * Property-based fuzzing of {@link FrameReader}, with generated valid frame streams and hostile
 * input ({@link FuzzFrames}). The properties:
 * <ul>
 * <li>a valid stream reports exactly the events it was generated with, fed whole, one byte at a
 * time, split in two at any index, or in random pieces;</li>
 * <li>any input ends either in events or in one of the reader's connection errors, never another
 * exception, and the same way however it is split;</li>
 * <li>after every {@code read} call the buffer holding a split payload is within the maximum
 * frame size, and there is none between frames;</li>
 * <li>work is bounded: at most one event per 9 bytes, and no case uses more CPU than a generous
 * linear bound; a case that uses {@value SeededCases#CASE_LIMIT_SECONDS} s of CPU fails as a loop.</li>
 * </ul>
 *
 * <p>A seeded generator under plain JUnit, as in {@code RequestParserFuzzTest} (which says why not
 * jqwik). Runs: {@value #DEFAULT_TRIES} cases per property by default. Longer:
 * {@code -Dfuzz.tries=100000}; {@code -Dfuzz.seed=<number>} changes the seed (default fixed, so
 * that the normal build is reproducible), {@code -Dfuzz.seed=random} picks one; a failure names
 * the case, rerun alone with {@code -Dfuzz.seed=<seed> -Dfuzz.case=<index>}.
 */
class FrameReaderFuzzTest {

	static final int DEFAULT_TRIES = 200;

	private static final int TRIES = SeededCases.tries(DEFAULT_TRIES);

	private static final SeededCases CASES = new SeededCases(91130609L, "the reader");

	/** Inputs up to this size are split at every index; longer ones at random indexes. */
	private static final int SPLIT_EVERYWHERE_UP_TO = 256;

	@Test
	void validStreamsReportTheirEventsWholeByteByByteAndSplitAnywhere() {
		CASES.run("valid streams", TRIES, (random) -> {
			int maxFrameSize = maxFrameSize(random);
			Generated stream = new FuzzFrames(random, maxFrameSize).valid();
			checkInput(maxFrameSize, stream.wire(), random, stream.events());
		});
	}

	@ParameterizedTest
	@EnumSource(Mutation.class)
	void hostileInputEndsOnlyInEventsOrAConnectionErrorWithBoundedMemoryWhereverItIsSplit(Mutation mutation) {
		CASES.run("hostile input, " + mutation, TRIES, (random) -> {
			int maxFrameSize = maxFrameSize(random);
			checkInput(maxFrameSize, new FuzzFrames(random, maxFrameSize).hostile(mutation), random, null);
		});
	}

	private static int maxFrameSize(Random random) {
		return random.nextBoolean() ? FrameType.MIN_MAX_FRAME_SIZE
				: FrameType.MIN_MAX_FRAME_SIZE + random.nextInt(40_000);
	}

	// ---- one input, many feedings

	/**
	 * Feeds the input whole, one byte at a time, split and in random pieces, checking the reader
	 * after every read call; every feeding must end the same way, and as expected when given.
	 */
	private static void checkInput(int maxFrameSize, byte[] input, Random random, List<String> expected) {
		long start = SeededCases.cpuNanos();
		long fed = 0;
		Outcome whole = feed(maxFrameSize, input, Frames.whole(input));
		fed += input.length;
		if (expected != null) {
			check(input, whole.equals(new Outcome(expected, null)), "fed whole, expected " + expected + " but got "
					+ whole);
		}
		check(input, whole.error() == null || FuzzFrames.ERRORS.contains(whole.error()),
				"error '" + whole.error() + "' is not one of the reader's " + FuzzFrames.ERRORS);
		List<List<byte[]>> feedings = new ArrayList<>();
		feedings.add(Frames.pieces(input, 1));
		feedings.add(randomPieces(input, random));
		feedings.add(Frames.randomPieces(input, 3, random));
		if (input.length <= SPLIT_EVERYWHERE_UP_TO) {
			for (int at = 0; at <= input.length; at++) {
				feedings.add(Frames.splitAt(input, at));
			}
		}
		else {
			for (int i = 0; i < 16; i++) {
				feedings.add(Frames.splitAt(input, random.nextInt(input.length + 1)));
			}
		}
		for (List<byte[]> chunks : feedings) {
			Outcome split = feed(maxFrameSize, input, chunks);
			fed += input.length;
			check(input, split.equals(whole), "fed in " + chunks.size() + " pieces of sizes " + sizes(chunks)
					+ ", got " + split + " but fed whole " + whole);
		}
		long elapsed = SeededCases.cpuNanos() - start;
		long bound = TimeUnit.SECONDS.toNanos(1) + TimeUnit.MICROSECONDS.toNanos(100) * fed;
		check(input, elapsed <= bound, "reading " + fed + " bytes took " + elapsed / 1_000_000
				+ " ms of CPU, more than a linear bound allows");
	}

	private static Outcome feed(int maxFrameSize, byte[] input, List<byte[]> chunks) {
		Outcome outcome;
		try {
			outcome = Frames.outcome(new FrameReader(maxFrameSize), chunks, (reader) -> {
				int held = reader.holdingCapacity();
				if (held > maxFrameSize || (reader.isIdle() && held != 0)) {
					throw new AssertionError("the reader holds a buffer of " + held + " bytes"
							+ (reader.isIdle() ? " between frames" : "") + ", maximum frame size " + maxFrameSize);
				}
			});
		}
		catch (RuntimeException | AssertionError ex) {
			throw new AssertionError("fed in " + chunks.size() + " pieces: " + ex + "; input " + show(input), ex);
		}
		check(input, outcome.events().size() <= input.length / FrameType.HEADER_LENGTH,
				outcome.events().size() + " events for " + input.length + " bytes");
		return outcome;
	}

	private static List<byte[]> randomPieces(byte[] input, Random random) {
		List<byte[]> pieces = new ArrayList<>();
		int from = 0;
		while (from < input.length) {
			int size = 1 + random.nextInt(random.nextBoolean() ? 12 : 2048);
			int to = Math.min(input.length, from + size);
			pieces.add(Arrays.copyOfRange(input, from, to));
			from = to;
		}
		return pieces;
	}

	private static String sizes(List<byte[]> chunks) {
		if (chunks.size() > 8) {
			return "(" + chunks.size() + " pieces)";
		}
		return chunks.stream().map((chunk) -> String.valueOf(chunk.length)).toList().toString();
	}

	private static void check(byte[] input, boolean condition, String what) {
		if (!condition) {
			throw new AssertionError(what + "; input " + show(input));
		}
	}

	private static String show(byte[] input) {
		int shown = Math.min(input.length, 200);
		String text = RecordingFrameListener.quote(Arrays.copyOf(input, shown));
		return input.length + " bytes " + text + ((shown < input.length) ? "..." : "");
	}

}
