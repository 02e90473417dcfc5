package dev.ariadne.autoconfigure.web;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import dev.ariadne.http.Method;
import dev.ariadne.server.routing.FallbackPools;
import dev.ariadne.server.routing.Route;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.http.server.PathContainer;
import org.springframework.web.util.pattern.PathPattern;
import org.springframework.web.util.pattern.PathPatternParser;
import org.springframework.web.util.pattern.PatternParseException;

/**
 * Picks the route pool of a Spring MVC or WebFlux request from {@code ariadne.server.routes."[pattern]".pool}:
 * each key is a Spring path pattern ({@code /api/compute}, {@code /api/reports/**},
 * {@code /api/user/{id}}) matched against the request path within the application (the context
 * path removed), the most specific pattern first, as Spring MVC ranks its mappings.
 *
 * <p>Runs before each servlet request is dispatched, on a selector thread in the
 * {@code event-loop} model: literal patterns are one hash lookup; the others parse the path
 * once and are tried in order.
 */
final class PathPatternPools implements FallbackPools {

	private final String contextPath;

	private final Map<String, String> literals = new HashMap<>();

	private final List<Map.Entry<PathPattern, String>> patterns = new ArrayList<>();

	/**
	 * Creates the pool choice.
	 * @param routes the pool of each pattern, by pattern; patterns without a pool are skipped
	 * @param pools the configured route pools
	 * @param contextPath the servlet context path, {@code ""} for the root
	 * @throws InvalidConfigurationPropertyValueException if a pattern does not parse or names an
	 * unknown pool
	 */
	PathPatternPools(Map<String, String> routes, Set<String> pools, String contextPath) {
		this.contextPath = contextPath;
		PathPatternParser parser = PathPatternParser.defaultInstance;
		routes.forEach((key, pool) -> {
			String property = "ariadne.server.routes[" + key + "].pool";
			if (!Route.DEFAULT_POOL.equals(pool) && !pools.contains(pool)) {
				throw new InvalidConfigurationPropertyValueException(property, pool,
						"names no pool; configure it with ariadne.server.pools." + pool + ".threads");
			}
			if (!key.startsWith("/")) {
				throw new InvalidConfigurationPropertyValueException(property, pool,
						"matches no route; write the path pattern in brackets, for example "
								+ "ariadne.server.routes.\"[/api/compute]\".pool");
			}
			PathPattern pattern;
			try {
				pattern = parser.parse(key);
			}
			catch (PatternParseException ex) {
				throw new InvalidConfigurationPropertyValueException(property, pool,
						"'" + key + "' is not a path pattern: " + ex.getMessage());
			}
			if (isLiteral(key)) {
				this.literals.put(key, pool);
			}
			else {
				this.patterns.add(Map.entry(pattern, pool));
			}
		});
		this.patterns.sort(Map.Entry.comparingByKey(PathPattern.SPECIFICITY_COMPARATOR));
	}

	private static boolean isLiteral(String pattern) {
		return pattern.chars().noneMatch((c) -> c == '{' || c == '*' || c == '?');
	}

	/**
	 * Returns whether any pattern assigns a pool.
	 * @return whether requests can leave the default pool
	 */
	boolean isEmpty() {
		return this.literals.isEmpty() && this.patterns.isEmpty();
	}

	@Override
	public String pool(Method method, String path) {
		String within = path;
		if (!this.contextPath.isEmpty()) {
			if (!path.startsWith(this.contextPath)) {
				return Route.DEFAULT_POOL;
			}
			within = path.substring(this.contextPath.length());
		}
		String pool = this.literals.get(within);
		if (pool != null) {
			return pool;
		}
		if (this.patterns.isEmpty()) {
			return Route.DEFAULT_POOL;
		}
		PathContainer container = PathContainer.parsePath(within);
		for (Map.Entry<PathPattern, String> entry : this.patterns) {
			if (entry.getKey().matches(container)) {
				return entry.getValue();
			}
		}
		return Route.DEFAULT_POOL;
	}

}
