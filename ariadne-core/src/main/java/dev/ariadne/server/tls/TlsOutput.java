package dev.ariadne.server.tls;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.GatheringByteChannel;

import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLEngineResult.HandshakeStatus;
import javax.net.ssl.SSLEngineResult.Status;
import javax.net.ssl.SSLException;

/**
 * The write side of a {@link TlsChannel}: encrypts into records and writes them to the socket,
 * up to {@link #RECORDS_PER_WRITE} records with one (gathering) write: the records of a large
 * write, the messages of a handshake flight.
 *
 * <p>A write reports a byte written only once what was encrypted has left: when the socket takes
 * only part of it, the rest waits here and the last byte encrypted is reported unwritten, so the
 * caller keeps it and offers it again once the socket is writable; the rest is sent first and
 * that byte taken without being encrypted twice.
 *
 * <p>One thread at a time: every method holds this object's monitor, which the channel also holds
 * around a write's checks. Records wait in buffers of the endpoint's, borrowed from their
 * encryption until the socket took them; a small record is copied after the one before it when
 * that buffer has room, so a handshake flight holds one buffer.
 */
final class TlsOutput {

	/**
	 * Most records written at once: the 64 KiB a writer hands over at most in one go (the event
	 * loop's write slice, HTTP/2's output bound), which the JDK's engine encrypts into five
	 * records (its records carry a little less than 16 KiB).
	 */
	static final int RECORDS_PER_WRITE = 5;

	static final ByteBuffer EMPTY = ByteBuffer.allocate(0);

	private final TlsChannel channel;

	private final TlsEndpoint endpoint;

	private final GatheringByteChannel net;

	/** Encrypted bytes wait for the socket; read without the monitor. */
	private volatile boolean residue;

	/** Records the socket has not taken, from {@code first} to {@code count}, each in read mode. */
	private final ByteBuffer[] records = new ByteBuffer[RECORDS_PER_WRITE];

	private int first;

	private int count;

	/** The byte last reported unwritten was encrypted already: skip it when offered again. */
	private boolean owed;

	/** close_notify was encrypted: nothing more can be. */
	private boolean closed;

	TlsOutput(TlsChannel channel, TlsEndpoint endpoint, GatheringByteChannel net) {
		this.channel = channel;
		this.endpoint = endpoint;
		this.net = net;
	}

	/**
	 * Encrypts and writes application bytes, up to {@link #RECORDS_PER_WRITE} records per socket
	 * write.
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
	 * Encrypts one record after those that wait; a failure is counted and alerted.
	 * @return the engine's result; {@code null} when {@link #RECORDS_PER_WRITE} records wait
	 * (write them first)
	 */
	private SSLEngineResult wrap(SSLEngine engine, ByteBuffer src) throws IOException {
		try {
			return wrapRecord(engine, src);
		}
		catch (SSLException ex) {
			this.channel.failed(ex);
			sendAlert(engine);
			throw ex;
		}
	}

	private SSLEngineResult wrapRecord(SSLEngine engine, ByteBuffer src) throws SSLException {
		if (this.count == RECORDS_PER_WRITE) {
			return null;
		}
		ByteBuffer out = this.endpoint.borrow();
		while (true) {
			out.clear();
			SSLEngineResult result;
			try {
				result = engine.wrap(src, out);
			}
			catch (SSLException ex) {
				this.endpoint.release(out);
				throw ex;
			}
			out.flip();
			if (result.getStatus() == Status.BUFFER_OVERFLOW) {
				// a buffer too small for a record: the engine's own size, unpooled
				this.endpoint.release(out);
				out = this.endpoint.borrow(engine.getSession().getPacketBufferSize());
				continue;
			}
			if (out.hasRemaining() && !appendToLast(out)) {
				this.records[this.count++] = out;
			}
			else {
				this.endpoint.release(out);
			}
			return result;
		}
	}

	/**
	 * Copies a record after the last one waiting when its buffer has room (a handshake message, a
	 * small response), so that a flight of small records holds one buffer, not one each.
	 */
	private boolean appendToLast(ByteBuffer record) {
		if (this.count == this.first) {
			return false;
		}
		ByteBuffer last = this.records[this.count - 1];
		int end = last.limit();
		if (last.capacity() - end < record.remaining()) {
			return false;
		}
		last.limit(end + record.remaining());
		last.put(end, record, record.position(), record.remaining());
		return true;
	}

	/**
	 * Writes the records that wait; whether they all left (then their buffers went back).
	 */
	synchronized boolean flush() throws IOException {
		while (this.first < this.count) {
			// one record, the usual case (a response, a flight): the plain write, no gathering
			long written = (this.count - this.first == 1) ? this.net.write(this.records[this.first])
					: this.net.write(this.records, this.first, this.count - this.first);
			while (this.first < this.count && !this.records[this.first].hasRemaining()) {
				this.endpoint.release(this.records[this.first]);
				this.records[this.first++] = null;
			}
			if (written == 0 && this.first < this.count) {
				this.residue = true;
				return false;
			}
		}
		this.first = 0;
		this.count = 0;
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
			if (flush()) {
				wrapRecord(engine, EMPTY);
				flush();
			}
		}
		catch (IOException ex) {
			// the alert is a courtesy: the connection closes either way
		}
	}

	/**
	 * Gives the buffers back, first sending close_notify if asked and the socket takes it now.
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
		while (this.first < this.count) {
			this.endpoint.release(this.records[this.first]);
			this.records[this.first++] = null;
		}
		this.first = 0;
		this.count = 0;
	}

}
