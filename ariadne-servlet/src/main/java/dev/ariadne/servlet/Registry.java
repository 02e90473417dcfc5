package dev.ariadne.servlet;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.DispatcherType;

/**
 * The servlets and filters of a context, and the tables built from them: the servlet mapper
 * and the filter mappings in chain order (mappings added with {@code isMatchAfter=false} first,
 * each group in call order). Written while the context is set up; read without locks by request
 * threads afterwards, through volatile snapshots.
 */
final class Registry {

	private final Map<String, ServletEntry> servlets = new LinkedHashMap<>();

	private final Map<String, FilterEntry> filters = new LinkedHashMap<>();

	private final List<FilterMapping> filterMappingsBefore = new ArrayList<>();

	private final List<FilterMapping> filterMappingsAfter = new ArrayList<>();

	private volatile List<FilterMapping> filterMappings = List.of();

	private final ServletEntry notFound;

	private volatile ServletMapper mapper;

	Registry(ServletEntry notFound) {
		this.notFound = notFound;
	}

	/**
	 * Adds a servlet.
	 * @param entry the servlet
	 * @return the servlet, or {@code null} if one of that name exists
	 */
	ServletEntry add(ServletEntry entry) {
		synchronized (this.servlets) {
			if (this.servlets.containsKey(entry.getName())) {
				return null;
			}
			this.servlets.put(entry.getName(), entry);
			this.mapper = null;
			return entry;
		}
	}

	/**
	 * Adds a filter.
	 * @param entry the filter
	 * @return the filter, or {@code null} if one of that name exists
	 */
	FilterEntry add(FilterEntry entry) {
		synchronized (this.filters) {
			if (this.filters.containsKey(entry.getName())) {
				return null;
			}
			this.filters.put(entry.getName(), entry);
			return entry;
		}
	}

	FilterEntry filter(String name) {
		synchronized (this.filters) {
			return this.filters.get(name);
		}
	}

	Map<String, ServletEntry> servletMap() {
		synchronized (this.servlets) {
			return Collections.unmodifiableMap(new LinkedHashMap<>(this.servlets));
		}
	}

	Map<String, FilterEntry> filterMap() {
		synchronized (this.filters) {
			return Collections.unmodifiableMap(new LinkedHashMap<>(this.filters));
		}
	}

	/**
	 * Gives URL patterns to a servlet unless another servlet holds one of them: a pattern held
	 * by an overridable servlet (the container's default servlet) moves to this one, as on
	 * Tomcat, so that an application's servlet on {@code /} takes the place of the default one.
	 * @param servlet the servlet
	 * @param patterns the patterns, valid
	 * @return the patterns held by other servlets, which leave the mappings unchanged; empty
	 * when the servlet got them all
	 */
	Set<String> claim(ServletEntry servlet, String... patterns) {
		Set<String> conflicts = new LinkedHashSet<>();
		synchronized (this.servlets) {
			for (ServletEntry other : this.servlets.values()) {
				if (other != servlet && !other.overridable()) {
					for (String pattern : patterns) {
						if (other.mappings().contains(pattern)) {
							conflicts.add(pattern);
						}
					}
				}
			}
			if (!conflicts.isEmpty()) {
				return conflicts;
			}
			for (ServletEntry other : this.servlets.values()) {
				if (other != servlet && other.overridable()) {
					other.mappings().removeAll(Set.of(patterns));
				}
			}
			Collections.addAll(servlet.mappings(), patterns);
			this.mapper = null;
		}
		return conflicts;
	}

	ServletMapper mapper() {
		ServletMapper current = this.mapper;
		if (current == null) {
			synchronized (this.servlets) {
				current = new ServletMapper(new ArrayList<>(this.servlets.values()), this.notFound);
				this.mapper = current;
			}
		}
		return current;
	}

	void addFilterMapping(FilterMapping mapping, boolean isMatchAfter) {
		synchronized (this.filters) {
			(isMatchAfter ? this.filterMappingsAfter : this.filterMappingsBefore).add(mapping);
			List<FilterMapping> all = new ArrayList<>(this.filterMappingsBefore);
			all.addAll(this.filterMappingsAfter);
			this.filterMappings = List.copyOf(all);
		}
	}

	/**
	 * Returns the filters that apply to a dispatch, in order: those matching by URL pattern,
	 * then those matching by servlet name (Servlet 6.1 section 6.2.4).
	 * @param type the dispatcher type
	 * @param match the target of the dispatch
	 * @return the filters, possibly empty
	 */
	List<FilterEntry> filtersFor(DispatcherType type, ServletMatch match) {
		List<FilterMapping> mappings = this.filterMappings;
		if (mappings.isEmpty()) {
			return List.of();
		}
		List<FilterEntry> chain = new ArrayList<>(mappings.size());
		for (FilterMapping mapping : mappings) {
			if (mapping.matchesUrl(type, match)) {
				chain.add(mapping.filter());
			}
		}
		String servletName = match.servlet().getName();
		for (FilterMapping mapping : mappings) {
			if (mapping.matchesServlet(type, servletName)) {
				chain.add(mapping.filter());
			}
		}
		return chain;
	}

	/**
	 * Returns the filters that apply to a dispatch to a servlet by name: those mapped to the
	 * servlet's name.
	 * @param type the dispatcher type
	 * @param servlet the servlet
	 * @return the filters, possibly empty
	 */
	List<FilterEntry> filtersForName(DispatcherType type, ServletEntry servlet) {
		List<FilterEntry> chain = new ArrayList<>();
		for (FilterMapping mapping : this.filterMappings) {
			if (mapping.matchesServlet(type, servlet.getName())) {
				chain.add(mapping.filter());
			}
		}
		return chain;
	}

	boolean isNotFound(ServletEntry servlet) {
		return servlet == this.notFound;
	}

	ServletEntry servlet(String name) {
		synchronized (this.servlets) {
			return this.servlets.get(name);
		}
	}

	List<ServletEntry> servletEntries() {
		synchronized (this.servlets) {
			return new ArrayList<>(this.servlets.values());
		}
	}

	List<FilterEntry> filterEntries() {
		synchronized (this.filters) {
			return new ArrayList<>(this.filters.values());
		}
	}

}
