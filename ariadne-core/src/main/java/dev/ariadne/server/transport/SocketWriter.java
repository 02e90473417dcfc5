package dev.ariadne.server.transport;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.function.Consumer;

import dev.ariadne.server.connection.ConnectionOutput;
import dev.ariadne.server.internal.BufferBudget;

/**
 * Blocking writes to the socket of a {@link SocketWire}, watched for progress: a socket
 * write has no timeout of its own, so the writer says since when the write in progress has
 * made none, and the watchdog closes a connection whose client stopped reading.
 *
 * <p>Non-blocking writes of a suspended exchange ({@link #offer}) are emulated: the bytes are
 * queued (counted in the buffer budget) and the connection's own thread, which waits for the
 * exchange anyway, writes them with blocking writes; {@link #writable} tells the writer when
 * to go on. On a connection that switched protocols, whose thread may wait in a read for as
 * long as the connection lasts, they go out from the writer's own thread instead
 * ({@link #direct()}).
 *
 * <p>{@link #transmit} is called by the thread running the connection's exchange (it writes
 * what was queued first); {@link #offer} and {@link #writable} by the exchange's writer;
 * {@link #stalled} by the watchdog.
 */
final class SocketWriter implements ConnectionOutput.Transmitter {

	/** Bytes per write call: the watchdog sees progress on a large write that moves. */
	private static final int WRITE_SLICE = 64 * 1024;

	/** Queued bytes at which a non-blocking writer is told to wait. */
	private static final int HIGH_WATER = 64 * 1024;

	/** Queued bytes below which a non-blocking writer is told it may write again. */
	private static final int LOW_WATER = 16 * 1024;

	private final Socket socket;

	private final BufferBudget budget;

	/** Hands a task to the connection's thread. */
	private final Consumer<Runnable> connectionThread;

	private OutputStream output;

	/** A write of the connection's other than {@link #transmit}, watched the same way. */
	@FunctionalInterface
	interface Write {

		void run() throws IOException;

	}

	/** Whether non-blocking writes go out from the writer's thread ({@link #direct()}). */
	private volatile boolean direct;

	/** When the write in progress last made progress (odd, never 0), or 0 when not writing. */
	private volatile long writeSince;

	private final Object lock = new Object();

	// ---- guarded by lock

	private final ArrayDeque<byte[]> queued = new ArrayDeque<>();

	private int queuedBytes;

	private boolean draining;

	private IOException failure;

	private Runnable writableAgain;

	SocketWriter(Socket socket, BufferBudget budget, Consumer<Runnable> connectionThread) {
		this.socket = socket;
		this.budget = budget;
		this.connectionThread = connectionThread;
	}

	@Override
	public void transmit(byte[] bytes, int offset, int length) throws IOException {
		drainQueued();
		write(bytes, offset, length);
	}

	private void write(byte[] bytes, int offset, int length) throws IOException {
		OutputStream output = this.output;
		if (output == null) {
			// a channel's socket makes a new stream per call
			output = this.socket.getOutputStream();
			this.output = output;
		}
		int end = offset + length;
		try {
			for (int position = offset; position < end; position += WRITE_SLICE) {
				this.writeSince = System.nanoTime() | 1;
				output.write(bytes, position, Math.min(WRITE_SLICE, end - position));
			}
		}
		finally {
			this.writeSince = 0;
		}
	}

	/**
	 * Sends a non-blocking writer's bytes from its own thread from now on, waiting for the socket
	 * as a blocking write does, and tells it that it may always write: for a connection that
	 * switched protocols, whose own thread may wait in a read for as long as it lasts.
	 */
	void direct() {
		this.direct = true;
	}

