package dev.ariadne.http2;

import static dev.ariadne.http2.Blocks.describe;
import static dev.ariadne.http2.Blocks.feed;
import static dev.ariadne.http2.Blocks.show;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

import org.junit.jupiter.api.Test;

import dev.ariadne.http.Headers;
import dev.ariadne.http.Method;
import dev.ariadne.http.ParserLimits;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.Version;

/**
 * Seeded fuzzing of {@link RequestFields} with random field sequences: valid requests, mutated
 * ones, and noise. The properties:
 * <ul>
 * <li>every block ends in a head (or trailers) or in a stream error {@code PROTOCOL_ERROR} on its
 * stream, never in another exception;</li>
 * <li>a head made satisfies the rules: lower-case token names, no connection-specific field,
 * {@code te} only {@code trailers}, at most one {@code cookie} and one {@code host}, a target of
 * the form its method allows and with a request line's characters, version HTTP/2, a length
 * that agrees with {@code content-length};</li>
 * <li>no reason repeats a random string the block carried;</li>
 * <li>one instance reused for every block gives the outcome a fresh instance gives.</li>
 * </ul>
 *
 * <p>Runs {@value #DEFAULT_TRIES} cases by default; {@code -Dfuzz.tries=<n>} runs more,
 * {@code -Dfuzz.seed=<number>} (or {@code random}) changes the seed. A failure names the seed
 * and the case; rerun it alone with {@code -Dfuzz.seed=<seed> -Dfuzz.case=<index>}.
 */
class RequestFieldsFuzzTest {

	static final int DEFAULT_TRIES = 5000;

	private static final int TRIES = Integer.getInteger("fuzz.tries", DEFAULT_TRIES);

	private static final long SEED = seed();

	private static final int ONLY_CASE = Integer.getInteger("fuzz.case", -1);

	private static final ParserLimits LIMITS = new ParserLimits(200, 600, 12, 3000);

	private static final String[] PSEUDO = { ":method", ":scheme", ":authority", ":path", ":protocol", ":status",
			":Method", ":x", ":" };

	private static final String[] NAMES = { "accept", "x-trace", "cookie", "host", "content-length", "te", "expect",
			"connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade", "Accept", "X-Trace",
			"x trace", "x:y", "", "content-type", "user-agent", "caf\u00e9" };

	private static final String[] VALUES = { "", "GET", "POST", "CONNECT", "OPTIONS", "https", "http", "/", "*",
			"/p?q=1", "a.example", "a.example:443", "u@a", "trailers", "gzip", "0", "5", "007", "-1", "5, 5",
			"100-continue", " padded", "padded\t", "a\u0000b", "a\rb", "a\nb", "a\u0001b", "caf\u00e9", "\u20ac",
			"websocket", "/a b", "/#f", "x" };

	private static final String RANDOM_CHARS = "abcXYZ019 \t:/?#@*.-;=%\u0000\r\n\u007f\u00e9\u20ac";

	@Test
	void everyBlockEndsInAValidHeadOrAStreamError() {
		RequestFields reused = new RequestFields(LIMITS, true);
		int first = (ONLY_CASE >= 0) ? ONLY_CASE : 0;
		int last = (ONLY_CASE >= 0) ? ONLY_CASE + 1 : TRIES;
		int[] outcomes = new int[3];
		long start = System.nanoTime();
		for (int i = first; i < last; i++) {
			Random random = new Random(SEED * 31 + i);
			List<String> randomStrings = new ArrayList<>();
			List<String[]> fields = block(random, randomStrings);
			boolean trailers = random.nextInt(8) == 0;
			boolean endStream = random.nextBoolean();
			boolean extendedConnect = random.nextBoolean();
			try {
				String outcome = outcome(new RequestFields(LIMITS, extendedConnect), fields, trailers, endStream,
						randomStrings);
				outcomes[outcome.startsWith("error") ? (outcome.endsWith("(too large)") ? 2 : 1) : 0]++;
				if (extendedConnect) {
					String again = outcome(reused, fields, trailers, endStream, randomStrings);
					check(again.equals(outcome), "the reused instance gave " + again + ", a fresh one " + outcome);
				}
			}
			catch (Throwable failure) {
				throw new AssertionError("Case " + i + " of seed " + SEED + " (rerun alone with -Dfuzz.seed=" + SEED
						+ " -Dfuzz.case=" + i + "), " + (trailers ? "trailers " : "head, endStream=" + endStream + " ")
						+ show(fields) + ": " + failure, failure);
			}
		}
		System.out.printf("fuzz: HTTP/2 request blocks: %d cases in %.1f s, seed %d: %d made, %d malformed,"
				+ " %d too large%n", last - first, (System.nanoTime() - start) / 1e9, SEED, outcomes[0], outcomes[1],
				outcomes[2]);
		// a generator that only ever makes errors (or only heads) would test little
		check(ONLY_CASE >= 0 || (outcomes[0] > TRIES / 10 && outcomes[1] > TRIES / 10 && outcomes[2] > 0),
				"the cases are too one-sided to test the rules");
	}

