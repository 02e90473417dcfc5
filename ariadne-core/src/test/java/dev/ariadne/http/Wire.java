package dev.ariadne.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;

/**
 * Turns fixture text into wire bytes and feeds them to a {@link RequestParser} the way a
 * transport does: each chunk is written into one reused heap buffer (compacted and refilled
 * between reads, and not starting at offset 0 of its array), parsed, and the parser is reset
 * between pipelined requests.
 */
final class Wire {

	/** Leading bytes of the backing array that are not part of the buffer. */
	private static final int ARRAY_OFFSET = 3;

	private Wire() {
	}

	/**
	 * Encodes fixture text one byte per char (ISO-8859-1), so that Java escapes such as
	 * {@code \r}, {@code \0}, {@code \u007f} or {@code \u00e9} become exactly that byte.
	 */
	static byte[] bytes(String text) {
		return text.getBytes(StandardCharsets.ISO_8859_1);
	}

	/** The bytes as one chunk. */
	static List<byte[]> whole(byte[] bytes) {
		return List.of(bytes);
	}

	/** The bytes as two chunks, split before index {@code at}; either may be empty. */
	static List<byte[]> splitAt(byte[] bytes, int at) {
		return List.of(Arrays.copyOfRange(bytes, 0, at), Arrays.copyOfRange(bytes, at, bytes.length));
	}

	/** The bytes in chunks of at most {@code size} bytes. */
	static List<byte[]> pieces(byte[] bytes, int size) {
		List<byte[]> chunks = new ArrayList<>();
		for (int from = 0; from < bytes.length; from += size) {
			chunks.add(Arrays.copyOfRange(bytes, from, Math.min(bytes.length, from + size)));
		}
		return chunks;
	}

	/**
	 * Feeds the chunks in order and returns the events recorded.
	 * @throws HttpParseException as the parser throws it
	 */
	static List<String> feed(ParserLimits limits, List<byte[]> chunks) throws HttpParseException {
		RecordingSink sink = new RecordingSink();
		feed(new RequestParser(limits, sink), chunks, (parser) -> {
		});
		return sink.events();
	}

	/**
	 * Feeds the chunks in order, as {@link #feed(ParserLimits, List)} does, and returns what
	 * happened instead of throwing: the events recorded up to the end or the error, and the
	 * error's status. Any other exception propagates.
	 * @param probe checks the parser after every {@link RequestParser#parse} call
	 */
	static Outcome outcome(ParserLimits limits, List<byte[]> chunks, Consumer<RequestParser> probe) {
		RecordingSink sink = new RecordingSink();
		try {
			feed(new RequestParser(limits, sink), chunks, probe);
			return new Outcome(sink.events(), 0, sink.largestBody());
		}
		catch (HttpParseException ex) {
			return new Outcome(sink.events(), ex.status().code(), sink.largestBody());
		}
	}

	/**
	 * What feeding some input produced.
	 * @param events the events, as {@link RecordingSink} writes them
	 * @param status the status of the {@link HttpParseException} that ended the input, or 0
	 * @param largestBody the most content bytes reported for one request
	 */
	record Outcome(List<String> events, int status, long largestBody) {
	}

	private static void feed(RequestParser parser, List<byte[]> chunks, Consumer<RequestParser> probe)
			throws HttpParseException {
		int capacity = chunks.stream().mapToInt((chunk) -> chunk.length).sum();
		ByteBuffer in = ByteBuffer.wrap(new byte[ARRAY_OFFSET + capacity], ARRAY_OFFSET, capacity).slice();
		for (byte[] chunk : chunks) {
			in.put(chunk).flip();
			parseAvailable(parser, in, probe);
			in.compact();
		}
	}

	/**
	 * Feeds the chunks and returns the status of the exception the parser throws.
	 * @throws AssertionError if the parser accepts the input
	 */
	static int statusOf(ParserLimits limits, List<byte[]> chunks) {
		try {
			List<String> events = feed(limits, chunks);
			throw new AssertionError("Expected an HttpParseException, but the parser reported " + events);
		}
		catch (HttpParseException ex) {
			return ex.status().code();
		}
	}

	private static void parseAvailable(RequestParser parser, ByteBuffer in, Consumer<RequestParser> probe)
			throws HttpParseException {
		while (true) {
			if (parser.state() == RequestParser.State.COMPLETE) {
				if (!in.hasRemaining()) {
					return;
				}
				parser.reset();
			}
			boolean stopped = parser.parse(in);
			probe.accept(parser);
			if (stopped) {
				throw new AssertionError("parse returned true although no sink method asked to stop");
			}
			if (parser.state() != RequestParser.State.COMPLETE) {
				if (in.hasRemaining()) {
					throw new AssertionError("parse returned in state " + parser.state() + " with " + in.remaining()
							+ " bytes unread");
				}
				return;
			}
		}
	}

	static String escape(String text) {
		return escape(bytes(text));
	}

	static String escape(byte[] bytes) {
		StringBuilder text = new StringBuilder(bytes.length);
		for (byte b : bytes) {
			int c = b & 0xFF;
			switch (c) {
				case '\r' -> text.append("\\r");
				case '\n' -> text.append("\\n");
				case '\t' -> text.append("\\t");
				case '\\' -> text.append("\\\\");
				default -> {
					if (c < 0x20 || c >= 0x7F) {
						text.append(String.format("\\x%02x", c));
					}
					else {
						text.append((char) c);
					}
				}
			}
		}
		return text.toString();
	}

}
