package dev.ariadne.server.routing;

import java.util.Map;

import dev.ariadne.server.Handler;

/**
 * What the router found for a request.
 *
 * @param route the matched route template, or a fixed value for unmatched requests (see
 * {@link dev.ariadne.server.stats.RequestEvent#route()}); for the router's fallback handler
 * {@code NOT_FOUND} until that handler reports its own with
 * {@link dev.ariadne.server.Request#route(String)}
 * @param handler the handler to run, already wrapped in the middleware chain
 * @param variables the decoded path variables
 * @param pool the pool that should run the handler
 * @param matched whether a route (or automatic {@code OPTIONS}) answers the request; {@code false}
 * for the fallback handler
 */
public record RouteMatch(String route, Handler handler, Map<String, String> variables, String pool,
		boolean matched) {
}
