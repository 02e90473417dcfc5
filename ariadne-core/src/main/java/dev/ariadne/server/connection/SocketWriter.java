package dev.ariadne.server.connection;

import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;

/**
 * Blocking writes to the socket of a {@link SocketConnection}, watched for progress: a socket
 * write has no timeout of its own, so the writer says since when the write in progress has
 * made none, and the watchdog closes a connection whose client stopped reading.
 *
 * <p>Written by the thread running the connection's exchange; {@link #stalled} is read by the
 * watchdog.
 */
final class SocketWriter implements ConnectionOutput.Transmitter {

	/** Bytes per write call: the watchdog sees progress on a large write that moves. */
	private static final int WRITE_SLICE = 64 * 1024;

	private final Socket socket;

	private OutputStream output;

	/** A write of the connection's other than {@link #transmit}, watched the same way. */
	@FunctionalInterface
	interface Write {

		void run() throws IOException;

	}

	/** When the write in progress last made progress (odd, never 0), or 0 when not writing. */
	private volatile long writeSince;

	SocketWriter(Socket socket) {
		this.socket = socket;
	}

	@Override
	public void transmit(byte[] bytes, int offset, int length) throws IOException {
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
