package dev.ariadne.servlet;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

import jakarta.servlet.http.HttpServletResponse;

/**
 * Reads an {@code application/x-www-form-urlencoded} body into memory for its parameters, and
 * stops at the first byte past a limit: past the most form bytes (413), or at the start of the
 * parameter past the most the request may still take (400). What the client sends beyond is
 * never read, so a loop of long forms costs the server what the limits allow, not what the
 * client sends. What it holds is reserved in the server's buffer budget before it grows.
 */
final class FormBody {

	/** The property that sets the most bytes of a form body. */
	static final String MAX_FORM_SIZE_PROPERTY = "ariadne.server.request.max-form-size";

	private static final int FIRST_CAPACITY = 16 * 1024;

	private final long max;

	private final int room;

	private final Parameters parameters;

	private final RequestMemory memory;

	private byte[] bytes = new byte[0];

	private int length;

	private int pairs;

	private boolean inPair;

	private FormBody(long max, Parameters parameters, RequestMemory memory) {
		this.max = max;
		this.room = parameters.room();
		this.parameters = parameters;
		this.memory = memory;
	}

	/**
	 * Reads a form body whole.
	 * @param in the body, nothing of it read yet
	 * @param declared the body's declared length, or -1
	 * @param max the most bytes
	 * @param parameters the parameters read so far (the query string's), whose room is the most
	 * pairs the body may have
	 * @param memory where what the body holds is reserved
	 * @return the body: its bytes are the first {@link #length()} of {@link #bytes()}
	 * @throws StatusException 413 past the most bytes, 400 at the pair past the room
	 * @throws IOException if reading fails, or no memory is free
	 */
	static FormBody read(InputStream in, long declared, long max, Parameters parameters, RequestMemory memory)
			throws IOException {
		if (declared > max) {
			throw tooLarge("Form body of " + declared + " bytes exceeds the maximum form size of " + max + " bytes");
		}
		FormBody form = new FormBody(max, parameters, memory);
		form.readFrom(in, declared);
		return form;
	}

	/** The buffer the body was read into, its bytes first: not copied to the body's length. */
	byte[] bytes() {
		return this.bytes;
	}

	/** How many bytes the body has. */
	int length() {
		return this.length;
	}

	private void readFrom(InputStream in, long declared) throws IOException {
		// the buffer grows up to the declared length, never past it, nor past the limit
		long expected = (declared >= 0) ? Math.min(declared, this.max) : this.max;
		while (true) {
			if (this.length == this.bytes.length && this.length >= expected) {
				int next = in.read();
				if (next < 0) {
					return;
				}
				if (this.length == this.max) {
					throw tooLarge("Form body exceeds the maximum form size of " + this.max + " bytes");
				}
				// more than the declared length, which the core's framing does not let through
				expected = this.max;
				grow(expected);
				this.bytes[this.length] = (byte) next;
				scan(this.length, this.length + 1);
				this.length++;
			}
			if (this.length == this.bytes.length) {
				grow(expected);
			}
			int count = in.read(this.bytes, this.length, this.bytes.length - this.length);
			if (count < 0) {
				return;
			}
			scan(this.length, this.length + count);
			this.length += count;
		}
	}

	/** Makes room for more bytes, up to the expected length, reserving them first. */
	private void grow(long expected) throws IOException {
		long wanted = Math.min(Math.max(FIRST_CAPACITY, 2L * this.bytes.length), expected);
		int capacity = (int) Math.min(wanted, Integer.MAX_VALUE - 8);
		this.memory.reserve(capacity - this.bytes.length);
		this.bytes = Arrays.copyOf(this.bytes, capacity);
	}

	/** Counts the pairs that start in new bytes, refusing the one past the room. */
	private void scan(int from, int to) {
		for (int i = from; i < to; i++) {
			if (this.bytes[i] == '&') {
				this.inPair = false;
			}
			else if (!this.inPair) {
				if (this.pairs == this.room) {
					throw this.parameters.tooMany();
				}
				this.pairs++;
				this.inPair = true;
			}
		}
	}

	private static StatusException tooLarge(String message) {
		return StatusException.refusal(HttpServletResponse.SC_REQUEST_ENTITY_TOO_LARGE,
				message + " (" + MAX_FORM_SIZE_PROPERTY + ")");
	}

}
