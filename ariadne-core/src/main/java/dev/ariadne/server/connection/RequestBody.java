package dev.ariadne.server.connection;

import java.io.IOException;
import java.io.InputStream;

import dev.ariadne.http.Headers;
import dev.ariadne.http.HttpParseException;

/**
 * A request body as its handler reads it, with the framing already removed. Each I/O model
 * supplies one, and every one streams: the bytes are read from the connection as the handler
 * reads, never buffered whole by the server.
 */
public abstract class RequestBody extends InputStream {

	/**
	 * Returns whether the whole body has been read (always true for a request without one).
	 * @return whether nothing of the body is left on the connection
	 */
	public abstract boolean finished();

	/**
	 * Returns whether the client still waits for {@code 100 Continue} before sending the body:
	 * it asked for one and nothing has read the body yet.
	 * @return whether the body was never requested from the client
	 */
	public abstract boolean awaitingContinue();

	/**
	 * Returns the trailer fields, once the body has been read.
	 * @return the trailers
	 */
	public abstract Headers trailers();

	/**
	 * Reads what the body has now, never waiting for the client (a suspended exchange's
	 * non-blocking read); one reader at a time, which must not also read with {@link #read}.
	 * @param bytes where to put the bytes
	 * @param offset where to start
	 * @param length the most bytes, more than 0
	 * @return the bytes read, 0 when none are there now, -1 at the end of the body
	 * @throws IOException if the body is malformed, too large or too slow, or reading failed
	 */
	public abstract int readNow(byte[] bytes, int offset, int length) throws IOException;

	/**
	 * Returns whether {@link #readNow} would return something now: bytes, the end, or a failure
	 * it then throws. Reads what the client has sent without waiting for more.
	 * @return whether a non-blocking read returns something now
	 */
	public abstract boolean readableNow();

	/**
	 * Makes the body the connection's own bytes from now on, for an exchange that switches
	 * protocols ({@link dev.ariadne.server.Response#upgrade()}): what the client sends after its
	 * request, as it arrives, without framing, size or time limits, until it closes the
	 * connection. The body is finished when this is called. The protocol leaves the connection to
	 * the exchange for as long as it lasts, and closes it once it ends. On the exchange's thread,
	 * before it is suspended.
	 * @return whether the protocol can; {@code false} (the default) where it cannot, such as on
	 * an HTTP/2 stream
	 */
	public boolean tunnel() {
		return false;
	}

	/**
	 * Reads and discards what is left of the body, so the next request can be read.
	 * @param limit the most bytes worth discarding
	 * @return whether the body was fully discarded within the limit
	 * @throws IOException if reading failed
	 */
	public boolean drain(long limit) throws IOException {
		byte[] scrap = new byte[4096];
		long discarded = 0;
		while (!finished()) {
			int n = read(scrap, 0, scrap.length);
			if (n < 0) {
				return finished();
			}
			discarded += n;
			if (discarded > limit) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Returns the exception a body read throws when the body turns out malformed, too large or
	 * too slow: if the handler lets it escape before committing its response, the client gets
	 * its status.
	 * @param cause what the parser (or the timeout) found, with the status to answer
	 * @return the exception to throw
	 */
	protected static IOException badBody(HttpParseException cause) {
		return new BodyException(cause);
	}

	@Override
	public int read() throws IOException {
		byte[] one = new byte[1];
		int n = read(one, 0, 1);
		return (n < 0) ? -1 : (one[0] & 0xFF);
	}

	/** A body of a request that has none. */
	public static final RequestBody EMPTY = new RequestBody() {

		@Override
		public boolean finished() {
			return true;
		}

		@Override
		public boolean awaitingContinue() {
			return false;
		}

		@Override
		public Headers trailers() {
			return new Headers();
		}

		@Override
		public int read(byte[] bytes, int offset, int length) {
			return -1;
		}

		@Override
		public int readNow(byte[] bytes, int offset, int length) {
			return -1;
		}

		@Override
		public boolean readableNow() {
			return true;
		}

	};

}
