package dev.ariadne.server.protocol;

import java.io.IOException;
import java.nio.ByteBuffer;

import javax.net.ssl.SSLSession;

import dev.ariadne.server.connection.ConnectionOutput;
import dev.ariadne.server.stats.StreamCount;

/**
 * The protocol of one connection, as its {@link Wire} drives it: the wire's own thread tells it
 * what the connection did (bytes read, the response written, a deadline checked, closed), and
 * asks its {@link #phase()} to know what to do with the connection's readiness. Every I/O model
 * drives every protocol the same way; {@link Http1Protocol} is the first.
 *
 * <p>A connection has one protocol at a time. The first is made by the transport's
 * {@link Factory} once the connection is accepted; a protocol may hand the connection to another
 * ({@link Wire#handOff}), with the bytes it read and did not use, which the next one
 * {@linkplain #takeOver takes over}.
 *
 * <p>Thread ownership: every method but {@link #workerPool()}, {@link #inExchange()} and
 * {@link #abort()} on the wire's own thread (the selector, or the connection's thread), and on
 * the thread that runs an exchange while the protocol lends it the connection
 * ({@link Phase#DISPATCHED}), as the implementation documents.
 */
public interface Protocol {

	/**
	 * Makes the protocol of a connection.
	 */
	@FunctionalInterface
	interface Factory {

		/**
		 * Makes the protocol of a connection; it reads and writes nothing yet.
		 * @param wire the connection's transport
		 * @return the protocol
		 */
		Protocol create(Wire wire);

	}

	/**
	 * Returns where the connection is: what the wire does with its readiness.
	 * @return the phase
	 */
	Phase phase();

	/**
	 * Returns the protocol's name as ALPN spells it ({@code http/1.1}, {@code h2}, or
	 * {@code h2c} for HTTP/2 without TLS), or the one an HTTP/1.1 connection switched to
	 * ({@code websocket}): the {@code protocol} tag of the connection meters; any thread.
	 * @return the name
	 */
	String name();

	/**
	 * Returns what the connection's streams are doing, for a protocol that multiplexes them; any
	 * thread.
	 * @return the count, {@link StreamCount#NONE} for a protocol of one exchange at a time
	 */
	default StreamCount streams() {
		return StreamCount.NONE;
	}

	// ---- starting

	/**
	 * The connection is registered, this protocol first on it: it is idle until its first bytes,
	 * within a deadline.
	 * @param deadline the {@link System#nanoTime()} by which the client must begin
	 * @param waitedNanos how long the connection waited for a worker before it was served
	 * ({@code blocking}); else 0
	 */
	void start(long deadline, long waitedNanos);

	/**
	 * The TLS handshake completed: the client's time to begin starts again.
	 * @param session the connection's TLS session
	 */
	void handshaken(SSLSession session);

	/**
	 * The connection was handed to this protocol by the one before it ({@link Wire#handOff}):
	 * the protocol goes on with the bytes that one read and did not use.
	 * @param unread those bytes, in read mode, in an input buffer this protocol owns from now on
	 * (to give back with {@link Wire#releaseInput}); or {@code null} when there were none
	 */
	void takeOver(ByteBuffer unread);

	// ---- reading (the wire's own thread, while READING)

	/**
	 * Reads into the protocol's input buffer, borrowing one if none is held.
	 * @param until as {@link Wire#read}: 0 for what is there now
	 * @return the bytes read, or -1 at the end of the stream; 0 as well when no buffer fits the
	 * budget ({@link #holdsInput()} tells)
	 * @throws IOException if reading failed
	 */
	int fill(long until) throws IOException;

	/**
	 * Returns whether the protocol holds an input buffer.
	 * @return whether a buffer is held
	 */
	boolean holdsInput();

	/**
	 * Borrows an input buffer again after waiting for the budget.
	 * @return whether a buffer is held now
	 */
	boolean borrowInput();

	/** The wire waits for a buffer of the budget; the protocol asks for no bytes meanwhile. */
	void awaitingInputBuffer();

