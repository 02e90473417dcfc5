package dev.ariadne.server;

/**
 * A suspended exchange ({@link Response#suspend()}): its handler has returned, and the response
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
	 * and lets the connection carry its next request. The rest of the work happens on a worker
	 * of the exchange's pool; this call does not wait for it.
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
	 * before the exchange ends ({@link #closed()}); at once (on a worker) if it already has.
	 * @param listener the task
	 */
	void onClose(Runnable listener);

}
