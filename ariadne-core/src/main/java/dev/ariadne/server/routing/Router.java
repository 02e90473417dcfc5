package dev.ariadne.server.routing;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

import dev.ariadne.http.HeaderName;
import dev.ariadne.http.Method;
import dev.ariadne.server.Handler;
import dev.ariadne.server.Middleware;
import dev.ariadne.server.stats.RequestEvent;

/**
 * Finds the route for a request and the handler to run for it: the route's handler wrapped in
 * the middleware chain, in registration order. Unmatched paths get a 404 handler, paths matched
 * with another method a 405 handler with {@code Allow}, both wrapped in the same chain. An
 * {@code OPTIONS} request without its own route is answered 204 with {@code Allow}.
 *
 * <p>A router with a fallback handler sends the requests it would answer 404 or 405 to that
 * handler instead (wrapped in the same chain), in the pool its {@link FallbackPools} picks: routes
 * keep precedence over the fallback.
 *
 * <p>Immutable and thread-safe; chains are composed once, when the router is built. Literal
 * paths are found by one hash lookup; templates are tried most specific first.
 */
public final class Router {

	private final Map<String, PathEntry> literals;

	private final List<PathEntry> templates;

	private final RouteMatch notFound;

	private final String allMethods;

	private final List<Route> routes;

	private final Handler fallback;

	private final FallbackPools fallbackPools;

	private Router(List<Route> routes, List<Middleware> middlewares, Handler fallback, FallbackPools fallbackPools) {
		this.routes = List.copyOf(routes);
		this.fallback = (fallback != null) ? chain(middlewares, fallback) : null;
		this.fallbackPools = fallbackPools;
		Map<String, PathEntry> byTemplate = new LinkedHashMap<>();
		for (Route route : routes) {
			PathEntry entry = byTemplate.computeIfAbsent(route.template(), PathEntry::new);
			if (entry.routes.putIfAbsent(route.method(), route) != null) {
				throw new IllegalArgumentException("Two routes for " + route.method() + " " + route.template());
			}
		}
		this.literals = new HashMap<>();
		this.templates = new ArrayList<>();
		for (PathEntry entry : byTemplate.values()) {
			entry.compose(middlewares);
			if (entry.template.isLiteral()) {
				this.literals.put(entry.template.text(), entry);
			}
			else {
				this.templates.add(entry);
			}
		}
		this.templates.sort(Comparator.comparingInt((PathEntry entry) -> entry.template.specificity()).reversed());
		Handler notFoundHandler = (request, response) -> {
			response.status(404);
			response.send("Not Found");
		};
		this.notFound = new RouteMatch(RequestEvent.NOT_FOUND, chain(middlewares, notFoundHandler),
				Collections.emptyMap(), Route.DEFAULT_POOL, false);
		Set<String> methods = new LinkedHashSet<>();
		for (Route route : routes) {
			methods.add(route.method().name());
			if (route.method() == Method.GET) {
				methods.add(Method.HEAD.name());
			}
		}
		this.allMethods = String.join(", ", methods);
	}

	/**
	 * Returns a builder for a router.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Finds what to run for a request.
	 * @param method the request method
	 * @param rawPath the path as sent, percent-encoded, without the query
	 * @return the match; never {@code null}
	 * @throws IllegalArgumentException if the path has a malformed percent-escape
	 */
	public RouteMatch match(Method method, String rawPath) {
		PathEntry entry = (rawPath.indexOf('%') < 0) ? this.literals.get(rawPath) : null;
		Map<String, String> variables = Collections.emptyMap();
		if (entry == null) {
			List<String> segments = PathSegments.split(rawPath);
			for (int i = 0; i < segments.size(); i++) {
				segments.set(i, PathSegments.decode(segments.get(i), false));
			}
			String literal = decodedPath(rawPath, segments);
			entry = (literal != null) ? this.literals.get(literal) : null;
			if (entry == null) {
				variables = new HashMap<>(4);
				for (PathEntry candidate : this.templates) {
					if (candidate.template.matches(segments, variables)) {
						entry = candidate;
						break;
					}
				}
			}
		}
		if (entry == null) {
			return (this.fallback != null) ? fallback(method, rawPath) : this.notFound;
		}
		RouteMatch match = entry.select(method, variables);
		return (match.matched() || this.fallback == null) ? match : fallback(method, rawPath);
	}

	private RouteMatch fallback(Method method, String rawPath) {
		String pool = this.fallbackPools.pool(method, PathSegments.decode(rawPath, false));
		return new RouteMatch(RequestEvent.NOT_FOUND, this.fallback, Collections.emptyMap(), pool, false);
	}

