package dev.ariadne.server;

/**
 * A suspended exchange ({@link Response#suspend()}), or one that switched protocols
 * ({@link Response#upgrade()}): its handler has returned, and the response
 * is completed later, from any thread that is not a selector thread. Until then the connection
 * stays with the exchange: no other request is read from it, and no read timeout applies.
 *
 * <p>What a suspended exchange holds, per I/O model:
 * <ul>
 * <li>{@code event-loop}: only its connection. The worker that ran the handler goes back to its
 * pool as soon as the handler returns; {@link #execute} runs a task on a worker of the
 * exchange's pool (counted busy while it runs, queued while none is free); the end of the
 * exchange (flushing, the request event, the next pipelined request) runs on one too.</li>
 * <li>{@code virtual-threads}: its connection's virtual thread, parked, without a permit: the
 * in-flight permit is given back when the handler returns, and taken again (queued while none is
 * free) to run a task of {@link #execute}.</li>
 * <li>{@code blocking}: the worker that owns the connection, which it owns anyway; it waits for
 * the exchange's tasks and runs them itself, one after the other.</li>
 * </ul>
 * A request of a route pool runs its tasks in that pool, in every model.
 *
 * <p>Threading: the request, the response and its stream may be used by one thread at a time,
 * handed over with a happens-before edge (a task of {@link #execute} sees what the thread that
 * submitted it did). Writes made while suspended go out from the writing thread, waiting while
 * the client is slower than the writer, as a handler's do; bytes written without a flush wait
 * in the response's buffer until the next flush or {@link #complete()}.
 *
 * <p>The exchange ends with the first of {@link #complete()} and {@link #abort(Throwable)};
 * later calls of either do nothing. A call made while the handler that suspended the exchange
 * is still running takes effect when it returns. The request event ({@code RequestListener})
 * covers the whole exchange, from its head to its end. A graceful shutdown waits for suspended
 * exchanges as for any other; a forced stop closes their connections, which
 * {@link #onClose(Runnable)} reports; the exchange still ends only with {@link #complete()} or
 * {@link #abort(Throwable)}.
 */
public interface AsyncResponse {

	/**
	 * Runs a task on a worker of the exchange's pool, as the model runs handlers. A task that
	 * throws aborts the exchange with what it threw.
	 * @param task the task
	 * @throws IllegalStateException if the exchange has ended, or the pool refused the task
	 * (its queue is full, or the server is stopping)
	 */
	void execute(Runnable task);

	/**
	 * Ends the exchange: commits an empty response if nothing was sent, ends a streamed body,
	 * and lets the connection carry its next request; after {@link Response#upgrade()}, sends
	 * what is buffered and closes the connection. The rest of the work happens on a worker of the
	 * exchange's pool; this call does not wait for it.
	 */
	void complete();

	/**
	 * Ends the exchange as a handler that throws would: a 500 if the response is not committed
	 * yet, otherwise an incomplete body and a closed connection.
	 * @param failure what went wrong
	 */
	void abort(Throwable failure);

	/**
	 * Returns whether the exchange has ended ({@link #complete()} or {@link #abort(Throwable)}
	 * was called).
	 * @return whether ended
	 */
	boolean ended();

	/**
	 * Returns whether the connection was closed while the exchange was suspended: by the
	 * server (a forced stop, a write that failed or made no progress for
	 * {@code keep-alive.timeout}) or by the client, as far as the server learnt of it (in every
	 * model, a client that goes away is noticed when a write or read fails).
	 * @return whether the connection is closed
	 */
	boolean closed();

	/**
	 * Registers a task run once, on a worker of the exchange's pool, when the connection closes
	 * before the exchange ends ({@link #closed()}); at once (on a worker) if it already has. When
	 * a forced stop closes the connection in {@code event-loop}, the task runs on the thread that
	 * stops the server instead, before the pools stop.
	 * @param listener the task
	 */
	void onClose(Runnable listener);

	// ---- non-blocking I/O

	/**
	 * Reads what the request body has now, never waiting for the client: the non-blocking
	 * counterpart of {@link Request#body()}, for one reader at a time. The first call sends
	 * {@code 100 Continue} when the client asked for it.
	 * @param bytes where to put the bytes
	 * @param offset where to start in the array
	 * @param length the most bytes to read, more than 0
	 * @return the bytes read; 0 when none are there now ({@link #readable()} then arranges to
	 * be told); -1 at the end of the body (after {@link Response#upgrade()}: once the client
	 * closed its side of the connection)
	 * @throws java.io.IOException if the body is malformed or too large, its client paused for
	 * longer than {@code request.header-timeout} (408), or the connection failed
	 */
	int read(byte[] bytes, int offset, int length) throws java.io.IOException;

	/**
	 * Returns whether {@link #read} would return something now: bytes, the end of the body, or a
	 * failure. When not, the task given to {@link #onReadable} runs once, on a worker of the
	 * exchange's pool, as soon as it would: when bytes arrive, the body ends, the client paused
	 * for longer than {@code request.header-timeout}, or the connection failed.
	 * <p>{@code event-loop}: the selector watches the socket for the exchange. Socket models: the
	 * connection's own thread, which waits anyway, reads for the exchange; the exchange's other
	 * tasks wait behind that read.
	 * @return whether a read returns something now
	 * @throws IllegalStateException if no task was given to {@link #onReadable}
	 */
	boolean readable();

	/**
	 * Sets the task that {@link #readable()} arranges to run when a read would return something.
	 * @param task the task
	 */
	void onReadable(Runnable task);

	/**
	 * Switches the response's stream to writes that never wait, and sets the task run when it
	 * may be written again: from now on what the socket does not take at once is queued,
	 * counted in the buffer budget even beyond it, and the writer asks {@link #writable()}
	 * before each write. The exchange's end (after {@link #complete()}) writes as usual.
	 * <p>Socket models: the queued bytes are written by the connection's own thread, which waits
	 * anyway; its other tasks wait behind those writes.
	 * @param task run once, on a worker of the exchange's pool, each time the stream may be
	 * written again after {@link #writable()} answered {@code false}
	 */
	void onWritable(Runnable task);

	/**
	 * Returns whether the response's stream may be written now without queuing beyond the
	 * connection's share: fewer than 64 KiB queued for the client and the budget not spent.
	 * When not, the task given to {@link #onWritable} runs once the queue has drained below
	 * 16 KiB (or the budget has room again). Always {@code true} once the connection failed:
	 * the next write says so.
	 * @return whether to write now
	 * @throws IllegalStateException if no task was given to {@link #onWritable}
	 */
	boolean writable();

}
