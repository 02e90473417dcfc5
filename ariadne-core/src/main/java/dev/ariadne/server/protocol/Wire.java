package dev.ariadne.server.protocol;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

import javax.net.ssl.SSLSession;

import dev.ariadne.server.connection.AsyncHost;
import dev.ariadne.server.connection.ConnectionContext;
import dev.ariadne.server.connection.ConnectionOutput;
import dev.ariadne.server.connection.PoolEntry;

/**
 * What a transport gives the protocol of one connection: its bytes in and out, its threads and
 * its life cycle. The event loop's {@code ChannelWire} and the socket models' {@code SocketWire}
 * implement it; a {@link Protocol} runs the same on either, and may hand the connection to
 * another ({@link #handOff}).
 *
 * <p><b>Threads.</b> Each wire has a thread of its own that reads the connection and calls the
 * protocol back: a selector thread, or the connection's thread in the socket models. The
 * protocol's reading-side callbacks ({@link Protocol#onInput}, its timeouts) run there, and
 * so does whatever the protocol hands back with {@link #execute}. The thread that runs an
 * exchange (a worker, or the connection's thread itself) owns the input buffer and the output
 * while it does, until it hands the connection back with {@link #execute}. Only the wire's own
 * thread borrows and releases input buffers.
 *
 * <p>A wire also gives the protocol the {@link AsyncHost} of each exchange ({@link #host}):
 * how the model runs the tasks and the end of a suspended exchange.
 */
public interface Wire {

	/**
	 * Returns what the server's connections share.
	 * @return the context
	 */
	ConnectionContext context();

	/**
	 * Returns how the model runs the work of an exchange of the connection while it is
	 * suspended; asked once per exchange object (once per connection in HTTP/1.1).
	 * @param exchange the exchange, which the host calls back
	 * @return the host
	 */
	AsyncHost host(HostedExchange exchange);

	/**
	 * Returns the connection's TLS session.
	 * @return the session once the handshake completed; {@code null} before, and on a
	 * plaintext listener
	 */
	SSLSession tlsSession();

	/**
	 * Returns the application protocol the TLS handshake chose by ALPN.
	 * @return its id ({@code h2}, {@code http/1.1}) once the handshake completed; {@code null}
	 * before, on a plaintext listener, or when the client offered none
	 */
	String applicationProtocol();

	/**
	 * Returns the client's address.
	 * @return the remote address
	 */
	InetSocketAddress remoteAddress();

	/**
	 * Returns the server's address of the connection.
	 * @return the local address
	 */
	InetSocketAddress localAddress();

	/**
	 * Returns the time as the wire's own thread sees it, cheap to read there (the event loop
	 * reads the clock once per pass); asked on that thread only.
	 * @return the {@link System#nanoTime()}
	 */
	long now();

	/**
	 * Returns how the model reaches a pool with an exchange: run it on the calling thread, or
	 * queue it on the pool.
	 * @return the model's entry; it throws only unchecked exceptions
	 */
	PoolEntry<RuntimeException> entry();

	/**
	 * Runs a task that dispatches one of the exchanges a protocol multiplexes on the connection
	 * (an HTTP/2 stream), on a thread from which {@link #entry()} may be called, and never on the
	 * wire's own thread when that thread runs what it enters (the socket models), since it goes on
	 * reading the connection: the event loop runs the task at once (its entry queues), the
	 * blocking model queues it on its default pool, virtual threads start a thread for it.
	 * @param task the task; it handles its own failures
	 * @return whether the task was taken; when not (the pool's queue is full), it never runs
	 */
	boolean fork(Runnable task);

	/**
	 * Asks, at each response, whether the model wants this connection released
	 * ({@code Connection: close}) to free its worker: the blocking model's release threshold.
	 * By default never.
	 * @return whether to release it
	 */
	default boolean releaseConnection() {
		return false;
	}

	// ---- input

	/**
	 * Borrows an input buffer, empty, in read mode; the wire's own thread only.
	 * @return the buffer, or {@code null} when none fits the buffer budget now
	 */
	ByteBuffer borrowInput();

	/**
	 * Gives an input buffer back; the wire's own thread only.
	 * @param buffer the buffer, which the caller no longer touches
	 */
	void releaseInput(ByteBuffer buffer);

	/**
	 * Reads what the connection has into a buffer, after the bytes it holds unparsed: the
	 * buffer is compacted, filled, and flipped back to read mode. By the thread that owns the
	 * buffer.
	 * @param in the input buffer, in read mode
	 * @param until 0 to read only what is there now, never waiting; {@link Long#MAX_VALUE} to
	 * wait without a deadline; else the {@link System#nanoTime()} until which to wait for bytes;
	 * never waiting on the wire's own thread in the event loop
	 * @return the bytes read; 0 when there were none (now, or until then); -1 at the end of
	 * the stream
	 * @throws IOException if reading failed
	 */
	int read(ByteBuffer in, long until) throws IOException;

	/**
	 * Returns whether a thread that waits, blocked, for bytes of this connection's client holds a
	 * worker (or a permit) while it does.
	 * @param inExchange whether the wait is inside an exchange (a handler's read), rather than
	 * on the wire's own thread for a non-blocking reader
	 * @return whether the wait holds a worker
	 */
	boolean holdsWorker(boolean inExchange);

