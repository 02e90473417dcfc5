package dev.ariadne.server.tls;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ByteChannel;
import java.nio.channels.ClosedChannelException;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLEngineResult.Status;
import javax.net.ssl.SSLException;

/**
 * The write side of a {@link TlsChannel}: encrypts into records and writes them to the socket,
 * as many records as its buffer holds with one write (the records of a large write, a
 * handshake's flight), and keeps what the socket did not take.
 *
 * <p>A write reports a byte written only once what was encrypted has left: when the socket takes
 * only part of it, the rest waits here and the last byte encrypted is reported unwritten, so the
 * caller keeps it and offers it again once the socket is writable; the rest is sent first and
 * that byte taken without being encrypted twice.
 *
 * <p>One thread at a time: every method holds this object's monitor, which the channel also holds
 * around a write's checks. The buffer is borrowed from the endpoint while it holds bytes.
 */
final class TlsOutput {

	static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

	private final TlsChannel channel;

	private final TlsEndpoint endpoint;

	private final ByteChannel net;

	/** Encrypted bytes wait for the socket; read without the monitor. */
	private volatile boolean residue;

	/** Encrypted bytes the socket has not taken, in read mode; borrowed while it holds any. */
	private ByteBuffer netOut;

	/** The byte last reported unwritten was encrypted already: skip it when offered again. */
	private boolean owed;

	/** close_notify was encrypted: nothing more can be. */
	private boolean closed;

	TlsOutput(TlsChannel channel, TlsEndpoint endpoint, ByteChannel net) {
		this.channel = channel;
		this.endpoint = endpoint;
		this.net = net;
	}

	/**
	 * Encrypts and writes application bytes, a buffer's worth of records per socket write.
	 * @return the bytes taken (see the class description)
	 */
	synchronized int write(SSLEngine engine, ByteBuffer src) throws IOException {
		if (!flush()) {
			return 0;
		}
		int written = 0;
		if (this.owed && src.hasRemaining()) {
			src.position(src.position() + 1);
			this.owed = false;
			written = 1;
		}
		while (src.hasRemaining()) {
			int before = src.position();
			SSLEngineResult result;
			while (src.hasRemaining() && (result = wrap(engine, src)) != null) {
				if (result.getStatus() == Status.CLOSED) {
					throw new ClosedChannelException();
				}
			}
			int consumed = src.position() - before;
			written += consumed;
			if (!flush()) {
				if (consumed > 0) {
					src.position(src.position() - 1);
					written--;
					this.owed = true;
				}
				return written;
			}
		}
		return written;
	}

	/**
	 * Encrypts the engine's handshake messages as long as it has any to send, and writes them
	 * together.
	 * @return the handshake status after them; {@code null} while the socket is full
	 */
	synchronized HandshakeStatus wrapHandshake(SSLEngine engine) throws IOException {
		HandshakeStatus status = HandshakeStatus.NEED_WRAP;
		while (status == HandshakeStatus.NEED_WRAP) {
			SSLEngineResult result = wrap(engine, EMPTY);
			if (result == null) {
				if (!flush()) {
					return null;
				}
				continue;
			}
			status = result.getHandshakeStatus();
			if (result.getStatus() == Status.CLOSED) {
				break;
			}
		}
		flush();
		return status;
	}

	/**
	 * Encrypts one record after the bytes that wait in the buffer.
	 * @return the engine's result; {@code null} when the buffer holds bytes and has no room for
	 * another record (write them first)
	 */
	private SSLEngineResult wrap(SSLEngine engine, ByteBuffer src) throws IOException {
		while (true) {
			if (this.netOut == null) {
				this.netOut = this.endpoint.borrowOutput();
			}
			ByteBuffer out = this.netOut;
			int start = out.position();
			int end = out.limit();
			out.limit(out.capacity()).position(end);
			SSLEngineResult result;
			try {
				result = engine.wrap(src, out);
			}
			catch (SSLException ex) {
				out.limit(end).position(start);
				this.channel.failed(ex);
				sendAlert(engine);
				throw ex;
			}
			out.limit(out.position()).position(start);
			if (result.getStatus() != Status.BUFFER_OVERFLOW) {
				return result;
			}
			if (out.hasRemaining()) {
				return null;
			}
			// an empty buffer too small for a record: the engine's own size, unpooled
			this.endpoint.release(out);
			this.netOut = this.endpoint.borrow(engine.getSession().getPacketBufferSize());
		}
	}

	/**
	 * Writes what waits; whether it all left (then its buffer goes back).
	 */
	synchronized boolean flush() throws IOException {
		ByteBuffer out = this.netOut;
		if (out == null) {
			return true;
		}
		while (out.hasRemaining()) {
			if (this.net.write(out) == 0) {
				this.residue = true;
				return false;
			}
		}
		this.netOut = null;
		this.endpoint.release(out);
		this.residue = false;
		return true;
	}

	/** Whether encrypted bytes wait for the socket. */
	boolean wantsWrite() {
		return this.residue;
	}

	/** Whether close_notify was encrypted. */
	synchronized boolean closed() {
		return this.closed;
	}

	/**
	 * Sends close_notify after whatever waits.
	 * @return whether it left
	 */
	synchronized boolean closeOutbound(SSLEngine engine) throws IOException {
		if (!flush()) {
			return false;
		}
		if (!this.closed) {
			this.closed = true;
			engine.closeOutbound();
			wrap(engine, EMPTY);
		}
		return flush();
	}

	/** After a failure the engine holds its alert: sends it if the socket takes it now. */
	synchronized void sendAlert(SSLEngine engine) {
		try {
			if (!flush()) {
				return;
			}
			if (this.netOut == null) {
				this.netOut = this.endpoint.borrowOutput();
			}
			ByteBuffer out = this.netOut;
			out.clear();
			try {
				engine.wrap(EMPTY, out);
			}
			finally {
				out.flip();
			}
			flush();
		}
		catch (IOException ex) {
			// the alert is a courtesy: the connection closes either way
		}
	}

	/**
	 * Gives the buffer back, first sending close_notify if asked and the socket takes it now.
	 */
	synchronized void release(SSLEngine engine, boolean closeNotify) {
		if (closeNotify && !this.closed) {
			try {
				closeOutbound(engine);
			}
			catch (IOException ex) {
				// the client is gone: nothing to tell it
			}
		}
		if (this.netOut != null) {
			this.endpoint.release(this.netOut);
			this.netOut = null;
		}
	}

}
