package dev.ariadne.server;

/**
 * Answers a request. Handlers run on a worker thread (or a virtual thread), never on a
 * selector thread, so they may block; while they do, they hold a worker of their pool.
 *
 * <p>A handler that returns without sending anything answers {@code 200} with an empty body. An
 * exception thrown before the response was committed becomes a {@code 500}; one thrown after
 * aborts the response and closes the connection.
 */
@FunctionalInterface
public interface Handler {

	/**
	 * Handles one request.
	 * @param request the request
	 * @param response the response to fill in and send
	 * @throws Exception anything the handler does not handle itself
	 */
	void handle(Request request, Response response) throws Exception;

}
