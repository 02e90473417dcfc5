package dev.ariadne.websocket;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.fuzz.SeededCases;
import dev.ariadne.websocket.FuzzFrames.Generated;
import dev.ariadne.websocket.FuzzFrames.Mutation;
import dev.ariadne.websocket.PerMessageDeflate.Options;
import dev.ariadne.websocket.WsFrames.Outcome;

/**
 * Property-based fuzzing of {@link FrameReader}, with generated valid streams and hostile input
 * ({@link FuzzFrames}), without an extension and with permessage-deflate (context takeover kept
 * or not). The properties:
 * <ul>
 * <li>a valid stream reports exactly the events it was generated with, fed whole, one byte at a
 * time (up to 16 KiB), split in two at any index, or in random pieces;</li>
 * <li>any input ends either in events or in a {@link WebSocketException} with one of the
 * reader's close codes (1002, 1007, 1009), never another exception, and the same way however it
 * is split; text with an invalid sequence ends in 1007; the listener's checks of the contract
 * ({@link RecordingListener}: read-only buffers, whole messages of valid UTF-8, nothing after a
 * close) hold throughout;</li>
 * <li>work is bounded: at most one event per 6 bytes (a client's smallest frame), and no case
 * uses more CPU than a generous linear bound; a case that uses
 * {@value SeededCases#CASE_LIMIT_SECONDS} s of CPU fails as a loop.</li>
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

	private static final SeededCases CASES = new SeededCases(64557692L, "the reader");

	private static final Set<Integer> ERRORS = Set.of(CloseCode.PROTOCOL_ERROR, CloseCode.INVALID_PAYLOAD,
			CloseCode.MESSAGE_TOO_BIG);

	/**
	 * Inputs up to this size are also fed a byte at a time; longer ones (a message beyond 64 KiB)
	 * only in random pieces, down to a byte, which cost less.
	 */
	private static final int BYTE_BY_BYTE_UP_TO = 16 * 1024;

	/** Inputs up to this size are split at every index; longer ones at random indexes. */
	private static final int SPLIT_EVERYWHERE_UP_TO = 256;

	/** Limits no valid stream reaches. */
	private static final WebSocketLimits LARGE = new WebSocketLimits(1 << 20, 1 << 20);

	/** The extension the reader has agreed to. */
	enum Extension {

		NONE, DEFLATE, DEFLATE_WITHOUT_CONTEXT_TAKEOVER;

		PerMessageDeflate agreement() {
			return switch (this) {
				case NONE -> null;
				case DEFLATE -> agreement(Options.DEFAULTS);
				case DEFLATE_WITHOUT_CONTEXT_TAKEOVER -> agreement(new Options(false, false, -1));
			};
		}

		private static PerMessageDeflate agreement(Options options) {
			return PerMessageDeflate.accept(new dev.ariadne.websocket.Extension(PerMessageDeflate.NAME, List.of()),
					options);
		}

	}

	@ParameterizedTest
	@EnumSource(Extension.class)
	void validStreamsReportTheirEventsWholeByteByByteAndSplitAnywhere(Extension extension) {
		CASES.run("valid streams, " + extension, TRIES, (random) -> {
			FuzzFrames frames = new FuzzFrames(random, extension.agreement());
			Generated stream = frames.valid();
			frames.close();
			checkInput(extension, LARGE, stream.wire(), random, new Outcome(stream.events(), 0));
		});
	}

	@ParameterizedTest
	@EnumSource(Mutation.class)
	void hostileInputEndsOnlyInEventsOrACloseCodeWhereverItIsSplit(Mutation mutation) {
		for (Extension extension : Extension.values()) {
			CASES.run("hostile input, " + mutation + ", " + extension, TRIES / 2, (random) -> {
				FuzzFrames frames = new FuzzFrames(random, extension.agreement());
				Generated stream = frames.hostile(mutation);
				frames.close();
				WebSocketLimits limits = random.nextBoolean() ? LARGE
						: new WebSocketLimits(1 + random.nextInt(300), 1 + random.nextInt(600));
				Outcome outcome = checkInput(extension, limits, stream.wire(), random, null);
				if (stream.error() != 0 && limits == LARGE) {
					check(stream.wire(), outcome.error() == stream.error(),
							"expected close code " + stream.error() + " but got " + outcome);
				}
			});
		}
	}

	// ---- one input, many feedings

	/**
	 * Feeds the input whole, one byte at a time, split and in random pieces; every feeding must
	 * end the same way, and as expected when given.
	 */
	private static Outcome checkInput(Extension extension, WebSocketLimits limits, byte[] input, Random random,
			Outcome expected) {
		long start = SeededCases.cpuNanos();
		long fed = 0;
		Outcome whole = feed(extension, limits, input, WsFrames.whole(input));
		fed += input.length;
		if (expected != null) {
			check(input, whole.equals(expected), "fed whole, expected " + expected + " but got " + whole);
		}
		check(input, whole.error() == 0 || ERRORS.contains(whole.error()),
				"close code " + whole.error() + " is not one of the reader's " + ERRORS);
		List<List<byte[]>> feedings = new ArrayList<>();
		if (input.length <= BYTE_BY_BYTE_UP_TO) {
			feedings.add(WsFrames.pieces(input, 1));
		}
		feedings.add(randomPieces(input, random));
		feedings.add(WsFrames.randomPieces(input, 3, random));
		if (input.length <= SPLIT_EVERYWHERE_UP_TO) {
			for (int at = 0; at <= input.length; at++) {
				feedings.add(WsFrames.splitAt(input, at));
			}
		}
		else {
			for (int i = 0; i < 16; i++) {
				feedings.add(WsFrames.splitAt(input, random.nextInt(input.length + 1)));
			}
		}
		for (List<byte[]> chunks : feedings) {
			Outcome split = feed(extension, limits, input, chunks);
			fed += input.length;
			check(input, split.equals(whole), "fed in " + chunks.size() + " pieces of sizes " + sizes(chunks)
					+ " to a reader with " + limits + ", got " + split + " but fed whole " + whole);
		}
		long elapsed = SeededCases.cpuNanos() - start;
		long bound = TimeUnit.SECONDS.toNanos(1) + TimeUnit.MICROSECONDS.toNanos(100) * fed;
		check(input, elapsed <= bound, "reading " + fed + " bytes took " + elapsed / 1_000_000
				+ " ms of CPU, more than a linear bound allows");
		return whole;
	}

	private static Outcome feed(Extension extension, WebSocketLimits limits, byte[] input, List<byte[]> chunks) {
		Outcome outcome;
		try (FrameReader reader = new FrameReader(limits, extension.agreement())) {
			outcome = WsFrames.outcome(reader, chunks);
		}
		catch (RuntimeException | AssertionError ex) {
			throw new AssertionError("fed in " + chunks.size() + " pieces to a reader with " + limits + ": " + ex
					+ "; input " + show(input), ex);
		}
		check(input, outcome.events().size() <= input.length / 6,
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
		String text = RecordingListener.hex(Arrays.copyOf(input, shown));
		return input.length + " bytes " + text + ((shown < input.length) ? "..." : "");
	}

}
