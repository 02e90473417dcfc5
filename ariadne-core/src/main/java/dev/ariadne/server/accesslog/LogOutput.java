package dev.ariadne.server.accesslog;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;

/**
 * Where an access log's lines go: a {@link RollingFile}, or a stream such as standard output.
 * Called by the log's writer thread only, with whole lines, in batches; a call may block (a
 * slow disk), which holds up the writer, never a request.
 */
public interface LogOutput {

	/**
	 * Opens the output, before the first line.
	 * @param nowMillis the wall-clock time
	 * @throws IOException if it cannot be opened
	 */
	void open(long nowMillis) throws IOException;

	/**
	 * Moves to the next file when its period has begun; called before each batch.
	 * @param nowMillis the wall-clock time
	 * @throws IOException if the next file cannot be opened
	 */
	default void roll(long nowMillis) throws IOException {
	}

	/**
	 * Writes whole lines.
	 * @param bytes the lines
	 * @param offset where they start
	 * @param length how many bytes
	 * @throws IOException if they could not be written
	 */
	void write(byte[] bytes, int offset, int length) throws IOException;

	/**
	 * Closes the output, after the last line.
	 * @throws IOException if closing failed
	 */
	void close() throws IOException;

	/**
	 * Returns an output to standard output as it is when the log starts ({@link System#out}),
	 * flushed after each batch and never closed. Lines are written to the stream in one call
	 * per batch, so that they do not interleave with what a logging backend writes there.
	 * @return the output
	 */
	static LogOutput console() {
		return new LogOutput() {

			private PrintStream out;

			@Override
			public void open(long nowMillis) {
				this.out = System.out;
			}

			@Override
			public void write(byte[] bytes, int offset, int length) {
				this.out.write(bytes, offset, length);
				this.out.flush();
			}

			@Override
			public void close() {
				this.out.flush();
			}

			@Override
			public String toString() {
				return "the console";
			}

		};
	}

	/**
	 * Returns an output to a stream, for tests: never closed.
	 * @param stream the stream
	 * @return the output
	 */
	static LogOutput of(OutputStream stream) {
		return new LogOutput() {

			@Override
			public void open(long nowMillis) {
			}

			@Override
			public void write(byte[] bytes, int offset, int length) throws IOException {
				stream.write(bytes, offset, length);
				stream.flush();
			}

			@Override
			public void close() {
			}

		};
	}

}
