package dev.ariadne.server.tls;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.GatheringByteChannel;
import java.util.concurrent.TimeUnit;

/**
 * A blocking socket's streams as the channel a {@link TlsChannel} reads and writes: reads
 * honour the socket's timeout, and, while a deadline is set (the handshake's), wait no longer
 * than until it; a gathering write is one write per buffer. Heap buffers only (the channel's own).
 */
final class StreamNet implements ByteChannel, GatheringByteChannel {

	private final Socket socket;

	private final InputStream in;

	private final OutputStream out;

	/** The {@link System#nanoTime()} reads must end by, or 0 for none; the reading thread's. */
	private long deadline;

	StreamNet(Socket socket) throws IOException {
		this.socket = socket;
		this.in = socket.getInputStream();
		this.out = socket.getOutputStream();
	}

	/**
	 * Sets the deadline of the reads to come; 0 clears it and the socket's timeout with it.
	 */
	void deadline(long nanos) throws IOException {
		this.deadline = nanos;
		if (nanos == 0) {
			this.socket.setSoTimeout(0);
		}
	}

	@Override
	public int read(ByteBuffer dst) throws IOException {
		if (this.deadline != 0) {
			long remaining = TimeUnit.NANOSECONDS.toMillis(this.deadline - System.nanoTime());
			if (remaining <= 0) {
				throw new SocketTimeoutException("TLS handshake timed out");
			}
			this.socket.setSoTimeout((int) Math.min(remaining, Integer.MAX_VALUE));
		}
		int read = this.in.read(dst.array(), dst.arrayOffset() + dst.position(), dst.remaining());
		if (read > 0) {
			dst.position(dst.position() + read);
		}
		return read;
	}

	@Override
	public int write(ByteBuffer src) throws IOException {
		int length = src.remaining();
		this.out.write(src.array(), src.arrayOffset() + src.position(), length);
		src.position(src.limit());
		return length;
	}

	@Override
	public long write(ByteBuffer[] srcs, int offset, int length) throws IOException {
		long written = 0;
		for (int i = offset; i < offset + length; i++) {
			written += write(srcs[i]);
		}
		return written;
	}

	@Override
	public long write(ByteBuffer[] srcs) throws IOException {
		return write(srcs, 0, srcs.length);
	}

	/** The encrypted bytes the socket holds unread. */
	int available() throws IOException {
		return this.in.available();
	}

	@Override
	public boolean isOpen() {
		return !this.socket.isClosed();
	}

	@Override
	public void close() throws IOException {
		this.socket.close();
	}

}
