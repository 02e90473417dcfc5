package dev.ariadne.server;

/**
 * Runs around the matched route's handler, in registration order: each middleware decides
 * whether to call {@code next} (continue the chain), to answer itself (short-circuit), or to do
 * work before and after it (wrap).
 */
@FunctionalInterface
public interface Middleware {

	/**
	 * Handles a request on its way to the route's handler.
	 * @param request the request
	 * @param response the response
	 * @param next the rest of the chain, ending in the route's handler
	 * @throws Exception anything not handled here
	 */
	void handle(Request request, Response response, Handler next) throws Exception;

}
