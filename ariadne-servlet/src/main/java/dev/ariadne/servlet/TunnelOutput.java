package dev.ariadne.servlet;

import java.io.IOException;
import java.io.OutputStream;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;

/**
 * The output of a connection that switched protocols, as its upgrade handler writes it
 * ({@code WebConnection.getOutputStream()}): straight to the core's upgraded response, each write
 * sent as it is made (a frame written is a frame sent, whoever flushes), with non-blocking writes
 * ({@link NonBlockingIo}) once a write listener is set. Closing it ends what the handler may
 * write; the connection itself closes with {@code WebConnection.close()}.
 *
 * <p>Not thread-safe, as the Servlet API allows: one thread writes at a time.
 */
final class TunnelOutput extends ServletOutputStream {

	private final OutputStream core;

	private final NonBlockingIo nonBlocking;

	private volatile boolean closed;

	TunnelOutput(OutputStream core, NonBlockingIo nonBlocking) {
		this.core = core;
		this.nonBlocking = nonBlocking;
	}

	@Override
	public void write(int b) throws IOException {
		write(new byte[] { (byte) b }, 0, 1);
	}

	@Override
	public void write(byte[] bytes, int offset, int length) throws IOException {
		if (this.closed) {
			throw new IOException("The output of the upgraded connection is closed");
		}
		if (length == 0) {
			return;
		}
		try {
			this.core.write(bytes, offset, length);
			this.core.flush();
		}
		catch (IOException ex) {
			this.nonBlocking.writeFailed(ex);
			throw ex;
		}
	}

	@Override
	public void flush() throws IOException {
		if (!this.closed) {
			this.core.flush();
		}
	}

	@Override
	public void close() throws IOException {
		if (!this.closed) {
			this.closed = true;
			this.core.flush();
		}
	}

	/** The connection is gone: nothing more is written, and nothing is flushed. */
	void abandon() {
		this.closed = true;
	}

	@Override
	public boolean isReady() {
		return this.nonBlocking.writeReady();
	}

	@Override
	public void setWriteListener(WriteListener writeListener) {
		this.nonBlocking.writeListener(writeListener);
	}

}
