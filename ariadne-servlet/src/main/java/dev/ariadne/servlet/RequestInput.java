package dev.ariadne.servlet;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.function.Supplier;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;

import dev.ariadne.http.HttpParseException;
import dev.ariadne.server.AsyncResponse;

/**
 * The request body as the application reads it, straight from the core's body stream (never
 * buffered whole). In non-blocking mode (a {@link ReadListener} is set) reads take only bytes
 * that {@link NonBlockingIo} has fetched from the core without waiting, so a read never
 * blocks. The buffer of fetched bytes exists only in non-blocking mode, and only while the
 * reader has something to read: it goes when the reader waits for the client
 * ({@link #releaseIdle()}), so that an idle connection that switched protocols holds none.
 */
final class RequestInput extends ServletInputStream {

	/** The non-blocking reads, made when first asked for. */
	private final Supplier<NonBlockingIo> nonBlocking;

	private final InputStream body;

	private static final int READY_SIZE = 8192;

	/** Bytes fetched for a non-blocking reader; {@code null} while none are wanted. */
	private byte[] ready;

	private int readyStart;

	private int readyEnd;

	private volatile boolean finished;

	private volatile boolean framingLost;

	/** A failure a non-blocking fetch found, thrown by the next read. */
	private volatile IOException failure;

	RequestInput(Supplier<NonBlockingIo> nonBlocking, InputStream body) {
		this.nonBlocking = nonBlocking;
		this.body = body;
	}

	/**
	 * Whether reading the body failed on its framing (a bad chunk, a chunk or body over the
	 * limit): the connection cannot carry another request, so the response says it closes,
	 * whoever answers it (the application may catch the failure and answer itself).
	 */
	boolean framingLost() {
		return this.framingLost;
	}

	/** Reads from the core's body, noting a failure of its framing. */
	private int readBody(byte[] bytes, int offset, int length) throws IOException {
		try {
			return this.body.read(bytes, offset, length);
		}
		catch (IOException ex) {
			noteFraming(ex);
			throw ex;
		}
	}

	private void noteFraming(IOException ex) {
		if (ex.getCause() instanceof HttpParseException) {
			this.framingLost = true;
		}
	}

	/** Bytes fetched ahead for a non-blocking reader. */
	int fetched() {
		return this.readyEnd - this.readyStart;
	}

	/** Whether the end of the body was read, fetched bytes left or not. */
	boolean ended() {
		return this.finished;
	}

	/** The failure a non-blocking fetch found, which the next read throws. */
	IOException failure() {
		return this.failure;
	}

	/**
	 * Fetches what the core has of the body now, for a non-blocking reader, without waiting:
	 * bytes, the end, or a failure kept for the next read.
	 * @param core the suspended core exchange
	 */
	void fetchNow(AsyncResponse core) {
		if (fetched() > 0 || this.finished) {
			return;
		}
		if (this.ready == null) {
			this.ready = new byte[READY_SIZE];
		}
		try {
			int count = core.read(this.ready, 0, this.ready.length);
			if (count < 0) {
				this.finished = true;
				return;
			}
			this.readyStart = 0;
			this.readyEnd = count;
		}
		catch (IOException ex) {
			noteFraming(ex);
			this.failure = ex;
		}
	}

	/**
	 * The non-blocking reader waits for the client: the buffer of fetched bytes goes, if empty,
	 * until the next fetch.
	 */
	void releaseIdle() {
		if (fetched() == 0) {
			this.ready = null;
			this.readyStart = 0;
			this.readyEnd = 0;
		}
	}

	@Override
	public int read() throws IOException {
		byte[] one = new byte[1];
		int count = read(one, 0, 1);
		return (count < 0) ? -1 : one[0] & 0xFF;
	}

	@Override
	public int read(byte[] bytes, int offset, int length) throws IOException {
		if (length == 0) {
			return 0;
		}
		if (fetched() > 0) {
			int count = Math.min(length, fetched());
			System.arraycopy(this.ready, this.readyStart, bytes, offset, count);
			this.readyStart += count;
			return count;
		}
		if (this.finished) {
			return -1;
		}
		IOException failure = this.failure;
		if (failure != null) {
			throw failure;
		}
		if (this.nonBlocking.get().readingNonBlocking()) {
			throw new IllegalStateException("read() called while isReady() is false");
		}
		int count = readBody(bytes, offset, length);
		if (count < 0) {
			this.finished = true;
		}
		return count;
	}

	@Override
	public int read(ByteBuffer buffer) throws IOException {
		if (!isReady()) {
			throw new IllegalStateException("read(ByteBuffer) called while isReady() is false");
		}
		if (!buffer.hasRemaining()) {
			return 0;
		}
		int start = buffer.position();
		int count;
		if (buffer.hasArray()) {
			count = read(buffer.array(), buffer.arrayOffset() + start, buffer.remaining());
		}
		else {
			byte[] chunk = new byte[Math.min(buffer.remaining(), READY_SIZE)];
			count = read(chunk, 0, chunk.length);
			if (count > 0) {
				buffer.put(chunk, 0, count);
			}
		}
		if (count > 0) {
			// Servlet 6.1: the position stays, the limit marks the end of what was read
			buffer.position(start);
			buffer.limit(start + count);
		}
		return count;
	}

	@Override
	public int available() throws IOException {
		return (fetched() > 0) ? fetched() : (this.finished ? 0 : this.body.available());
	}

	@Override
	public boolean isFinished() {
		return this.finished && fetched() == 0;
	}

	@Override
	public boolean isReady() {
		return this.nonBlocking.get().readReady();
	}

	@Override
	public void setReadListener(ReadListener readListener) {
		this.nonBlocking.get().readListener(readListener);
	}

}
