package dev.ariadne.server.eventloop;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

import dev.ariadne.server.protocol.Phase;
import dev.ariadne.server.tls.PlaintextRequestException;
import dev.ariadne.server.tls.TlsChannel;

/**
 * The input side of a {@link ChannelWire}, on the selector thread: what a readable socket means
 * in each phase of the connection's protocol (read for it, discard while the connection closes,
 * or tell the thread that waits for input), reading again what TLS decrypted and the socket will
 * not signal, and reading again once the buffer budget lends a buffer.
 *
 * <p>A connection that holds no input buffer while it waits (an idle keep-alive connection, or
 * an upgraded one whose non-blocking reader waits for the client, which gave its buffer back)
 * borrows one when bytes arrive, before anyone reads them; at the budget it stops watching the
 * socket until the loop lends one ({@link #resumeReading}).
 */
final class ChannelInput {

	private final ChannelWire wire;

	private final SelectorLoop loop;

	private final SocketChannel channel;

	/** TLS over the socket, or {@code null} on a plaintext listener. */
	private final TlsChannel tls;

	private final InputDemand demand;

	ChannelInput(ChannelWire wire, SelectorLoop loop, SocketChannel channel, TlsChannel tls, InputDemand demand) {
		this.wire = wire;
		this.loop = loop;
		this.channel = channel;
		this.tls = tls;
		this.demand = demand;
	}

	/** The socket is readable. */
	void onReadable(SelectionKey key) {
		Phase phase = this.wire.protocol().phase();
		if (phase == Phase.READING) {
			read(key);
		}
		else if (phase == Phase.CLOSING) {
			discard();
		}
		else if (!this.demand.pending() && this.demand.unwatched()) {
			// the client sent more while a worker has the connection, and nobody waits for it
			// (pipelining, a body nobody reads yet): stop watching until the protocol reads
			// again or demands. Dropped only here, lazily: a usual turn makes no epoll_ctl
			key.interestOps(key.interestOps() & ~SelectionKey.OP_READ);
		}
		else if (!this.wire.protocol().unparkInput()) {
			// an idle tunnel gave its buffer back, and none fits the budget now: the reader is
			// told once one does (resumeReading)
			this.demand.unwatch();
			key.interestOps(key.interestOps() & ~SelectionKey.OP_READ);
			this.loop.awaitBuffer(this.wire);
		}
		else {
			this.demand.fireWatched();
		}
	}

	private void read(SelectionKey key) {
		int read;
		try {
			read = this.wire.protocol().fill(0);
		}
		catch (PlaintextRequestException ex) {
			this.wire.protocol().plaintextOnTls();
			return;
		}
		catch (IOException ex) {
			this.wire.close();
			return;
		}
		if (read < 0) {
			this.wire.close();
			return;
		}
		if (read == 0) {
			if (!this.wire.protocol().holdsInput()) {
				// at the buffer budget: read no more until a buffer is free (back-pressure)
				this.demand.unwatch();
				key.interestOps(key.interestOps() & ~SelectionKey.OP_READ);
				this.wire.protocol().awaitingInputBuffer();
				this.loop.awaitBuffer(this.wire);
				return;
			}
			this.wire.protocol().releaseEmptyInput();
			watchTlsWrites();
			return;
		}
		watchTlsWrites();
		this.wire.protocol().onInput(read);
		readTlsBuffered();
	}

	/** Reads again what TLS decrypted and the socket will not signal, while the protocol reads. */
	void readTlsBuffered() {
		if (this.tls != null && this.wire.protocol().phase() == Phase.READING && this.tls.hasBufferedInput()) {
			this.loop.execute(this::readBuffered);
		}
	}

	/** Reads what TLS holds decrypted, which the socket will not signal again, whatever the phase. */
	void readTlsHeld() {
		if (this.tls != null && this.tls.hasBufferedInput()) {
			this.loop.execute(this::readBuffered);
		}
	}

	private void readBuffered() {
		if (this.wire.protocol().phase() == Phase.READING) {
			read(this.wire.key());
		}
	}

	/** Handshake messages wait for the socket: watch for writability until they leave. */
	private void watchTlsWrites() {
		if (this.tls != null && this.tls.wantsWrite()) {
			this.wire.watchWritable();
		}
	}

	/**
	 * Reads again after waiting for an input buffer, if one can be borrowed now.
	 * @param key the connection's key
	 * @return whether the connection waits no more (it got a buffer, or reads nothing any more)
	 */
	boolean resumeReading(SelectionKey key) {
		if (this.wire.protocol().phase() != Phase.READING) {
			// an idle tunnel whose input arrived while the budget was spent borrows now
			if (!this.wire.protocol().unparkInput()) {
				return false;
			}
			if (this.demand.pending() && key.isValid()) {
				key.interestOps(key.interestOps() | SelectionKey.OP_READ);
				// what arrived may be read already, and the socket quiet: the reader is told now
				this.demand.fireWatched();
			}
			return true;
		}
		if (!this.wire.protocol().borrowInput()) {
			return false;
		}
		key.interestOps(key.interestOps() | SelectionKey.OP_READ);
		return true;
	}

	/** Reads and drops what a closing connection's client still sends, while it lingers. */
	private void discard() {
		try {
			if (!this.loop.discardInput(this.channel)) {
				this.wire.close();
			}
		}
		catch (IOException ex) {
			this.wire.close();
		}
	}

}
