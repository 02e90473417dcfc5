package dev.ariadne.server.routing;

import java.util.Map;

import dev.ariadne.server.Handler;

/**
 * What the router found for a request.
 *
 * @param route the matched route template, or a fixed value for unmatched requests (see
 * {@link dev.ariadne.server.stats.RequestEvent#route()})
 * @param handler the handler to run, already wrapped in the middleware chain
 * @param variables the decoded path variables
 * @param pool the pool that should run the handler
 * @param matched whether a route (or automatic {@code OPTIONS}) answers the request
 */
public record RouteMatch(String route, Handler handler, Map<String, String> variables, String pool,
		boolean matched) {
}
