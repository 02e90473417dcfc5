package dev.ariadne.http;

/**
 * Finds whether a chunked body (RFC 9112 section 7.1) ends within the bytes that have arrived,
 * without consuming them, so that a server can tell whether a whole body is buffered before it
 * hands the request on. Resumable: fed the same run of bytes from the body's start as it grows,
 * it goes on from where it stopped and looks at each byte once.
 *
 * <p>It validates nothing beyond what it needs to follow the framing: on bytes the
 * {@link RequestParser} would refuse, a limit of its included, it answers that the body has
 * ended, so that the parser sees them at once and answers them. Not thread-safe; one per
 * connection, {@link #reset()} per body.
 */
public final class ChunkedScanner {

	private final ParserLimits limits;

	private static final int SIZE_START = 0;

	private static final int SIZE = 1;

	private static final int EXTENSION = 2;

	private static final int SIZE_LF = 3;

	private static final int DATA = 4;

	private static final int DATA_CR = 5;

	private static final int DATA_LF = 6;

	private static final int TRAILER_START = 7;

	private static final int TRAILER = 8;

	private static final int TRAILER_LF = 9;

	private static final int END_LF = 10;

	private static final int ENDED = 11;

	private int state;

	/** Bytes of the body looked at so far. */
	private int scanned;

	private long size;

	/** Chunk data announced so far. */
	private long total;

	/** Bytes of the current chunk-size line, or of the trailer section. */
	private int lineBytes;

	/**
	 * Creates a scanner for the bodies of one connection.
	 * @param limits the limits the parser enforces
	 */
	public ChunkedScanner(ParserLimits limits) {
		this.limits = limits;
	}

	/**
	 * Starts over, for a new body.
	 */
	public void reset() {
		this.state = SIZE_START;
		this.scanned = 0;
		this.size = 0;
		this.total = 0;
		this.lineBytes = 0;
	}

	/**
	 * Returns whether the body ends within the bytes that have arrived.
	 * @param bytes the bytes
	 * @param bodyStart where the body starts in {@code bytes}: the same byte on every call, at
	 * whatever index it is now
	 * @param end where the bytes that have arrived end
	 * @return whether its last chunk and trailer section are complete, or it is malformed
	 */
	public boolean ended(byte[] bytes, int bodyStart, int end) {
		int i = bodyStart + this.scanned;
		while (this.state != ENDED && i < end) {
			byte b = bytes[i];
			if (this.state != DATA && ++this.lineBytes > lineLimit()) {
				// past what the parser takes in a chunk-size line, or in the trailer section
				return end();
			}
			switch (this.state) {
				case SIZE_START -> {
					int digit = Ascii.hexValue(b);
					if (digit < 0) {
						return end();
					}
					this.size = digit;
					this.state = SIZE;
					i++;
				}
				case SIZE -> {
					int digit = Ascii.hexValue(b);
					if (digit >= 0) {
						if (this.size > (Long.MAX_VALUE >> 4)) {
							return end();
						}
						this.size = (this.size << 4) | digit;
					}
					else if (b == ';') {
						this.state = EXTENSION;
					}
					else if (b == Ascii.CR) {
						this.state = SIZE_LF;
					}
					else {
						return end();
					}
					i++;
				}
				case EXTENSION, TRAILER -> {
					if (b == Ascii.CR) {
						this.state = (this.state == EXTENSION) ? SIZE_LF : TRAILER_LF;
					}
					else if (b == Ascii.LF) {
						return end();
					}
					i++;
				}
				case SIZE_LF -> {
					this.total += this.size;
					if (b != Ascii.LF || this.total > this.limits.maxBodySize() || this.total < 0) {
						return end();
					}
					this.state = (this.size == 0) ? TRAILER_START : DATA;
					this.lineBytes = 0;
					i++;
				}
				case DATA -> {
					long skip = Math.min(this.size, end - i);
					i += (int) skip;
					this.size -= skip;
					if (this.size == 0) {
						this.state = DATA_CR;
					}
				}
				case DATA_CR, TRAILER_LF, END_LF, DATA_LF -> {
					byte expected = (this.state == DATA_CR) ? Ascii.CR : Ascii.LF;
					if (b != expected) {
						return end();
					}
					if (this.state == DATA_LF) {
						this.lineBytes = 0;
					}
					this.state = switch (this.state) {
						case DATA_CR -> DATA_LF;
						case DATA_LF -> SIZE_START;
						case TRAILER_LF -> TRAILER_START;
						default -> ENDED;
					};
					i++;
				}
				case TRAILER_START -> {
					if (b == Ascii.CR) {
						this.state = END_LF;
						i++;
					}
					else {
						this.state = TRAILER;
					}
				}
				default -> throw new IllegalStateException(Integer.toString(this.state));
			}
		}
		this.scanned = i - bodyStart;
		return this.state == ENDED;
	}

	private int lineLimit() {
		return (this.state >= TRAILER_START) ? this.limits.maxHeaderSize() : RequestParser.MAX_CHUNK_LINE_LENGTH + 2;
	}

	private boolean end() {
		this.state = ENDED;
		return true;
	}

}