	private static String outcome(RequestFields collector, List<String[]> fields, boolean trailers, boolean endStream,
			List<String> randomStrings) {
		feed(collector, fields);
		try {
			if (trailers) {
				Headers headers = collector.trailers(5);
				checkFields(headers);
				return "trailers " + describe(headers);
			}
			RequestHead head = collector.head(5, endStream);
			checkHead(head, endStream);
			return "head " + describe(head);
		}
		catch (Http2Exception ex) {
			check(!ex.isConnectionError() && ex.streamId() == 5, "not a stream error on stream 5");
			check(ex.error() == ErrorCode.PROTOCOL_ERROR, "error " + ex.error());
			for (String peer : randomStrings) {
				check(!ex.reason().contains(peer), "the reason '" + ex.reason() + "' repeats what the peer sent");
			}
			return "error " + ex.reason() + (collector.tooLarge() ? " (too large)" : "");
		}
	}

	private static void checkHead(RequestHead head, boolean endStream) {
		check(head.version() == Version.HTTP_2, "version " + head.version());
		checkFields(head.headers());
		check(head.headers().all("host").size() <= 1, "more than one host");
		String target = head.target();
		for (int i = 0; i < target.length(); i++) {
			char c = target.charAt(i);
			check(c > 0x20 && c < 0x7F && "\"<>\\^`{|}# ".indexOf(c) < 0, "a target character a request line refuses");
		}
		switch (head.targetForm()) {
			case ORIGIN -> check(target.startsWith("/"), "origin-form without /");
			case ASTERISK -> check(target.equals("*") && head.method() == Method.OPTIONS, "* without OPTIONS");
			case AUTHORITY -> check(head.method() == Method.CONNECT && target.indexOf(':') > 0
					&& target.indexOf('/') < 0, "authority-form without CONNECT or port");
			case ABSOLUTE -> check(false, "absolute-form from HTTP/2");
		}
		List<String> lengths = head.headers().all("content-length");
		if (lengths.isEmpty()) {
			check(head.contentLength() == -1, "a length without content-length");
			check(head.chunked() == !endStream, "unknown length although END_STREAM is " + endStream);
		}
		else {
			for (String length : lengths) {
				check(!length.isEmpty() && length.chars().allMatch((c) -> c >= '0' && c <= '9')
						&& (length.length() > 18 || Long.parseLong(length) == head.contentLength()), "content-length "
								+ length + " is not the head's " + head.contentLength());
			}
			check(!endStream || head.contentLength() == 0, "a length above 0 with END_STREAM");
		}
	}

	private static void checkFields(Headers headers) {
		check(headers.all("cookie").size() <= 1, "cookies not joined");
		check(headers.size() <= LIMITS.maxHeaderCount() + 1, "more fields than the limit");
		for (int i = 0; i < headers.size(); i++) {
			String name = headers.name(i);
			String value = headers.value(i);
			check(!name.isEmpty() && name.equals(name.toLowerCase(Locale.ROOT)), "a name not lower case");
			check(name.chars().allMatch((c) -> c < 128 && (Character.isLetterOrDigit(c) || "!#$%&'*+-.^_`|~".indexOf(c) >= 0)),
					"a name not a token");
			check(!FieldRules.isConnectionSpecific(name), "a connection-specific field");
			check(!name.equals("te") || value.equalsIgnoreCase("trailers"), "te other than trailers");
			check(value.chars().allMatch((c) -> (c >= 0x20 && c != 0x7F && c <= 0xFF) || c == '\t'),
					"a control character in a value");
			check(value.isEmpty() || (value.charAt(0) > ' ' && value.charAt(value.length() - 1) > ' '),
					"whitespace around a value");
		}
	}

