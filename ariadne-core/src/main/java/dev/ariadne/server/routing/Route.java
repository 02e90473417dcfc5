package dev.ariadne.server.routing;

import java.util.Objects;

import dev.ariadne.http.Method;
import dev.ariadne.server.Handler;

/**
 * A handler bound to a method and a path template such as {@code /api/user/{id}}.
 *
 * <p>Templates are absolute paths whose segments are literals, {@code {name}} (one segment,
 * available as a path variable), or, as the last segment only, {@code {*name}} (the rest of the
 * path, possibly empty). Literal segments match the decoded path exactly.
 *
 * @param method the method the route answers; {@code HEAD} falls back to a {@code GET} route
 * @param template the path template
 * @param handler the handler
 * @param pool the worker pool that runs the handler: {@link #DEFAULT_POOL} or the name of a
 * route pool
 */
public record Route(Method method, String template, Handler handler, String pool) {

	/** Name of the server's own worker pool. */
	public static final String DEFAULT_POOL = "default";

	/**
	 * Creates a route, checking its template.
	 */
	public Route {
		Objects.requireNonNull(method, "method");
		Objects.requireNonNull(handler, "handler");
		RouteTemplate.parse(template);
		if (pool == null || pool.isBlank()) {
			pool = DEFAULT_POOL;
		}
	}

	/**
	 * Creates a route run by the default pool.
	 * @param method the method
	 * @param template the path template
	 * @param handler the handler
	 * @return the route
	 */
	public static Route of(Method method, String template, Handler handler) {
		return new Route(method, template, handler, DEFAULT_POOL);
	}

	/**
	 * Creates a {@code GET} route.
	 * @param template the path template
	 * @param handler the handler
	 * @return the route
	 */
	public static Route get(String template, Handler handler) {
		return of(Method.GET, template, handler);
	}

	/**
	 * Creates a {@code POST} route.
	 * @param template the path template
	 * @param handler the handler
	 * @return the route
	 */
	public static Route post(String template, Handler handler) {
		return of(Method.POST, template, handler);
	}

	/**
	 * Creates a {@code PUT} route.
	 * @param template the path template
	 * @param handler the handler
	 * @return the route
	 */
	public static Route put(String template, Handler handler) {
		return of(Method.PUT, template, handler);
	}

	/**
	 * Creates a {@code DELETE} route.
	 * @param template the path template
	 * @param handler the handler
	 * @return the route
	 */
	public static Route delete(String template, Handler handler) {
		return of(Method.DELETE, template, handler);
	}

	/**
	 * Returns a copy of this route run by another pool.
	 * @param pool the pool name
	 * @return the copy
	 */
	public Route inPool(String pool) {
		return new Route(this.method, this.template, this.handler, pool);
	}

}
