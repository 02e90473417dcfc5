package dev.ariadne.server.protocol;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;

import dev.ariadne.http.Headers;
import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.Status;
import dev.ariadne.server.connection.Answers;
import dev.ariadne.server.connection.RequestBody;
import dev.ariadne.server.internal.BufferBudget;

/**
 * The request content of one HTTP/2 stream, as its handler reads it: the wire's thread copies
 * each {@code DATA} frame's content in ({@link #received}), within what the stream's window lets
 * the client send, and the handler's reads credit the window back as they take it. A pause
 * longer than {@code request.header-timeout} fails the read with 408; more than
 * {@code request.max-body-size} with 413. What is held counts in the server's buffer budget:
 * content that does not fit it is dropped (and credited back) and the read fails with 503, as
 * an HTTP/1.1 body that finds no memory does. Every field is guarded by the protocol's lock.
 */
final class Http2StreamBody extends RequestBody {

	private final Http2Protocol protocol;

	private final int streamId;

	private final ArrayDeque<ByteBuffer> chunks = new ArrayDeque<>();

	private final long maxBodySize;

	private final long gapNanos;

	private final BufferBudget budget;

	/** The bytes of {@link #chunks} taken from the budget. */
	private long reserved;

	private long received;

	private boolean ended;

	private Headers trailers;

	private IOException failure;

	/** What a non-blocking reader left to run once a read would give it something. */
	private Runnable onReadable;

	Http2StreamBody(Http2Protocol protocol, int streamId, boolean ended) {
		this.protocol = protocol;
		this.streamId = streamId;
		this.ended = ended;
		this.maxBodySize = protocol.context.config().limits().maxBodySize();
		this.gapNanos = protocol.context.config().headerTimeout().toNanos();
		this.budget = protocol.context.budget();
	}

	// ---- the wire's thread, holding the lock

	/** Content arrived: kept for the reader, or, past the body limit, dropped with a failure. */
	void received(ByteBuffer content, boolean end) {
		int length = content.remaining();
		this.received += length;
		if (this.received > this.maxBodySize || this.failure != null
				|| (length > 0 && !this.budget.tryReserve(length))) {
			if (this.failure == null) {
				this.failure = (this.received > this.maxBodySize)
						? badBody(new HttpParseException(Status.CONTENT_TOO_LARGE_413,
								"Request body larger than " + this.maxBodySize + " bytes"))
						: badBody(new HttpParseException(Status.SERVICE_UNAVAILABLE_503,
								"No memory free for the request body (ariadne.server.buffers.budget)"));
			}
			this.protocol.session.consumed(this.streamId, length);
			content.position(content.limit());
		}
		else if (length > 0) {
			this.reserved += length;
			ByteBuffer copy = ByteBuffer.allocate(length);
			copy.put(content).flip();
			this.chunks.add(copy);
		}
		if (end) {
			this.ended = true;
		}
		fireReadable();
	}

	/** The trailers came, which end the body. */
	void ended(Headers trailers) {
		this.trailers = trailers;
		this.ended = true;
		fireReadable();
	}

	/** The stream was reset or the connection closed: reads fail from now on. */
	void failed(String reason) {
		if (this.failure == null && !this.ended) {
			this.failure = new IOException(reason);
		}
		fireReadable();
	}

	private boolean readable() {
		return !this.chunks.isEmpty() || this.ended || this.failure != null;
	}

	private void fireReadable() {
		Runnable task = this.onReadable;
		if (task != null) {
			this.onReadable = null;
			task.run();
		}
	}

	// ---- the handler's thread

	@Override
	public int read(byte[] bytes, int offset, int length) throws IOException {
		return read(bytes, offset, length, true);
	}

	@Override
	public int readNow(byte[] bytes, int offset, int length) throws IOException {
		return read(bytes, offset, length, false);
	}

	private int read(byte[] bytes, int offset, int length, boolean wait) throws IOException {
		if (length == 0) {
			return 0;
		}
		int read;
		this.protocol.lock.lock();
		try {
			long deadline = System.nanoTime() + this.gapNanos;
			while (this.chunks.isEmpty() && this.failure == null && !this.ended) {
				if (!wait) {
					return 0;
				}
				long left = deadline - System.nanoTime();
				if (left <= 0) {
					this.failure = badBody(new HttpParseException(Status.REQUEST_TIMEOUT_408, Answers.BODY_TIMEOUT));
					break;
				}
				this.protocol.changed.awaitNanos(left);
			}
			ByteBuffer chunk = this.chunks.peek();
			if (chunk == null) {
				if (this.failure != null) {
					throw this.failure;
				}
				return -1;
			}
			read = Math.min(length, chunk.remaining());
			chunk.get(bytes, offset, read);
			if (!chunk.hasRemaining()) {
				this.chunks.poll();
				this.reserved -= chunk.capacity();
				this.budget.release(chunk.capacity());
			}
			this.protocol.session.consumed(this.streamId, read);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("Interrupted while reading the request body", ex);
		}
		finally {
			this.protocol.lock.unlock();
		}
		// the credit goes out with what else is framed
		this.protocol.output.flush();
		return read;
	}

	@Override
	public boolean readableNow() {
		this.protocol.lock.lock();
		try {
			return readable();
		}
		finally {
			this.protocol.lock.unlock();
		}
	}

	/** The exchange ended: what is left of the content goes, and back to the budget; under the lock. */
	void releaseHeld() {
		this.chunks.clear();
		if (this.reserved > 0) {
			this.budget.release(this.reserved);
			this.reserved = 0;
		}
	}

	/**
	 * Runs a task once a non-blocking read would give something, now if it would.
	 * @param task the task
	 */
	void onReadable(Runnable task) {
		this.protocol.lock.lock();
		try {
			if (readable()) {
				task.run();
			}
			else {
				this.onReadable = task;
			}
		}
		finally {
			this.protocol.lock.unlock();
		}
	}

	@Override
	public boolean finished() {
		this.protocol.lock.lock();
		try {
			return this.ended && this.chunks.isEmpty();
		}
		finally {
			this.protocol.lock.unlock();
		}
	}

	@Override
	public boolean awaitingContinue() {
		return false;
	}

	@Override
	public Headers trailers() {
		this.protocol.lock.lock();
		try {
			return (this.trailers != null) ? this.trailers : new Headers();
		}
		finally {
			this.protocol.lock.unlock();
		}
	}

}