	// ---- generation

	/** A valid request, then mutated: fields dropped, repeated, swapped, replaced or added. */
	private static List<String[]> block(Random random, List<String> randomStrings) {
		List<String[]> fields = new ArrayList<>();
		switch (random.nextInt(4)) {
			case 0 -> fields.addAll(Blocks.block(":method", "CONNECT", ":authority", "a.example:443"));
			case 1 -> fields.addAll(Blocks.block(":method", "CONNECT", ":protocol", "websocket", ":scheme", "https",
					":path", "/chat", ":authority", "a.example"));
			default -> {
				String method = pick(random, "GET", "POST", "OPTIONS");
				String path = method.equals("OPTIONS") && random.nextBoolean() ? "*" : pick(random, "/", "/p?q=1");
				fields.addAll(Blocks.block(":method", method, ":scheme", pick(random, "https", "http"), ":authority",
						"a.example", ":path", path));
			}
		}
		int regular = random.nextInt(6);
		for (int i = 0; i < regular; i++) {
			fields.add(pick(random, new String[] { "accept", "*/*" }, new String[] { "cookie", "a=1" },
					new String[] { "x-trace", "1" }, new String[] { "te", "trailers" },
					new String[] { "host", "a.example" }, new String[] { "content-length", "0" }));
		}
		// no mutation in about half the cases, so that valid blocks are common too
		int mutations = (random.nextBoolean()) ? 0 : 1 + random.nextInt(3);
		for (int i = 0; i < mutations && !fields.isEmpty(); i++) {
			mutate(random, fields, randomStrings);
		}
		if (random.nextInt(10) == 0) {
			// past the count limit
			for (int i = 0; i < LIMITS.maxHeaderCount(); i++) {
				fields.add(new String[] { "x-" + i, "1" });
			}
		}
		return fields;
	}

	private static void mutate(Random random, List<String[]> fields, List<String> randomStrings) {
		int at = random.nextInt(fields.size());
		switch (random.nextInt(6)) {
			case 0 -> fields.remove(at);
			case 1 -> fields.add(random.nextInt(fields.size() + 1), fields.get(at).clone());
			case 2 -> {
				int other = random.nextInt(fields.size());
				String[] field = fields.get(at);
				fields.set(at, fields.get(other));
				fields.set(other, field);
			}
			case 3 -> fields.set(at, new String[] { fields.get(at)[0], value(random, randomStrings) });
			case 4 -> fields.add(at, new String[] { name(random, randomStrings), value(random, randomStrings) });
			default -> fields.add(at, new String[] { pick(random, PSEUDO), value(random, randomStrings) });
		}
	}

	private static String name(Random random, List<String> randomStrings) {
		return (random.nextInt(4) == 0) ? randomString(random, randomStrings) : pick(random, NAMES);
	}

	private static String value(Random random, List<String> randomStrings) {
		return (random.nextInt(3) == 0) ? randomString(random, randomStrings) : pick(random, VALUES);
	}

	private static String randomString(Random random, List<String> randomStrings) {
		StringBuilder text = new StringBuilder();
		int length = random.nextInt(12);
		for (int i = 0; i < length; i++) {
			text.append(RANDOM_CHARS.charAt(random.nextInt(RANDOM_CHARS.length())));
		}
		String s = text.toString();
		if (s.length() >= 6) {
			randomStrings.add(s);
		}
		return s;
	}

	@SafeVarargs
	private static <T> T pick(Random random, T... choices) {
		return choices[random.nextInt(choices.length)];
	}

	private static void check(boolean condition, String property) {
		if (!condition) {
			throw new AssertionError(property);
		}
	}

	private static long seed() {
		String seed = System.getProperty("fuzz.seed", "20261202");
		return seed.equals("random") ? new Random().nextLong() : Long.parseLong(seed);
	}

}
