package dev.ariadne.servlet;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.Arrays;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;

/**
 * The response body as the application writes it: a buffer of {@code getBufferSize()} bytes in
 * front of the core response. While everything written fits the buffer nothing is sent, so a
 * response that ends there goes out with a {@code Content-Length}; once the buffer overflows
 * or is flushed, the response commits and the body streams (chunked unless the application set
 * a length). Writes larger than the buffer bypass it.
 *
 * <p>Not thread-safe, as the Servlet API allows: one thread writes at a time (the exchange's, or
 * an application thread during async processing).
 */
final class ResponseOutput extends ServletOutputStream {

	static final int DEFAULT_BUFFER_SIZE = 8192;

	private final ExchangeResponse response;

	private byte[] buffer;

	private int count;

	private int bufferSize = DEFAULT_BUFFER_SIZE;

	private OutputStream body;

	private long written;

	private boolean closed;

	ResponseOutput(ExchangeResponse response) {
		this.response = response;
	}

	int bufferSize() {
		return this.bufferSize;
	}

	void bufferSize(int size) {
		if (this.written > 0 || this.response.isHeadCommitted()) {
			throw new IllegalStateException("Cannot change the buffer size after content was written");
		}
		this.bufferSize = Math.max(size, 0);
		this.buffer = null;
	}

	/** Whether anything was written since the buffer was last cleared. */
	boolean hasContent() {
		return this.written > 0;
	}

	boolean isClosed() {
		return this.closed;
	}

	/** Discards the buffered content (not what was sent). */
	void clearBuffer() {
		this.count = 0;
		if (!this.response.isHeadCommitted()) {
			this.written = 0;
		}
	}

	/** Makes the stream writable again after {@code reset()} or for an error page. */
	void reopen() {
		if (!this.response.isHeadCommitted()) {
			this.closed = false;
			clearBuffer();
		}
	}

	@Override
	public void write(int b) throws IOException {
		write(new byte[] { (byte) b }, 0, 1);
	}

	@Override
	public void write(byte[] bytes, int offset, int length) throws IOException {
		if (this.closed || this.response.isSuspended()) {
			return;
		}
		if (length == 0) {
			return;
		}
		if (this.response.isUpgraded()) {
			throw new IllegalStateException("The request switched protocols: the response has no body; write to "
					+ "the WebConnection's output stream");
		}
		try {
			if (length <= this.bufferSize - this.count) {
				if (this.buffer == null) {
					this.buffer = new byte[this.bufferSize];
				}
				System.arraycopy(bytes, offset, this.buffer, this.count, length);
				this.count += length;
			}
			else {
				commitAndDrain();
				if (length >= this.bufferSize) {
					this.body.write(bytes, offset, length);
				}
				else {
					if (this.buffer == null) {
						this.buffer = new byte[this.bufferSize];
					}
					System.arraycopy(bytes, offset, this.buffer, 0, length);
					this.count = length;
				}
			}
		}
		catch (IOException ex) {
			this.response.writeFailed(ex);
			throw ex;
		}
		this.written += length;
		long declared = this.response.declaredLength();
		if (declared >= 0 && this.written >= declared) {
			// all the content the application announced is here: the response is complete
			close();
		}
	}

	@Override
	public void write(ByteBuffer source) throws IOException {
		if (!isReady()) {
			throw new IllegalStateException("write(ByteBuffer) called while isReady() is false");
		}
		if (source.hasArray()) {
			int length = source.remaining();
			write(source.array(), source.arrayOffset() + source.position(), length);
			source.position(source.position() + length);
			return;
		}
		byte[] chunk = new byte[Math.min(source.remaining(), 8192)];
		while (source.hasRemaining()) {
			int length = Math.min(chunk.length, source.remaining());
			source.get(chunk, 0, length);
			write(chunk, 0, length);
		}
	}

	/** Commits the response for streaming and sends what the buffer holds. */
	private void commitAndDrain() throws IOException {
		if (this.body == null) {
			this.body = this.response.commitStreaming();
		}
		if (this.count > 0) {
			int length = this.count;
			this.count = 0;
			this.body.write(this.buffer, 0, length);
		}
	}

	@Override
	public void flush() throws IOException {
		if (this.closed || this.response.isSuspended()) {
			return;
		}
		try {
			commitAndDrain();
			this.body.flush();
		}
		catch (IOException ex) {
			this.response.writeFailed(ex);
			throw ex;
		}
	}

	/**
	 * Ends the body: a response still wholly in the buffer is sent with its length; a streamed
	 * one gets its end (the last chunk).
	 */
	@Override
	public void close() throws IOException {
		if (this.closed) {
			return;
		}
		this.closed = true;
		if (this.response.isSuspended()) {
			return;
		}
		try {
			if (this.response.isUpgraded()) {
				// a 101 has no body to end: its head goes out
				commitAndDrain();
				this.body.flush();
				return;
			}
			if (this.body == null && !this.response.isHeadCommitted()) {
				byte[] content = (this.count > 0) ? Arrays.copyOf(this.buffer, this.count) : new byte[0];
				this.count = 0;
				this.response.commitComplete(content);
				return;
			}
			commitAndDrain();
			this.body.close();
		}
		catch (IOException ex) {
			this.response.writeFailed(ex);
			throw ex;
		}
	}

	@Override
	public boolean isReady() {
		return this.response.exchange().nonBlocking().writeReady();
	}

	@Override
	public void setWriteListener(WriteListener writeListener) {
		this.response.exchange().nonBlocking().writeListener(writeListener);
	}

}
