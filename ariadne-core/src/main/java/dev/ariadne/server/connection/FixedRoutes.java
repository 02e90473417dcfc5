package dev.ariadne.server.connection;

import java.util.Collections;

import dev.ariadne.http.HeaderName;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.Status;
import dev.ariadne.server.Handler;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.routing.RouteMatch;
import dev.ariadne.server.routing.Router;
import dev.ariadne.server.stats.RequestEvent;

/**
 * What runs for a request before the router is asked, and the router's match: {@code OPTIONS *}
 * answered with the methods the routes allow, 501 for {@code CONNECT}'s authority form, 400 for
 * a path with a malformed percent-escape.
 */
final class FixedRoutes {

	private static final String ASTERISK_ROUTE = "*";

	private static final RouteMatch REFUSED_CONNECT = refusal(Status.NOT_IMPLEMENTED_501, Answers.CONNECT_UNSUPPORTED);

	private static final RouteMatch REFUSED_PATH = refusal(Status.BAD_REQUEST_400, Answers.MALFORMED_PATH);

	private FixedRoutes() {
	}

	/**
	 * Finds what to run for a request: a route, or one of the fixed answers (404, 405,
	 * {@code OPTIONS *}, 501 for {@code CONNECT}, 400 for a malformed path).
	 */
	static RouteMatch match(Router router, RequestHead head) {
		if (head.targetForm() == RequestHead.TargetForm.ASTERISK) {
			String allow = router.allowedMethods();
			Handler options = (req, res) -> {
				res.status(204);
				res.header(HeaderName.ALLOW, allow.isEmpty() ? "OPTIONS" : allow + ", OPTIONS");
			};
			return new RouteMatch(ASTERISK_ROUTE, options, Collections.emptyMap(), Route.DEFAULT_POOL, true);
		}
		if (head.targetForm() == RequestHead.TargetForm.AUTHORITY) {
			return REFUSED_CONNECT;
		}
		try {
			return router.match(head.method(), ServerRequest.rawPath(head));
		}
		catch (IllegalArgumentException ex) {
			return REFUSED_PATH;
		}
	}

	/** A fixed answer the server chooses for a request no route may see; the connection closes after it. */
	private static RouteMatch refusal(Status status, String reason) {
		Handler refuse = (request, response) -> ((ServerResponse) response).answer(status, reason, 0);
		return new RouteMatch(RequestEvent.INVALID, refuse, Collections.emptyMap(), Route.DEFAULT_POOL, false);
	}

}