	@Override
	public void offer(byte[] bytes, int offset, int length) throws IOException {
		if (this.direct) {
			transmit(bytes, offset, length);
			return;
		}
		synchronized (this.lock) {
			if (this.failure != null) {
				throw this.failure;
			}
			this.queued.addLast(Arrays.copyOfRange(bytes, offset, offset + length));
			this.queuedBytes += length;
			this.budget.force(length);
			if (this.draining) {
				return;
			}
			this.draining = true;
		}
		this.connectionThread.accept(this::drainQueuedQuietly);
	}

	/**
	 * Returns whether a non-blocking writer may write now. When not, the callback runs once the
	 * queue has drained below its low-water mark (or the budget has room again).
	 * @param callback what to run then; it must not block
	 * @return whether to write now; {@code true} after a failed write (the next one says so)
	 */
	boolean writable(Runnable callback) {
		if (this.direct) {
			return true;
		}
		synchronized (this.lock) {
			if (this.failure != null || (this.queuedBytes < HIGH_WATER && !this.budget.exhausted())) {
				return true;
			}
			this.writableAgain = callback;
			if (this.queuedBytes > 0) {
				return false;
			}
		}
		this.budget.whenBulkFree(() -> this.connectionThread.accept(this::tellWritable));
		return false;
	}

	private void tellWritable() {
		Runnable callback;
		synchronized (this.lock) {
			callback = this.writableAgain;
			this.writableAgain = null;
		}
		if (callback != null) {
			callback.run();
		}
	}

	private void drainQueuedQuietly() {
		try {
			drainQueued();
		}
		catch (IOException ex) {
			// kept for the writer, whose next write throws it
		}
	}

	/**
	 * Writes what non-blocking writers queued, with blocking writes, on the calling thread: the
	 * connection's thread, which must also call it after an exchange that ended while its
	 * handler ran, since the drain that {@link #offer} handed over is then never run.
	 */
	void drainQueued() throws IOException {
		while (true) {
			byte[] chunk;
			Runnable again = null;
			synchronized (this.lock) {
				chunk = this.queued.pollFirst();
				if (chunk == null) {
					this.draining = false;
					return;
				}
			}
			try {
				write(chunk, 0, chunk.length);
			}
			catch (IOException ex) {
				fail(ex);
				throw ex;
			}
			finally {
				this.budget.release(chunk.length);
			}
			synchronized (this.lock) {
				this.queuedBytes -= chunk.length;
				if (this.writableAgain != null && this.queuedBytes <= LOW_WATER) {
					again = this.writableAgain;
					this.writableAgain = null;
				}
			}
			if (again != null) {
				again.run();
			}
		}
	}

	private void fail(IOException failure) {
		Runnable again;
		synchronized (this.lock) {
			this.failure = failure;
			long held = 0;
			for (byte[] chunk : this.queued) {
				held += chunk.length;
			}
			this.budget.release(held);
			this.queued.clear();
			this.queuedBytes = 0;
			this.draining = false;
			again = this.writableAgain;
			this.writableAgain = null;
		}
		if (again != null) {
			again.run();
		}
	}

	/**
	 * Sends everything from now on through a stream over the socket (TLS) instead of the
	 * socket's own.
	 * @param output the stream
	 */
	void output(OutputStream output) {
		this.output = output;
	}

	/**
	 * Runs a write that is not a transmission (a TLS close_notify), watched for progress like
	 * one.
	 * @param write the write
	 * @throws IOException if it failed
	 */
	void watched(Write write) throws IOException {
		this.writeSince = System.nanoTime() | 1;
		try {
			write.run();
		}
		finally {
			this.writeSince = 0;
		}
	}

	/**
	 * Returns whether a write has made no progress for longer than the timeout. Any thread.
	 * @param nowNanos the current {@link System#nanoTime()}
	 * @param writeTimeoutNanos the longest a write may make no progress
	 * @return whether the write in progress has stalled
	 */
	boolean stalled(long nowNanos, long writeTimeoutNanos) {
		long since = this.writeSince;
		return since != 0 && nowNanos - since > writeTimeoutNanos;
	}

}
