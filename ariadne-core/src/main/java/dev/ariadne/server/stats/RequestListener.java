package dev.ariadne.server.stats;

/**
 * Observes every answered request: once per request, after its response was handed to the
 * connection.
 *
 * <p>Called on the thread that answered: for a request a handler ran for, the worker (or, in
 * {@code virtual-threads}, the connection's virtual thread) that ran it; for a request the
 * server refused itself before any worker took it (malformed, too large, timed out, a full
 * queue or pool, a shutdown), the thread that refused it, which may be the acceptor, a
 * selector thread of the event loop, or the thread shutting the server down. It runs on the
 * request path, on selector threads too, so it must be fast and must not block or throw; an
 * exception is logged and otherwise ignored.
 */
@FunctionalInterface
public interface RequestListener {

	/**
	 * Called when an exchange ends.
	 * @param event what happened
	 */
	void onRequest(RequestEvent event);

}
