package dev.ariadne.autoconfigure;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

import dev.ariadne.server.routing.Route;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Applies {@code ariadne.server.routes[<template>].pool} to the routes of the context: a
 * configured route runs in the named route pool. Keys are route templates, best written in
 * brackets so that Spring keeps their slashes; a key written without them (which Spring strips
 * to letters, digits, dashes and dots) still matches the template it came from. A key that
 * matches no route fails startup, naming the property.
 */
final class RoutePoolAssignments {

	private final Map<String, AriadneServerProperties.RouteSettings> settings;

	private final boolean everyKeyMatchesARoute;

	/**
	 * Creates the assignments.
	 * @param settings the route settings by key
	 * @param everyKeyMatchesARoute whether a key that matches no route is an error; in servlet
	 * and reactive applications such keys are path patterns of the web framework's requests
	 */
	RoutePoolAssignments(Map<String, AriadneServerProperties.RouteSettings> settings, boolean everyKeyMatchesARoute) {
		this.settings = settings;
		this.everyKeyMatchesARoute = everyKeyMatchesARoute;
	}

	/**
	 * Returns the routes with their configured pools.
	 * @param routes the routes as declared
	 * @return the routes, in the same order, with pools applied
	 * @throws InvalidConfigurationPropertyValueException if a configured key matches no route
	 * while every key must
	 */
	List<Route> apply(List<Route> routes) {
		Set<String> used = new LinkedHashSet<>();
		List<Route> applied = new ArrayList<>(routes.size());
		for (Route route : routes) {
			String key = keyFor(route.template());
			String pool = (key != null) ? this.settings.get(key).getPool() : null;
			if (key != null) {
				used.add(key);
			}
			applied.add((pool != null && !pool.isBlank()) ? route.inPool(pool) : route);
		}
		for (String key : this.settings.keySet()) {
			if (this.everyKeyMatchesARoute && !used.contains(key)) {
				String templates = routes.stream().map(Route::template).distinct().collect(Collectors.joining(", "));
				throw new InvalidConfigurationPropertyValueException("ariadne.server.routes[" + key + "].pool",
						this.settings.get(key).getPool(),
						"matches no route; the routes are " + templates + " (write the template in brackets)");
			}
		}
		return applied;
	}

	private String keyFor(String template) {
		if (this.settings.containsKey(template)) {
			return template;
		}
		String stripped = strip(template);
		for (String key : this.settings.keySet()) {
			if (!key.startsWith("/") && strip(key).equals(stripped)) {
				return key;
			}
		}
		return null;
	}

	/** What Spring keeps of a map key written without brackets. */
	private static String strip(String key) {
		return key.replaceAll("[^A-Za-z0-9.-]", "").toLowerCase(Locale.ROOT);
	}

}
