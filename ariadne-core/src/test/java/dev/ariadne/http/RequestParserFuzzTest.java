package dev.ariadne.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import dev.ariadne.fuzz.SeededCases;

import dev.ariadne.http.FuzzRequests.Generated;
import dev.ariadne.http.FuzzRequests.Mutation;
import dev.ariadne.http.Wire.Outcome;

/**
 * Property-based fuzzing of {@link RequestParser}, with generated valid pipelines and hostile
 * input ({@link FuzzRequests}). The properties:
 * <ul>
 * <li>a valid request reports exactly the events it was generated with, fed whole, one byte at a
 * time, split at any index, or in random pieces;</li>
 * <li>any input ends either in events or in an {@link HttpParseException} with one of the
 * parser's statuses, never another exception, and the same way however it is split;</li>
 * <li>after every {@code parse} call the unfinished line the parser holds is within the limit of
 * its state, and its line buffer within twice the largest limit, whatever the input; no
 * request's content exceeds {@code maxBodySize};</li>
 * <li>work is bounded: at most one event per byte, and no case uses more CPU than a generous
 * linear bound; a case that uses {@value SeededCases#CASE_LIMIT_SECONDS} s of CPU fails as a loop.</li>
 * </ul>
 *
 * <p>Why not jqwik: net.jqwik:jqwik 1.10.1 does run on the JUnit Platform 6.0.3 that the Spring
 * Boot BOM brings, but its engine writes a message addressed to AI agents into every test run,
 * asking them not to use the library and to disregard its results. This code is written with an
 * AI agent, so we respect the authors' request, and a test engine that tells readers to ignore
 * its results has no place in a reliability suite. A seeded generator under plain JUnit gives
 * the same properties: reproducible cases, many inputs per property, and a failure that names
 * its seed.
 *
 * <p>Runs: {@value #DEFAULT_TRIES} cases per property by default (a few seconds in all). Longer:
 * {@code -Dfuzz.tries=200000}; {@code -Dfuzz.seed=<number>} changes the seed (default fixed, so
 * that the normal build is reproducible), {@code -Dfuzz.seed=random} picks one; a failure names
 * the case, rerun alone with {@code -Dfuzz.seed=<seed> -Dfuzz.case=<index>}.
 */
class RequestParserFuzzTest {

	static final int DEFAULT_TRIES = 200;

	private static final int TRIES = SeededCases.tries(DEFAULT_TRIES);

	private static final SeededCases CASES = new SeededCases(20250729L, "the parser");

	/** Small limits, so that generated and mutated input reaches every limit often. */
	private static final ParserLimits SMALL = new ParserLimits(200, 600, 12, 3000);

	/** Inputs up to this size are split at every index; longer ones at random indexes. */
	private static final int SPLIT_EVERYWHERE_UP_TO = 256;

