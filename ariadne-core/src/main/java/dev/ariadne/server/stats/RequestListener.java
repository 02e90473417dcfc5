package dev.ariadne.server.stats;

/**
 * Observes every finished exchange.
 *
 * <p>Called on the thread that finished the exchange (a worker), after the response was handed
 * to the connection, once per request. It runs on the request path, so it must be fast and must
 * not block or throw; an exception is logged and otherwise ignored.
 */
@FunctionalInterface
public interface RequestListener {

	/**
	 * Called when an exchange ends.
	 * @param event what happened
	 */
	void onRequest(RequestEvent event);

}