	/** Returns the key of a literal template the segments could match, or {@code null} if none can. */
	private static String decodedPath(String rawPath, List<String> segments) {
		if (rawPath.indexOf('%') < 0) {
			return rawPath;
		}
		for (String segment : segments) {
			if (segment.indexOf('/') >= 0) {
				// an encoded slash is data inside one segment; joining would split it in two
				return null;
			}
		}
		return "/" + String.join("/", segments);
	}

	/**
	 * Returns the {@code Allow} value for {@code OPTIONS *}: every method some route answers.
	 * @return the comma-separated methods
	 */
	public String allowedMethods() {
		return this.allMethods;
	}

	/**
	 * Returns the registered routes, in registration order.
	 * @return the routes
	 */
	public List<Route> routes() {
		return this.routes;
	}

	static Handler chain(List<Middleware> middlewares, Handler handler) {
		Handler next = handler;
		for (int i = middlewares.size() - 1; i >= 0; i--) {
			Middleware middleware = middlewares.get(i);
			Handler inner = next;
			next = (request, response) -> middleware.handle(request, response, inner);
		}
		return next;
	}

	/** The routes sharing one template, with their chains composed. */
	private static final class PathEntry {

		final RouteTemplate template;

		final Map<Method, Route> routes = new LinkedHashMap<>();

		final Map<Method, Handler> chains = new HashMap<>();

		Handler methodNotAllowed;

		Handler options;

		PathEntry(String template) {
			this.template = RouteTemplate.parse(template);
		}

		void compose(List<Middleware> middlewares) {
			for (Route route : this.routes.values()) {
				this.chains.put(route.method(), chain(middlewares, route.handler()));
			}
			Set<String> allowed = new LinkedHashSet<>();
			for (Method method : this.routes.keySet()) {
				allowed.add(method.name());
				if (method == Method.GET) {
					allowed.add(Method.HEAD.name());
				}
			}
			allowed.add(Method.OPTIONS.name());
			String allow = String.join(", ", allowed);
			this.methodNotAllowed = chain(middlewares, (request, response) -> {
				response.status(405);
				response.header(HeaderName.ALLOW, allow);
				response.send("Method Not Allowed");
			});
			this.options = chain(middlewares, (request, response) -> {
				response.status(204);
				response.header(HeaderName.ALLOW, allow);
			});
		}

		RouteMatch select(Method method, Map<String, String> variables) {
			Route route = this.routes.get(method);
			if (route == null && method == Method.HEAD) {
				route = this.routes.get(Method.GET);
			}
			if (route != null) {
				return new RouteMatch(this.template.text(), this.chains.get(route.method()), variables, route.pool(),
						true);
			}
			if (method == Method.OPTIONS) {
				return new RouteMatch(this.template.text(), this.options, variables, Route.DEFAULT_POOL, true);
			}
			return new RouteMatch(RequestEvent.METHOD_NOT_ALLOWED, this.methodNotAllowed, variables,
					Route.DEFAULT_POOL, false);
		}

	}

	/**
	 * Collects routes and middleware.
	 */
	public static final class Builder {

		private final List<Route> routes = new ArrayList<>();

		private final List<Middleware> middlewares = new ArrayList<>();

		private Handler fallback;

		private FallbackPools fallbackPools = FallbackPools.DEFAULT;

		private Builder() {
		}

		/**
		 * Sets the handler for requests no route matches (instead of 404) or matches by path
		 * only (instead of 405). The handler reports its own route value with
		 * {@link dev.ariadne.server.Request#route(String)}.
		 * @param handler the fallback handler
		 * @param pools picks the pool that runs it for each request
		 * @return this builder
		 */
		public Builder fallback(Handler handler, FallbackPools pools) {
			this.fallback = Objects.requireNonNull(handler, "handler");
			this.fallbackPools = Objects.requireNonNull(pools, "pools");
			return this;
		}

		/**
		 * Adds a route.
		 * @param route the route
		 * @return this builder
		 */
		public Builder route(Route route) {
			this.routes.add(route);
			return this;
		}

		/**
		 * Adds a {@code GET} route.
		 * @param template the path template
		 * @param handler the handler
		 * @return this builder
		 */
		public Builder get(String template, Handler handler) {
			return route(Route.get(template, handler));
		}

		/**
		 * Adds a {@code POST} route.
		 * @param template the path template
		 * @param handler the handler
		 * @return this builder
		 */
		public Builder post(String template, Handler handler) {
			return route(Route.post(template, handler));
		}

		/**
		 * Adds a middleware after those already added.
		 * @param middleware the middleware
		 * @return this builder
		 */
		public Builder middleware(Middleware middleware) {
			this.middlewares.add(middleware);
			return this;
		}

		/**
		 * Builds the router.
		 * @return the router
		 * @throws IllegalArgumentException if two routes share a method and template
		 */
		public Router build() {
			return new Router(this.routes, List.copyOf(this.middlewares), this.fallback, this.fallbackPools);
		}

	}

}