	/** Gives the input buffer back if everything in it is used. */
	void releaseEmptyInput();

	/**
	 * A thread that holds the connection waits for input: the protocol may give back an input
	 * buffer it holds empty meanwhile (a connection that switched protocols, whose client may say
	 * nothing for hours), if no thread uses it. The wire's own thread, when it starts watching.
	 * By default nothing.
	 */
	default void parkIdleInput() {
	}

	/**
	 * Input arrived for a thread that waits for it: the protocol borrows back the buffer
	 * {@link #parkIdleInput} gave back, before that thread is told, and may read what arrived
	 * into it for that thread, if no thread uses it (so that the socket does not signal again
	 * while the thread works). The wire's own thread.
	 * @return false when no buffer fits the budget, so that the wire waits for one before it
	 * tells the thread; true otherwise (nothing was given back, by default)
	 */
	default boolean unparkInput() {
		return true;
	}

	/**
	 * Bytes were read into the input buffer: the protocol uses them.
	 * @param read how many, more than 0
	 */
	void onInput(int read);

	/** The client sent plaintext HTTP to a TLS port: answer so, then close. */
	void plaintextOnTls();

	/**
	 * Answers 503 without reading anything, for a connection that will never be served, before
	 * this protocol read anything (a plaintext listener only); the caller closes.
	 * @param reason the body of the answer
	 * @param retryAfterSeconds the {@code Retry-After} value, or 0 for none
	 * @throws IOException if the answer could not be sent
	 */
	void reject(String reason, int retryAfterSeconds) throws IOException;

	/**
	 * Returns the connection's output, for the wire to flush before it waits.
	 * @return the output
	 */
	ConnectionOutput out();

	// ---- deadlines (the wire's own thread)

	/**
	 * Returns whether the connection waits, idle, for the client to begin.
	 * @return whether idle
	 */
	boolean isIdle();

	/**
	 * Returns when what the client is sending now must have arrived.
	 * @return the {@link System#nanoTime()} of the deadline
	 */
	long readDeadline();

	/**
	 * Returns whether {@link #checkTimeout} has something to do while the connection reads: a
	 * cheap test, without side effects.
	 * @param now the time
	 * @return whether a deadline passed
	 */
	boolean isDue(long now);

	/**
	 * Enforces the deadlines of what the connection reads.
	 * @param now the time
	 */
	void checkTimeout(long now);

	// ---- writing and exchanges

	/**
	 * The output the wire queued is written, while {@link Phase#FLUSHING}: the protocol goes on.
	 */
	void flushed();

	/**
	 * Returns the pool whose worker runs, or last ran, an exchange of the connection; any thread.
	 * @return the pool's name, or {@code null} before the first exchange
	 */
	String workerPool();

	/**
	 * Returns whether a thread runs a handler of the connection now; any thread.
	 * @return whether inside an exchange
	 */
	boolean inExchange();

	// ---- closing

	/**
	 * Says goodbye to an idle connection the transport is about to close (its idle time is up,
	 * or a shutdown began) in the protocol's own words: HTTP/2's {@code GOAWAY}, so that the
	 * client knows no request of its own was lost; nothing in HTTP/1.1. The wire's own thread.
	 */
	void goAway();

	/**
	 * Returns whether {@link #goAway()} has something to say: the socket models then let the
	 * connection's own thread end its idle time, rather than closing the socket from another.
	 * @return whether the protocol says goodbye before an idle connection closes
	 */
	boolean saysGoodbye();

	/**
	 * The wire closed the connection; the wire's own thread, once.
	 */
	void closed();

	/**
	 * The thread that ran an exchange failed in the server's own code and left the connection:
	 * close it, and release what that thread no longer uses; the wire's own thread.
	 */
	void abandoned();

	/**
	 * The server closes the connection from another thread (shutdown, a stalled writer): the
	 * exchanges waiting for the connection are told, on that thread.
	 * @param beforePoolsStop whether the pools stop next, and may drop what they queued
	 */
	void abort(boolean beforePoolsStop);

}
