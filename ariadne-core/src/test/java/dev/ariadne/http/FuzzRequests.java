package dev.ariadne.http;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * A seeded generator of HTTP/1.1 requests for {@link RequestParserFuzzTest}: valid pipelines
 * written together with the events a correct parser reports for them (in
 * {@link RecordingSink}'s format), and mutations of them.
 *
 * <p>Valid requests vary every choice RFC 9112 leaves to the client: known and extension
 * methods, origin-, absolute- and asterisk-form targets, HTTP/1.0, 1.1 and higher 1.x versions,
 * CRLF or bare LF line ends in the head, OWS around field values, obs-text and HTAB inside them,
 * repeated and identical {@code Content-Length} values with leading zeros, chunked bodies with
 * extensions (whitespace after their semicolons) and trailers, {@code Connection} token lists,
 * {@code Expect: 100-continue}, and empty lines between pipelined requests. Chunked framing gets
 * CRLF only (RFC 9112 §7.1), and nothing between a chunk size and its extensions (the grammar's
 * BWS there, which the parser refuses). Each stays within the limits it is built for.
 *
 * <p>Everything comes from the one {@link Random} given, so a seed reproduces a case.
 */
final class FuzzRequests {

	private static final String[] KNOWN_METHODS = { "GET", "HEAD", "POST", "PUT", "DELETE", "PATCH", "OPTIONS",
			"TRACE" };

	/** Field names the parser knows, spelled as it reports them, that carry no framing meaning. */
	private static final String[] PLAIN_KNOWN_NAMES = { "Accept", "User-Agent", "Cookie", "Cache-Control",
			"Content-Type", "Referer" };

	private static final String TCHAR = "!#$%&'*+-.^_`|~0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

	/** Visible ASCII allowed in a target, without '/' and '?' (placed on purpose). */
	private static final String TARGET_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			+ "-._~!$&'()*+,;=:@%[]";

	private static final String HOST_CHARS = "abcdefghijklmnopqrstuvwxyz0123456789-.";

	private static final String[] CONNECTION_TOKENS = { "close", "keep-alive", "Upgrade", "x-private", "TE" };

	/** Statuses the parser may answer with. */
	static final List<Integer> STATUSES = List.of(400, 413, 414, 417, 431, 501, 505);

	private final Random random;

	private final ParserLimits limits;

	FuzzRequests(Random random, ParserLimits limits) {
		this.random = random;
		this.limits = limits;
	}

	/**
	 * Bytes of valid requests and the events they must produce.
	 * @param wire the bytes
	 * @param events the events, in {@link RecordingSink}'s format
	 */
	record Generated(byte[] wire, List<String> events) {
	}

	// ---- valid requests

	/**
	 * Writes one to three pipelined valid requests.
	 * @return the requests and their events
	 */
	Generated pipeline() {
		ByteArrayOutputStream wire = new ByteArrayOutputStream();
		List<String> events = new ArrayList<>();
		int count = 1 + this.random.nextInt(3);
		for (int i = 0; i < count; i++) {
			request(wire, events, this.random.nextInt(8) == 0 ? 200 + this.random.nextInt(2000) : 0);
		}
		return new Generated(wire.toByteArray(), events);
	}

	/**
	 * Writes one valid chunked request with many small chunks.
	 * @param chunks how many data chunks
	 * @return the request and its events
	 */
	Generated deepChunks(int chunks) {
		ByteArrayOutputStream wire = new ByteArrayOutputStream();
		List<String> events = new ArrayList<>();
		String eol = eol();
		write(wire, "POST /deep HTTP/1.1" + eol + "Host: deep" + eol + "Transfer-Encoding: chunked" + eol + eol);
		events.add("head POST /deep HTTP/1.1 [Host: deep, Transfer-Encoding: chunked] chunked");
		ByteArrayOutputStream body = new ByteArrayOutputStream();
		for (int i = 0; i < chunks; i++) {
			byte[] data = bytes(1 + this.random.nextInt(3));
			body.writeBytes(data);
			write(wire, Integer.toHexString(data.length) + (this.random.nextBoolean() ? ";i=" + i : "") + "\r\n");
			wire.writeBytes(data);
			write(wire, "\r\n");
		}
		write(wire, "0\r\n\r\n");
		events.add("content '" + Wire.escape(body.toByteArray()) + "'");
		events.add("complete");
		return new Generated(wire.toByteArray(), events);
	}

	private void request(ByteArrayOutputStream wire, List<String> events, int bodyHint) {
		int emptyLines = (this.random.nextInt(5) == 0) ? 1 + this.random.nextInt(2) : 0;
		for (int i = 0; i < emptyLines; i++) {
			write(wire, eol());
		}
		String versionText = version();
		boolean http10 = versionText.equals("HTTP/1.0");
		String method = method();
		String[] target = target(method, this.limits.maxLineLength() - method.length() - 10);
		write(wire, method + " " + target[0] + " " + versionText + eol());

		List<String[]> fields = new ArrayList<>();
		String bodyKind = http10 ? pick("none", "length") : pick("none", "length", "chunked");
		int maxBody = (int) Math.min(this.limits.maxBodySize(), (bodyHint > 0) ? bodyHint : 64);
		byte[] body = bytes(this.random.nextInt(maxBody + 1));
		long contentLength = -1;
		if (!http10 || this.random.nextBoolean()) {
			fields.add(field("Host", "Host", host()));
		}
		if (bodyKind.equals("length")) {
			contentLength = body.length;
			fields.addAll(contentLengthFields(body.length));
		}
		if (bodyKind.equals("chunked")) {
			fields.add(field("Transfer-Encoding", "Transfer-Encoding", randomCase("chunked")));
		}
		boolean closeRequested = false;
		boolean keepAliveRequested = false;
		if (this.random.nextInt(3) == 0) {
			List<String> tokens = new ArrayList<>();
			for (int i = 0, n = 1 + this.random.nextInt(3); i < n; i++) {
				tokens.add(randomCase(pick(CONNECTION_TOKENS)));
			}
			closeRequested = tokens.stream().anyMatch((token) -> token.equalsIgnoreCase("close"));
			keepAliveRequested = tokens.stream().anyMatch((token) -> token.equalsIgnoreCase("keep-alive"));
			fields.add(field("Connection", "Connection", String.join(pick(",", ", ", " ,\t"), tokens)));
		}
		boolean expectContinue = false;
		if (this.random.nextInt(8) == 0) {
			fields.add(field("Expect", "Expect", randomCase("100-continue")));
			expectContinue = !http10;
		}
		addPlainFields(fields, this.limits.maxHeaderCount() - fields.size(),
				this.limits.maxHeaderSize() - sectionBytes(fields) - 2);
		Collections.shuffle(fields, this.random);
		for (String[] field : fields) {
			write(wire, field[0] + ":" + field[2] + eol());
		}
		write(wire, eol());

		StringBuilder head = new StringBuilder("head ").append(method)
			.append(' ')
			.append(target[0])
			.append(' ')
			.append(http10 ? "HTTP/1.0" : "HTTP/1.1")
			.append(' ')
			.append(describe(fields));
		if (!target[1].equals("ORIGIN")) {
			head.append(" form=").append(target[1]);
		}
		if (!target[2].equals(target[0])) {
			head.append(" path=").append(target[2]);
		}
		if (contentLength >= 0) {
			head.append(" length=").append(contentLength);
		}
		if (bodyKind.equals("chunked")) {
			head.append(" chunked");
		}
		if (expectContinue) {
			head.append(" expect-continue");
		}
		if (closeRequested || (http10 && !keepAliveRequested)) {
			head.append(" close");
		}
		events.add(head.toString());

		List<String[]> trailers = List.of();
		if (bodyKind.equals("length")) {
			wire.writeBytes(body);
		}
		else if (bodyKind.equals("chunked")) {
			trailers = chunked(wire, body);
		}
		if (bodyKind.equals("none")) {
			body = new byte[0];
		}
		if (body.length > 0) {
			events.add("content '" + Wire.escape(body) + "'");
		}
		events.add(trailers.isEmpty() ? "complete" : "complete " + describe(trailers));
	}

	/** Writes the body chunked, with extensions and trailers; returns the trailers. */
	private List<String[]> chunked(ByteArrayOutputStream wire, byte[] body) {
		int position = 0;
		while (position < body.length) {
			int size = Math.min(body.length - position, 1 + this.random.nextInt(this.random.nextBoolean() ? 8 : 200));
			String hex = Integer.toHexString(size);
			hex = "0".repeat(this.random.nextInt(4) == 0 ? this.random.nextInt(4) : 0)
					+ (this.random.nextBoolean() ? hex : hex.toUpperCase(Locale.ROOT));
			write(wire, hex + chunkExtensions() + "\r\n");
			wire.write(body, position, size);
			write(wire, "\r\n");
			position += size;
		}
		write(wire, "0".repeat(1 + this.random.nextInt(2)) + chunkExtensions() + "\r\n");
		List<String[]> trailers = new ArrayList<>();
		if (this.random.nextInt(3) == 0) {
			addPlainFields(trailers, Math.min(3, this.limits.maxHeaderCount()), this.limits.maxHeaderSize() - 2);
		}
		for (String[] field : trailers) {
			write(wire, field[0] + ":" + field[2] + "\r\n");
		}
		write(wire, "\r\n");
		return trailers;
	}

	private String chunkExtensions() {
		StringBuilder extensions = new StringBuilder();
		for (int i = 0, n = (this.random.nextInt(3) == 0) ? 1 + this.random.nextInt(3) : 0; i < n; i++) {
			extensions.append(';').append(pick("", "", " ", "\t")).append(token(1 + this.random.nextInt(6)));
			switch (this.random.nextInt(3)) {
				case 0 -> extensions.append('=').append(token(1 + this.random.nextInt(6)));
				case 1 -> extensions.append("=\"").append(pick("a;b", "x y", "q=1", "")).append('"');
				default -> {
				}
			}
		}
		return extensions.toString();
	}

	private List<String[]> contentLengthFields(int length) {
		String value = "0".repeat(this.random.nextInt(4) == 0 ? 1 + this.random.nextInt(3) : 0) + length;
		return switch (this.random.nextInt(5)) {
			case 0 -> List.<String[]>of(field("content-length", "Content-Length", value),
					field("Content-Length", "Content-Length", String.valueOf(length)));
			case 1 -> List.<String[]>of(field("Content-Length", "Content-Length", length + pick(",", " , ", ",\t") + length));
			default -> List.<String[]>of(field(randomCase("Content-Length"), "Content-Length", value));
		};
	}

	/** Adds fields that carry no framing meaning, within a field count and byte budget. */
	private void addPlainFields(List<String[]> fields, int maxCount, int maxBytes) {
		int budget = maxBytes;
		for (int i = 0, n = this.random.nextInt(Math.max(1, Math.min(maxCount, 8)) + 1); i < n && i < maxCount; i++) {
			String[] field;
			if (this.random.nextInt(3) == 0) {
				String name = pick(PLAIN_KNOWN_NAMES);
				field = field(randomCase(name), name, value());
			}
			else {
				String name = "X-" + token(1 + this.random.nextInt(12));
				field = field(name, name, value());
			}
			int length = field[0].length() + 1 + field[2].length() + 2;
			if (length > budget) {
				return;
			}
			budget -= length;
			fields.add(field);
		}
	}

	/** A field: its name on the wire, the name the parser reports, the raw value with OWS, the value. */
	private String[] field(String wireName, String reportedName, String value) {
		String ows = pick("", " ", "  ", "\t", " \t");
		String trailing = pick("", "", " ", "\t");
		return new String[] { wireName, reportedName, ows + value + trailing, value };
	}

	private static String describe(List<String[]> fields) {
		List<String> described = new ArrayList<>(fields.size());
		for (String[] field : fields) {
			described.add(field[1] + ": " + Wire.escape(field[3]));
		}
		return described.toString();
	}

	/** Bytes the fields take in a header section with CRLF line ends. */
	private static int sectionBytes(List<String[]> fields) {
		int bytes = 0;
		for (String[] field : fields) {
			bytes += field[0].length() + 1 + field[2].length() + 2;
		}
		return bytes;
	}

	/** A field value: visible ASCII, obs-text, and SP or HTAB inside it. */
	private String value() {
		int length = this.random.nextInt(this.random.nextInt(10) == 0 ? 120 : 20);
		StringBuilder value = new StringBuilder(length);
		for (int i = 0; i < length; i++) {
			int kind = this.random.nextInt(20);
			char c;
			if (kind == 0) {
				c = (char) (0x80 + this.random.nextInt(0x80));
			}
			else if (kind == 1 && i > 0 && i < length - 1) {
				c = this.random.nextBoolean() ? ' ' : '\t';
			}
			else {
				c = (char) (0x21 + this.random.nextInt(0x7F - 0x21));
			}
			value.append(c);
		}
		return value.toString();
	}

	private String method() {
		String method = (this.random.nextInt(6) == 0) ? token(1 + this.random.nextInt(10)).toUpperCase(Locale.ROOT)
				: pick(KNOWN_METHODS);
		// CONNECT takes an authority-form target, which these requests never have
		return method.equals("CONNECT") ? "GET" : method;
	}

	private String version() {
		int roll = this.random.nextInt(10);
		return (roll < 2) ? "HTTP/1.0" : (roll == 2) ? "HTTP/1." + (2 + this.random.nextInt(8)) : "HTTP/1.1";
	}

	/** Returns the target, its form, and the path and query the parser derives from it. */
	private String[] target(String method, int maxLength) {
		if (method.equals("OPTIONS") && this.random.nextInt(3) == 0) {
			return new String[] { "*", "ASTERISK", "*" };
		}
		String path = path(Math.max(1, maxLength - 40));
		if (this.random.nextInt(6) == 0) {
			String authority = pick("http://", "https://", "HTTP://", "Https://") + host();
			String rest = switch (this.random.nextInt(3)) {
				case 0 -> "";
				case 1 -> "?" + segment(6);
				default -> path;
			};
			String pathAndQuery = rest.isEmpty() ? "/" : (rest.charAt(0) == '?') ? "/" + rest : rest;
			return new String[] { authority + rest, "ABSOLUTE", pathAndQuery };
		}
		return new String[] { path, "ORIGIN", path };
	}

	private String path(int maxLength) {
		StringBuilder path = new StringBuilder("/");
		int segments = this.random.nextInt(5);
		for (int i = 0; i < segments && path.length() < maxLength - 20; i++) {
			path.append(segment(1 + this.random.nextInt(12)));
			if (i < segments - 1) {
				path.append('/');
			}
		}
		if (this.random.nextInt(3) == 0 && path.length() < maxLength - 20) {
			path.append('?').append(segment(this.random.nextInt(15)));
		}
		if (this.random.nextInt(20) == 0) {
			// long targets, near the line limit
			int fill = Math.max(0, maxLength - path.length());
			path.append("a".repeat(this.random.nextInt(fill + 1)));
		}
		return path.toString();
	}

	private String segment(int length) {
		StringBuilder segment = new StringBuilder(length);
		for (int i = 0; i < length; i++) {
			segment.append(TARGET_CHARS.charAt(this.random.nextInt(TARGET_CHARS.length())));
		}
		return segment.toString();
	}

	private String host() {
		StringBuilder host = new StringBuilder();
		for (int i = 0, n = 1 + this.random.nextInt(12); i < n; i++) {
			host.append(HOST_CHARS.charAt(this.random.nextInt(HOST_CHARS.length())));
		}
		if (this.random.nextBoolean()) {
			host.append(':').append(this.random.nextInt(65536));
		}
		return host.toString();
	}

	private String token(int length) {
		StringBuilder token = new StringBuilder(length);
		for (int i = 0; i < length; i++) {
			token.append(TCHAR.charAt(this.random.nextInt(TCHAR.length())));
		}
		return token.toString();
	}

	private String eol() {
		return (this.random.nextInt(4) == 0) ? "\n" : "\r\n";
	}

	private String randomCase(String text) {
		StringBuilder cased = new StringBuilder(text.length());
		boolean mixed = this.random.nextInt(3) == 0;
		for (char c : text.toCharArray()) {
			cased.append((mixed && this.random.nextBoolean()) ? Character.toUpperCase(c) : c);
		}
		return cased.toString();
	}

	private byte[] bytes(int length) {
		byte[] bytes = new byte[length];
		this.random.nextBytes(bytes);
		return bytes;
	}

	@SafeVarargs
	private <T> T pick(T... choices) {
		return choices[this.random.nextInt(choices.length)];
	}

	private static void write(ByteArrayOutputStream wire, String text) {
		wire.writeBytes(text.getBytes(StandardCharsets.ISO_8859_1));
	}

	// ---- hostile input

	/** Ways to damage or replace a valid request. */
	enum Mutation {

		/** Cut off at any byte. */
		TRUNCATE,

		/** A range of bytes repeated in place. */
		DUPLICATE,

		/** A range of bytes removed. */
		DELETE,

		/** Random bytes overwritten with random values. */
		FLIP,

		/** CR, LF, NUL, SP, HTAB, colon, DEL or obs-text inserted anywhere. */
		INSERT_SEPARATOR,

		/** The head of one pipeline joined to the tail of another. */
		SPLICE,

		/** A number replaced by a huge one: lengths, chunk sizes, versions, leading zeros. */
		HUGE_NUMBER,

		/** Thousands of tiny chunks, sometimes past the body limit or damaged. */
		DEEP_CHUNKS,

		/** One line repeated many times: the field count and section size limits. */
		REPEAT_LINE,

		/** One line made very long: the line limits. */
		LONG_LINE,

		/** Random bytes. */
		RANDOM_BYTES,

		/** Random HTTP-looking tokens and separators. */
		HTTP_NOISE

	}

	/**
	 * Produces hostile input of the given kind.
	 * @param mutation the kind
	 * @return the bytes
	 */
	byte[] hostile(Mutation mutation) {
		byte[] valid = pipeline().wire();
		return switch (mutation) {
			case TRUNCATE -> copy(valid, 0, this.random.nextInt(valid.length + 1));
			case DUPLICATE -> {
				int from = this.random.nextInt(valid.length);
				int to = from + this.random.nextInt(Math.min(valid.length - from, 64) + 1);
				yield join(copy(valid, 0, to), copy(valid, from, valid.length));
			}
			case DELETE -> {
				int from = this.random.nextInt(valid.length);
				int to = from + this.random.nextInt(Math.min(valid.length - from, 16) + 1);
				yield join(copy(valid, 0, from), copy(valid, to, valid.length));
			}
			case FLIP -> {
				for (int i = 0, n = 1 + this.random.nextInt(4); i < n; i++) {
					valid[this.random.nextInt(valid.length)] = (byte) this.random.nextInt(256);
				}
				yield valid;
			}
			case INSERT_SEPARATOR -> {
				byte[] result = valid;
				for (int i = 0, n = 1 + this.random.nextInt(3); i < n; i++) {
					int at = this.random.nextInt(result.length + 1);
					byte b = pick((byte) '\r', (byte) '\n', (byte) 0, (byte) ' ', (byte) '\t', (byte) ':', (byte) 0x7F,
							(byte) 0xFF, (byte) ';', (byte) ',');
					result = join(copy(result, 0, at), new byte[] { b }, copy(result, at, result.length));
				}
				yield result;
			}
			case SPLICE -> {
				byte[] other = pipeline().wire();
				yield join(copy(valid, 0, this.random.nextInt(valid.length + 1)),
						copy(other, this.random.nextInt(other.length + 1), other.length));
			}
			case HUGE_NUMBER -> hugeNumber(valid);
			case DEEP_CHUNKS -> deepChunksDamaged();
			case REPEAT_LINE -> repeatLine(valid);
			case LONG_LINE -> longLine(valid);
			case RANDOM_BYTES -> bytes(this.random.nextInt(this.random.nextBoolean() ? 64 : 4096));
			case HTTP_NOISE -> noise();
		};
	}

	private byte[] hugeNumber(byte[] valid) {
		String huge = switch (this.random.nextInt(5)) {
			case 0 -> "9".repeat(19 + this.random.nextInt(30));
			case 1 -> "f".repeat(16 + this.random.nextInt(30));
			case 2 -> "0".repeat(this.random.nextInt(6000)) + (1 + this.random.nextInt(9));
			case 3 -> String.valueOf(Long.MAX_VALUE - this.random.nextInt(3));
			default -> Long.toHexString(Long.MAX_VALUE - this.random.nextInt(3));
		};
		switch (this.random.nextInt(4)) {
			case 0 -> {
				return bytes("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: " + huge + "\r\n\r\nabc");
			}
			case 1 -> {
				return bytes("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n" + huge + "\r\nabc\r\n0\r\n\r\n");
			}
			case 2 -> {
				return bytes("GET / HTTP/" + huge + ".1\r\nHost: a\r\n\r\n");
			}
			default -> {
				// replace a run of digits in a valid request
				int at = -1;
				for (int i = 0, start = this.random.nextInt(valid.length); i < valid.length; i++) {
					int index = (start + i) % valid.length;
					if (valid[index] >= '0' && valid[index] <= '9') {
						at = index;
						break;
					}
				}
				if (at < 0) {
					return join(valid, bytes(huge));
				}
				int end = at;
				while (end < valid.length && valid[end] >= '0' && valid[end] <= '9') {
					end++;
				}
				return join(copy(valid, 0, at), bytes(huge), copy(valid, end, valid.length));
			}
		}
	}

	private byte[] deepChunksDamaged() {
		byte[] deep = deepChunks(200 + this.random.nextInt(2000)).wire();
		if (this.random.nextBoolean()) {
			deep[deep.length / 2 + this.random.nextInt(deep.length / 2)] = (byte) this.random.nextInt(256);
		}
		return deep;
	}

	private byte[] repeatLine(byte[] valid) {
		int[] line = randomLine(valid);
		byte[] repeated = copy(valid, line[0], line[1]);
		int times = 10 + this.random.nextInt(300);
		ByteArrayOutputStream result = new ByteArrayOutputStream();
		result.write(valid, 0, line[1]);
		for (int i = 0; i < times; i++) {
			result.writeBytes(repeated);
		}
		result.write(valid, line[1], valid.length - line[1]);
		return result.toByteArray();
	}

	private byte[] longLine(byte[] valid) {
		int[] line = randomLine(valid);
		int at = line[0] + this.random.nextInt(Math.max(1, line[1] - line[0]));
		byte fill = pick((byte) 'a', (byte) '0', (byte) ' ', (byte) 0xE9, (byte) ';', (byte) '/');
		byte[] filler = new byte[this.random.nextInt(3 * Math.max(this.limits.maxHeaderSize(),
				Math.max(this.limits.maxLineLength(), RequestParser.MAX_CHUNK_LINE_LENGTH)))];
		Arrays.fill(filler, fill);
		return join(copy(valid, 0, at), filler, copy(valid, at, valid.length));
	}

	/** Returns the bounds of a random line, its LF included. */
	private int[] randomLine(byte[] bytes) {
		int start = this.random.nextInt(bytes.length);
		while (start > 0 && bytes[start - 1] != '\n') {
			start--;
		}
		int end = start;
		while (end < bytes.length && bytes[end] != '\n') {
			end++;
		}
		return new int[] { start, Math.min(bytes.length, end + 1) };
	}

	private byte[] noise() {
		String[] pieces = { "GET", "POST", " ", "/", "HTTP/1.1", "HTTP/1.0", "\r\n", "\n", "\r", ":", "Host",
				"Content-Length", "Transfer-Encoding", "chunked", "0", "1", "ff", ";", ",", "\t", "Expect",
				"100-continue", "Connection", "close", "\0", "a", "\u00ff", "99999999999999999999" };
		StringBuilder noise = new StringBuilder();
		for (int i = 0, n = this.random.nextInt(200); i < n; i++) {
			noise.append(pick(pieces));
		}
		return bytes(noise.toString());
	}

	private static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.ISO_8859_1);
	}

	private static byte[] copy(byte[] bytes, int from, int to) {
		return Arrays.copyOfRange(bytes, from, to);
	}

	private static byte[] join(byte[]... parts) {
		ByteArrayOutputStream joined = new ByteArrayOutputStream();
		for (byte[] part : parts) {
			joined.writeBytes(part);
		}
		return joined.toByteArray();
	}

}