	static Stream<Arguments> limits() {
		return Stream.of(Arguments.of("default limits", ParserLimits.DEFAULTS), Arguments.of("small limits", SMALL));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("limits")
	void validPipelinesReportTheirEventsWholeByteByByteAndSplitAnywhere(String name, ParserLimits limits) {
		CASES.run("valid pipelines, " + name, TRIES, (random) -> {
			Generated request = new FuzzRequests(random, limits).pipeline();
			checkInput(limits, request.wire(), random, request.events());
		});
	}

	@ParameterizedTest
	@EnumSource(Mutation.class)
	void hostileInputEndsOnlyInEventsOrAStatusWithinTheLimitsWhereverItIsSplit(Mutation mutation) {
		CASES.run("hostile input, " + mutation, TRIES, (random) -> {
			ParserLimits limits = random.nextBoolean() ? SMALL : ParserLimits.DEFAULTS;
			checkInput(limits, new FuzzRequests(random, limits).hostile(mutation), random, null);
		});
	}

	@Test
	void deepChunkSequencesReportOneContentAndCompleteWithBoundedWork() {
		CASES.run("deep chunk sequences", Math.max(1, TRIES / 100), (random) -> {
			Generated request = new FuzzRequests(random, ParserLimits.DEFAULTS).deepChunks(20_000);
			checkInput(ParserLimits.DEFAULTS, request.wire(), random, request.events());
		});
	}

	// ---- one input, many feedings

	/**
	 * Feeds the input whole, one byte at a time, split and in random pieces, checking the parser
	 * after every parse call; every feeding must end the same way, and as expected when given.
	 */
	private static void checkInput(ParserLimits limits, byte[] input, Random random, List<String> expected) {
		long start = SeededCases.cpuNanos();
		long fed = 0;
		Outcome whole = feed(limits, input, Wire.whole(input));
		fed += input.length;
		if (expected != null) {
			check(input, whole.status() == 0 && whole.events().equals(expected),
					"fed whole, expected " + expected + " but got " + whole);
		}
		check(input, whole.status() == 0 || FuzzRequests.STATUSES.contains(whole.status()),
				"status " + whole.status() + " is not one of the parser's " + FuzzRequests.STATUSES);
		List<List<byte[]>> feedings = new ArrayList<>();
		feedings.add(Wire.pieces(input, 1));
		feedings.add(randomPieces(input, random));
		if (input.length <= SPLIT_EVERYWHERE_UP_TO) {
			for (int at = 0; at <= input.length; at++) {
				feedings.add(Wire.splitAt(input, at));
			}
		}
		else {
			for (int i = 0; i < 16; i++) {
				feedings.add(Wire.splitAt(input, random.nextInt(input.length + 1)));
			}
		}
		for (List<byte[]> chunks : feedings) {
			Outcome split = feed(limits, input, chunks);
			fed += input.length;
			check(input, split.equals(whole), "fed in " + chunks.size() + " pieces of sizes " + sizes(chunks)
					+ ", got " + split + " but fed whole " + whole);
		}
		long elapsed = SeededCases.cpuNanos() - start;
		long bound = TimeUnit.SECONDS.toNanos(1) + TimeUnit.MICROSECONDS.toNanos(100) * fed;
		check(input, elapsed <= bound, "parsing " + fed + " bytes took " + elapsed / 1_000_000
				+ " ms of CPU, more than a linear bound allows");
	}

	private static Outcome feed(ParserLimits limits, byte[] input, List<byte[]> chunks) {
		int lineLimit = Math.max(limits.maxLineLength() + 1,
				Math.max(limits.maxHeaderSize(), RequestParser.MAX_CHUNK_LINE_LENGTH));
		Outcome outcome;
		try {
			outcome = Wire.outcome(limits, chunks, (parser) -> {
				int held = parser.bufferedLineBytes();
				int allowed = switch (parser.state()) {
					case REQUEST_LINE -> limits.maxLineLength() + 1;
					case HEADERS, TRAILERS -> limits.maxHeaderSize();
					case CHUNK_SIZE -> RequestParser.MAX_CHUNK_LINE_LENGTH;
					case CHUNK_END -> 1;
					default -> 0;
				};
				if (held > allowed || parser.lineBufferCapacity() > Math.max(128, 2 * lineLimit)) {
					throw new AssertionError("the parser holds " + held + " bytes of a line in state "
							+ parser.state() + " (allowed " + allowed + "), in a buffer of "
							+ parser.lineBufferCapacity() + " bytes");
				}
			});
		}
		catch (RuntimeException | AssertionError ex) {
			throw new AssertionError("fed in " + chunks.size() + " pieces: " + ex + "; input " + show(input), ex);
		}
		check(input, outcome.events().size() <= input.length + 1,
				outcome.events().size() + " events for " + input.length + " bytes");
		check(input, outcome.largestBody() <= limits.maxBodySize(),
				"a request reported " + outcome.largestBody() + " content bytes, over " + limits.maxBodySize());
		return outcome;
	}

	private static List<byte[]> randomPieces(byte[] input, Random random) {
		List<byte[]> pieces = new ArrayList<>();
		int from = 0;
		while (from < input.length) {
			int size = 1 + random.nextInt(random.nextBoolean() ? 8 : 512);
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
		int shown = Math.min(input.length, 600);
		String text = Wire.escape(Arrays.copyOf(input, shown));
		return input.length + " bytes '" + text + ((shown < input.length) ? "...'" : "'");
	}

}
