package dev.ariadne.server.protocol;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicBoolean;

import dev.ariadne.server.connection.ConnectionOutput;

/**
 * Writes what an {@link Http2Protocol}'s session frames, one thread at a time: a stream's thread
 * with the transmitter, which waits while the client is slower than the server (the
 * back-pressure), the wire's own thread with {@link Wire#send}, which never blocks a selector;
 * whichever holds the turn writes what the others framed meanwhile.
 *
 * <p>On a wire whose thread runs tasks soon (the event loop, {@link Wire#executesSoon}), a
 * stream's thread leaves the write to the wire's thread while the client keeps up: the responses
 * several workers framed meanwhile then go out in one write, where each would make its own.
 * Once the wire's output is backlogged, or what is framed reaches {@link Http2Protocol#OUTPUT_HIGH},
 * the stream's thread writes, and waits, itself.
 */
final class Http2Output {

	private final Http2Protocol protocol;

	/** What the turn's holder writes: the session's frames, copied. */
	private final ConnectionOutput out;

	/** Whose turn it is to write. */
	private final AtomicBoolean writing = new AtomicBoolean();

	/** The wire's own thread, once it has run the protocol. */
	volatile Thread wireThread;

	/** Whether streams' threads leave writes to the wire's thread while its output keeps up. */
	private final boolean wireWrites;

	/** Whether a write is queued on the wire's thread and has not yet begun. */
	private final AtomicBoolean wireWriteQueued = new AtomicBoolean();

	private final Runnable wireWrite = () -> {
		// cleared first: what is framed after the write took the output queues another
		this.wireWriteQueued.set(false);
		flushFromWire();
	};

	Http2Output(Http2Protocol protocol) {
		this.protocol = protocol;
		this.out = new ConnectionOutput(protocol.wire.transmitter(), protocol.context.outputBuffers());
		this.wireWrites = protocol.wire.executesSoon();
	}

	/**
	 * Writes what the session framed, on the calling thread if it is not the wire's own (a
	 * stream's thread, waiting while the client is slow), or if nobody else writes now; a call
	 * while the lock is held (the session's events) leaves the frames to the wire's thread, which
	 * writes once the event's input is read. A stream's thread on a wire whose thread runs tasks
	 * soon queues the write there instead, while the wire's output is not backlogged; a failed
	 * connection is then found by the wire's thread, which closes it, and the stream is reset.
	 * @throws IOException if the connection failed
	 */
	void flush() throws IOException {
		if (this.protocol.lock.isHeldByCurrentThread()) {
			return;
		}
		if (Thread.currentThread() == this.wireThread) {
			flushFromWire();
			return;
		}
		if (this.wireWrites && !this.protocol.wire.writesBacklogged()) {
			if (this.wireWriteQueued.compareAndSet(false, true)) {
				this.protocol.wire.execute(this.wireWrite);
			}
			return;
		}
		write(false);
	}

	/**
	 * Waits, on a stream's thread, until what the session framed is below
	 * {@link Http2Protocol#OUTPUT_HIGH}, writing it itself when nobody else does.
	 * @param stream the stream that waits, whose {@link Http2Stream#waitLimit} bounds the wait
	 * @throws IOException if the connection failed, or nothing was written within the limit
	 */
	void awaitOutputRoom(Http2Stream stream) throws IOException {
		long start = System.nanoTime();
		while (true) {
			this.protocol.lock.lock();
			try {
				if (this.protocol.session.pendingOutput() < Http2Protocol.OUTPUT_HIGH) {
					return;
				}
				if (this.writing.get()) {
					stream.waitingForClient(true);
					long limit = stream.waitLimit(start);
					long left = limit - System.nanoTime();
					if (left <= 0) {
						if (limit - start < this.protocol.writeTimeoutNanos) {
							// cut short while the pool is starved: the client holds workers others need
							this.protocol.streams.cutSlowReader();
							throw new IOException("The client read nothing within the low-resources stall timeout");
						}
						throw new IOException("The client read nothing within the write timeout");
					}
					this.protocol.changed.awaitNanos(Math.min(left, Http2Stream.RECHECK_NANOS));
					continue;
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IOException("Interrupted while waiting to write", ex);
			}
			finally {
				stream.waitingForClient(false);
				this.protocol.lock.unlock();
			}
			// written here, not left to the wire's thread: this thread waits for the room anyway
			write(false);
		}
	}

	/**
	 * Moves the session's frames into the output; whether there were any. When there were none
	 * and {@code giveUp}, the turn is given up under the lock: whoever frames after it finds the
	 * turn free and writes, whoever framed before it had its frames taken here.
	 */
	private boolean takeOutput(boolean giveUp) {
		this.protocol.lock.lock();
		try {
			if (!this.protocol.session.hasOutput()) {
				if (giveUp) {
					this.writing.set(false);
					// a stream's writer waiting for room may take the turn now
					this.protocol.changed.signalAll();
				}
				return false;
			}
			this.out.append(this.protocol.session.output());
			this.protocol.session.written();
			this.protocol.changed.signalAll();
			return true;
		}
		finally {
			this.protocol.lock.unlock();
		}
	}

	/** Writes from the wire's own thread, never blocking a selector; a stream's writer may hold the turn. */
	void flushFromWire() {
		try {
			write(true);
		}
		catch (IOException ex) {
			this.protocol.wire.close();
		}
	}

	/**
	 * Writes what the session framed if nobody else does: the wire's thread with
	 * {@link Wire#send}, which never blocks a selector, a stream's thread with the transmitter,
	 * which waits while the client is slow. The turn is given up under the lock once nothing is
	 * left ({@link #takeOutput}), so no frames are left behind without a writer.
	 */
	private void write(boolean wireThread) throws IOException {
		if (!this.writing.compareAndSet(false, true)) {
			return;
		}
		boolean holding = true;
		try {
			while (takeOutput(true)) {
				if (wireThread) {
					this.protocol.wire.send(this.out);
				}
				else {
					this.out.flush();
				}
			}
			holding = false;
		}
		catch (IOException ex) {
			if (!wireThread) {
				writeFailed();
			}
			throw ex;
		}
		finally {
			if (holding) {
				// the connection failed: it closes, and nothing more is written to it
				this.writing.set(false);
			}
		}
	}

	/**
	 * A stream's writer could not write the connection's frames (the client read nothing within
	 * the write limit, or the connection failed): no stream of the connection can be answered, so
	 * all of them end, those waiting for a worker without running, instead of each waiting its
	 * turn to fail the same way.
	 */
	private void writeFailed() {
		this.protocol.lock.lock();
		try {
			this.protocol.streams.closeAll();
		}
		finally {
			this.protocol.lock.unlock();
		}
	}

	/**
	 * Takes the turn for good to write the last frames (a {@code GOAWAY}), the connection closing
	 * after them.
	 * @return the output holding them, or {@code null} when a stream's writer holds the turn
	 */
	ConnectionOutput takeLast() {
		if (!this.writing.compareAndSet(false, true)) {
			return null;
		}
		takeOutput(false);
		return this.out;
	}

}