	/**
	 * Returns whether the wire's own thread is a worker of the default pool, held from accept to
	 * close ({@code blocking}): then a head, or a body read before its dispatch, holds it too.
	 * By default not.
	 * @return whether the connection pins a worker
	 */
	default boolean pinsWorker() {
		return false;
	}

	/**
	 * Returns the longest the client may keep a worker of the connection waiting now: the
	 * low-resources stall timeout while a pool whose worker waits is starved.
	 * @param pool the pool of the current exchange, or {@code null} before the first one
	 * @param inExchange whether the wait is inside an exchange
	 * @return the stall timeout in nanoseconds, {@link Long#MAX_VALUE} when none applies
	 */
	long stallNanos(String pool, boolean inExchange);

	// ---- output

	/**
	 * Returns where the connection's output goes.
	 * @return the transmitter
	 */
	ConnectionOutput.Transmitter transmitter();

	/**
	 * Sends what an output holds from the wire's own thread, never blocking a selector: the
	 * event loop writes what the socket takes and queues the rest, whatever the budget says (it
	 * goes out as the socket takes it, {@link #hasPendingWrites()} meanwhile); the socket models
	 * write it all.
	 * @param out the output
	 * @throws IOException if the connection closed or the write failed
	 */
	void send(ConnectionOutput out) throws IOException;

	/**
	 * Returns whether bytes wait to be written, which the wire writes on its own thread.
	 * @return whether writes are pending
	 */
	boolean hasPendingWrites();

	/**
	 * Returns whether as many bytes wait to be written as a writer may queue: a protocol that
	 * reads while it writes (HTTP/2) stops reading until they are written, so that a client that
	 * does not read cannot make the server queue answers (acknowledgements, resets) without end.
	 * The socket models write everything before they go on, so never.
	 * @return whether the output is backlogged
	 */
	boolean writesBacklogged();

	// ---- threads and life cycle

	/**
	 * Runs a task on the wire's own thread, after what it does now; from any thread.
	 * @param task the task
	 */
	void execute(Runnable task);

	/**
	 * Returns whether {@link #execute} runs a task soon whatever the connection's client does
	 * (the event loop's selector, which never waits for one client), so that a protocol may
	 * leave its writes to the wire's thread and send what several exchanges framed in one write.
	 * By default not: a socket model's connection thread may wait in a read.
	 * @return whether tasks run soon
	 */
	default boolean executesSoon() {
		return false;
	}

	/**
	 * The protocol reads the connection again after an exchange: the wire watches for input
	 * (the event loop stops watching while a worker has the connection and the client sends
	 * more); the wire's own thread.
	 */
	void readAgain();

	/**
	 * Counts the connection as idle (between two requests) or not.
	 * @param idle whether idle
	 */
	void idle(boolean idle);

	/**
	 * An exchange ended on the thread that ran it, before the protocol flushes its output:
	 * the wire writes what the exchange offered without waiting, and drops its stale tasks. By
	 * default nothing: what a non-blocking writer offered is queued in order already.
	 */
	default void exchangeEnded() {
	}

	/**
	 * The current exchange switched protocols ({@link dev.ariadne.server.Response#upgrade()}): from
	 * now on it reads and writes the connection's bytes for as long as the connection lasts,
	 * perhaps on two threads at once (a reader waiting for the client while another thread
	 * writes), so neither its writes nor the work of its suspension may wait behind a read of the
	 * wire's own thread, which may last as long as the client says nothing. The exchange's thread,
	 * before the exchange is suspended. By default nothing: the event loop's wire never waits
	 * for the client on its own thread.
	 */
	default void tunnel() {
	}

	/**
	 * Sends what the output holds, then closes once it is written and the client had a moment
	 * to read it (lingering while the client may still send); the wire's own thread.
	 * @param out the output, which holds the last response
	 * @param always whether to linger even when the client sends nothing more (an answer the
	 * server chose), rather than only when its input is not used up
	 */
	void closeAfterAnswer(ConnectionOutput out, boolean always);

	/**
	 * The thread that ran an exchange failed in the server's own code (out of memory) and left
	 * the connection, whose output is discarded: the wire counts it and closes the connection.
	 * @param failure what was thrown
	 */
	void exchangeFailed(Throwable failure);

	/**
	 * Hands the connection to another protocol: the wire makes it, drives it from now on
	 * instead of the current one, and lets it {@linkplain Protocol#takeOver take over} the bytes
	 * read and not used. The wire's own thread, from a callback of the current protocol, which is
	 * done with the connection: its output is written or queued and it holds no input buffer but
	 * the one it passes on.
	 * @param next makes the next protocol
	 * @param unread the bytes read and not used, in read mode, in an input buffer of this wire
	 * which the next protocol owns from now on; or {@code null}
	 */
	void handOff(Protocol.Factory next, ByteBuffer unread);

	/**
	 * Closes now.
	 */
	void close();

	/**
	 * Closes the connection from any thread, whatever it is doing, telling the protocol
	 * ({@link Protocol#abort}): for a protocol whose exchanges run on other threads (HTTP/2)
	 * and find the connection unusable.
	 */
	void abort();

}
