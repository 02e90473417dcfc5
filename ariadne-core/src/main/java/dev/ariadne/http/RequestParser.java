package dev.ariadne.http;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An incremental HTTP/1.1 request parser (RFC 9112): a resumable state machine fed with whatever
 * bytes have arrived, in pieces of any size, that reports what it recognises to a
 * {@link RequestSink}.
 *
 * <p>Usage: call {@link #parse} each time bytes arrive. It consumes input until it needs more
 * bytes ({@code false}) or until a sink method asks it to stop ({@code true}). After
 * {@link RequestSink#messageComplete()} the parser stays {@link State#COMPLETE} and consumes
 * nothing until {@link #reset()}, so the bytes of a pipelined next request stay in the caller's
 * buffer. One parser serves one connection; it is not thread-safe, but it keeps no thread of its
 * own, so a selector thread and a worker may use it in turn.
 *
 * <p>Input buffers must be heap buffers (with an accessible array). The parser copies only the
 * unfinished line at the end of a buffer; complete lines are read in place. It never holds more
 * than one line, bounded by the limits, whatever the input.
 *
 * <p>Lines of the head may end with a bare LF (RFC 9112 §2.2 allows the leniency); the lines of
 * chunked framing (chunk-size lines, the line end after chunk data, the trailer section) must end
 * with CRLF, and nothing may follow a chunk size but its extensions or the line end.
 *
 * <p>Every violation throws {@link HttpParseException} with the status to answer: 400 for
 * malformed syntax, 413/414/431 for the limits, 501 for an unknown transfer coding, 505 for a
 * version other than 1.0 and 1.1, 417 for an expectation other than {@code 100-continue}. After
 * an exception the connection must be closed: the parser's state is undefined.
 */
public final class RequestParser {

	/** Where the parser is within a request. */
	public enum State {

		/** Waiting for, or inside, the request line (empty lines before it are skipped). */
		REQUEST_LINE,

		/** Inside the header section. */
		HEADERS,

		/** Inside a body framed by {@code Content-Length}. */
		CONTENT,

		/** Inside a chunk-size line. */
		CHUNK_SIZE,

		/** Inside chunk data. */
		CHUNK_DATA,

		/** Expecting the CRLF that ends chunk data. */
		CHUNK_END,

		/** Inside the trailer section after the last chunk. */
		TRAILERS,

		/** The request has been read; {@link RequestSink#messageComplete()} is due. */
		MESSAGE_END,

		/** The request has been read and reported; {@link #reset()} is due. */
		COMPLETE

	}

	/** Longest chunk-size line (size and extensions) accepted, in bytes. */
	static final int MAX_CHUNK_LINE_LENGTH = 4096;

	/** Most empty lines skipped before a request line. */
	static final int MAX_LEADING_EMPTY_LINES = 8;

	private static final String BARE_CR = "Bare CR in chunked framing: a CR must be followed by LF";

	private final ParserLimits limits;

	private final RequestSink sink;

	private State state = State.REQUEST_LINE;

	/** Holds the unfinished line when input ends mid-line. */
	private byte[] partial = new byte[128];

	private int partialLength;

	/** The current complete line: {@code line[lineStart, lineEnd)}, line end removed. */
	private byte[] line;

	private int lineStart;

	private int lineEnd;

	private int emptyLines;

	/** Bytes of the header (or trailer) section read so far, line ends included. */
	private int sectionBytes;

	private RequestHead head;

	private Headers fields;

	/** Bytes left in the fixed-length body or in the current chunk. */
	private long remaining;

	/** Chunk data read so far in this request. */
	private long chunkedBytes;

	/**
	 * Creates a parser for one connection.
	 * @param limits the limits to enforce
	 * @param sink where parsed events go
	 */
	public RequestParser(ParserLimits limits, RequestSink sink) {
		this.limits = limits;
		this.sink = sink;
	}

	/**
	 * Returns where the parser is within the current request.
	 * @return the state
	 */
	public State state() {
		return this.state;
	}

	/**
	 * Returns whether the parser is between requests: nothing of the next request has been
	 * consumed yet.
	 * @return whether no request is partly read
	 */
	public boolean isIdle() {
		return this.state == State.REQUEST_LINE && this.partialLength == 0 && this.emptyLines == 0;
	}

	/**
	 * Returns how many bytes of an unfinished line the parser holds, for tests that check that
	 * no input makes it buffer more than the limits allow.
	 * @return the bytes held, at most the line limit of the current state
	 */
	int bufferedLineBytes() {
		return this.partialLength;
	}

	/**
	 * Returns the size of the array that holds an unfinished line: the parser's only memory that
	 * grows with the input, for the same tests.
	 * @return the capacity in bytes
	 */
	int lineBufferCapacity() {
		return this.partial.length;
	}

	/**
	 * Makes the parser ready for the next request on the connection.
	 */
	public void reset() {
		this.state = State.REQUEST_LINE;
		this.partialLength = 0;
		this.emptyLines = 0;
		this.sectionBytes = 0;
		this.head = null;
		this.fields = null;
		this.line = null;
		this.remaining = 0;
		this.chunkedBytes = 0;
		if (this.partial.length > 1024) {
			this.partial = new byte[128];
		}
	}

	/**
	 * Consumes bytes from {@code in}, from its position up to its limit, advancing the
	 * position past everything consumed.
	 * @param in the bytes received, a heap buffer
	 * @return {@code true} when a sink method asked to stop, {@code false} when all input was
	 * consumed or the request is complete
	 * @throws HttpParseException if the input violates RFC 9112 or a limit
	 */
	public boolean parse(ByteBuffer in) throws HttpParseException {
		while (true) {
			switch (this.state) {
				case REQUEST_LINE, HEADERS, CHUNK_SIZE, CHUNK_END, TRAILERS -> {
					if (!nextLine(in)) {
						return false;
					}
					if (onLine()) {
						return true;
					}
				}
				case CONTENT, CHUNK_DATA -> {
					if (!in.hasRemaining()) {
						return false;
					}
					if (content(in)) {
						return true;
					}
				}
				case MESSAGE_END -> {
					this.state = State.COMPLETE;
					if (this.sink.messageComplete()) {
						return true;
					}
				}
				case COMPLETE -> {
					return false;
				}
			}
		}
	}

	// ---- lines

	/**
	 * Finds the next complete line, copying an unfinished one aside. Enforces the line limit of
	 * the current state as bytes arrive, so an endless line fails early.
	 */
	private boolean nextLine(ByteBuffer in) throws HttpParseException {
		byte[] buf = in.array();
		int base = in.arrayOffset();
		int from = base + in.position();
		int to = base + in.limit();
		int lf = -1;
		for (int i = from; i < to; i++) {
			if (buf[i] == Ascii.LF) {
				lf = i;
				break;
			}
		}
		int length = this.partialLength + (((lf >= 0) ? lf : to) - from);
		checkLineLength(length, lf >= 0);
		if (lf < 0) {
			appendPartial(buf, from, to - from);
			in.position(in.limit());
			return false;
		}
		if (this.partialLength == 0) {
			this.line = buf;
			this.lineStart = from;
			this.lineEnd = lf;
		}
		else {
			appendPartial(buf, from, lf - from);
			this.line = this.partial;
			this.lineStart = 0;
			this.lineEnd = this.partialLength;
			this.partialLength = 0;
		}
		in.position(lf + 1 - base);
		if (this.lineEnd > this.lineStart && this.line[this.lineEnd - 1] == Ascii.CR) {
			this.lineEnd--;
		}
		else if (this.state != State.REQUEST_LINE && this.state != State.HEADERS) {
			// RFC 9112 §2.2 lets a recipient take a bare LF as the end of the start line and of
			// header fields; inside chunked framing, trailers included, a proxy that does not
			// would frame the body differently, so only the head gets that leniency
			throw bareLf();
		}
		return true;
	}

	/** The error for a line of chunked framing ended by a bare LF, in the current state. */
	private HttpParseException bareLf() {
		return switch (this.state) {
			case CHUNK_SIZE -> bad("Bare LF in chunked framing: a chunk-size line must end with CRLF");
			case CHUNK_END -> bad((this.lineEnd == this.lineStart)
					? "Bare LF in chunked framing: chunk data must be followed by CRLF"
					: "Chunk data not followed by CRLF");
			default -> bad("Bare LF in chunked framing: a trailer line must end with CRLF");
		};
	}

	/** {@code length} counts the line's bytes before its LF (a CR included). */
	private void checkLineLength(int length, boolean complete) throws HttpParseException {
		switch (this.state) {
			case REQUEST_LINE -> {
				if (length > this.limits.maxLineLength() + 1) {
					throw new HttpParseException(Status.URI_TOO_LONG_414,
							"Request line longer than " + this.limits.maxLineLength() + " bytes");
				}
			}
			case HEADERS, TRAILERS -> {
				if (this.sectionBytes + length + (complete ? 1 : 0) > this.limits.maxHeaderSize()) {
					throw new HttpParseException(Status.HEADER_FIELDS_TOO_LARGE_431,
							((this.state == State.HEADERS) ? "Header" : "Trailer") + " section larger than "
									+ this.limits.maxHeaderSize() + " bytes");
				}
				if (complete) {
					this.sectionBytes += length + 1;
				}
			}
			case CHUNK_SIZE -> {
				if (length > MAX_CHUNK_LINE_LENGTH) {
					throw bad("Chunk-size line longer than " + MAX_CHUNK_LINE_LENGTH + " bytes");
				}
			}
			case CHUNK_END -> {
				if (length > 1) {
					throw bad("Chunk data not followed by CRLF");
				}
			}
			default -> throw new IllegalStateException(this.state.name());
		}
	}

	private void appendPartial(byte[] buf, int from, int length) {
		int needed = this.partialLength + length;
		if (needed > this.partial.length) {
			this.partial = Arrays.copyOf(this.partial, Math.max(needed, this.partial.length * 2));
		}
		System.arraycopy(buf, from, this.partial, this.partialLength, length);
		this.partialLength = needed;
	}

	private boolean onLine() throws HttpParseException {
		switch (this.state) {
			case REQUEST_LINE -> requestLine();
			case HEADERS -> {
				if (this.lineEnd == this.lineStart) {
					return headComplete();
				}
				field(this.fields);
			}
			case CHUNK_SIZE -> chunkSize();
			case CHUNK_END -> {
				if (this.lineEnd != this.lineStart) {
					throw bad("Chunk data not followed by CRLF");
				}
				this.state = State.CHUNK_SIZE;
			}
			case TRAILERS -> {
				if (this.lineEnd == this.lineStart) {
					this.state = State.MESSAGE_END;
				}
				else {
					if (this.head.trailers == null) {
						this.head.trailers = new Headers(4);
					}
					field(this.head.trailers);
				}
			}
			default -> throw new IllegalStateException(this.state.name());
		}
		return false;
	}

	// ---- request line

	private void requestLine() throws HttpParseException {
		byte[] b = this.line;
		int end = this.lineEnd;
		if (end == this.lineStart) {
			if (++this.emptyLines > MAX_LEADING_EMPTY_LINES) {
				throw bad("Too many empty lines before the request line");
			}
			return;
		}
		if (end - this.lineStart > this.limits.maxLineLength()) {
			// the check while reading allows one byte for a CR; a bare LF line gets no such slack
			throw new HttpParseException(Status.URI_TOO_LONG_414,
					"Request line longer than " + this.limits.maxLineLength() + " bytes");
		}
		int i = this.lineStart;
		while (i < end && Ascii.isToken(b[i])) {
			i++;
		}
		if (i == this.lineStart || i == end || b[i] != Ascii.SP) {
			throw bad("Malformed request line: method must be a token followed by one space");
		}
		Method method = Method.of(b, this.lineStart, i);
		int targetStart = ++i;
		while (i < end && Ascii.isTarget(b[i])) {
			i++;
		}
		if (i == targetStart || i == end || b[i] != Ascii.SP) {
			throw bad("Malformed request line: invalid character in the request target, or not "
					+ "exactly one space before the version");
		}
		int targetEnd = i;
		Version version = RequestTarget.version(b, i + 1, end);
		String target = new String(b, targetStart, targetEnd - targetStart, StandardCharsets.ISO_8859_1);
		this.fields = new Headers();
		this.head = RequestTarget.head(method, target, version, this.fields);
		this.state = State.HEADERS;
		this.sectionBytes = 0;
	}

	// ---- header fields

	private void field(Headers into) throws HttpParseException {
		byte[] b = this.line;
		int start = this.lineStart;
		int end = this.lineEnd;
		if (Ascii.isWhitespace(b[start])) {
			throw bad("Header line starts with whitespace (obsolete line folding is not accepted)");
		}
		int i = start;
		while (i < end && Ascii.isToken(b[i])) {
			i++;
		}
		if (i == end) {
			throw bad("Header line without a colon");
		}
		if (b[i] != ':') {
			throw bad(Ascii.isWhitespace(b[i]) ? "Whitespace between header name and colon"
					: (b[i] == Ascii.CR) ? "Bare CR in header name" : "Invalid character in header name");
		}
		if (i == start) {
			throw bad("Empty header name");
		}
		String name = HeaderName.of(b, start, i);
		int valueStart = i + 1;
		int valueEnd = end;
		while (valueStart < valueEnd && Ascii.isWhitespace(b[valueStart])) {
			valueStart++;
		}
		while (valueEnd > valueStart && Ascii.isWhitespace(b[valueEnd - 1])) {
			valueEnd--;
		}
		for (int j = valueStart; j < valueEnd; j++) {
			if (!Ascii.isFieldValue(b[j])) {
				throw bad((b[j] == Ascii.CR) ? "Bare CR in header value" : "Control character in header value");
			}
		}
		if (into.size() >= this.limits.maxHeaderCount()) {
			throw new HttpParseException(Status.HEADER_FIELDS_TOO_LARGE_431,
					"More than " + this.limits.maxHeaderCount() + " header fields");
		}
		into.add(name, CommonValues.of(name, b, valueStart, valueEnd));
	}

	private boolean headComplete() throws HttpParseException {
		RequestHead head = this.head;
		HeadFields.apply(head, this.fields, this.limits.maxBodySize());
		this.fields = null;
		if (head.chunked) {
			this.state = State.CHUNK_SIZE;
		}
		else if (head.contentLength > 0) {
			this.remaining = head.contentLength;
			this.state = State.CONTENT;
		}
		else {
			this.state = State.MESSAGE_END;
		}
		return this.sink.headComplete(head);
	}

	// ---- body

	private boolean content(ByteBuffer in) {
		int length = (int) Math.min(this.remaining, in.remaining());
		int position = in.position();
		ByteBuffer content = in.slice(position, length);
		in.position(position + length);
		this.remaining -= length;
		if (this.remaining == 0) {
			this.state = (this.state == State.CHUNK_DATA) ? State.CHUNK_END : State.MESSAGE_END;
		}
		return this.sink.content(content);
	}

	private void chunkSize() throws HttpParseException {
		byte[] b = this.line;
		int i = this.lineStart;
		int end = this.lineEnd;
		long size = 0;
		while (i < end) {
			int digit = Ascii.hexValue(b[i]);
			if (digit < 0) {
				break;
			}
			if (size > (Long.MAX_VALUE >> 4)) {
				throw bad("Chunk size too large");
			}
			size = (size << 4) | digit;
			i++;
		}
		if (i == this.lineStart) {
			throw bad("Invalid chunk size");
		}
		if (i < end) {
			// nothing between the size and its extensions or line end: parsers that skip
			// whitespace there and parsers that stop at it disagree on the framing
			if (b[i] != ';') {
				throw bad(Ascii.isWhitespace(b[i]) ? "Invalid chunk size: whitespace after the chunk size"
						: (b[i] == Ascii.CR) ? BARE_CR : "Invalid chunk size");
			}
			for (int j = i; j < end; j++) {
				if (!Ascii.isFieldValue(b[j])) {
					throw bad((b[j] == Ascii.CR) ? BARE_CR : "Control character in chunk extension");
				}
			}
		}
		if (size == 0) {
			this.state = State.TRAILERS;
			this.sectionBytes = 0;
			return;
		}
		this.chunkedBytes += size;
		if (this.chunkedBytes > this.limits.maxBodySize() || this.chunkedBytes < 0) {
			throw new HttpParseException(Status.CONTENT_TOO_LARGE_413,
					"Request body larger than " + this.limits.maxBodySize() + " bytes");
		}
		this.remaining = size;
		this.state = State.CHUNK_DATA;
	}

	private static HttpParseException bad(String reason) {
		return new HttpParseException(Status.BAD_REQUEST_400, reason);
	}

}
