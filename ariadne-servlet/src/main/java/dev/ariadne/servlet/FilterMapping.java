package dev.ariadne.servlet;

import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import jakarta.servlet.DispatcherType;

/**
 * One {@code addMappingFor...} call of a filter: the dispatcher types it applies to and the URL
 * patterns or servlet names it matches.
 *
 * @param filter the filter
 * @param dispatcherTypes the dispatcher types; {@code REQUEST} when none were given
 * @param urlPatterns the URL patterns
 * @param servletNames the servlet names; {@code *} matches every servlet
 */
record FilterMapping(FilterEntry filter, Set<DispatcherType> dispatcherTypes, List<String> urlPatterns,
		List<String> servletNames) {

	/**
	 * Creates a mapping as {@code addMappingFor...} describes it.
	 * @param filter the filter
	 * @param dispatcherTypes the dispatcher types, {@code null} or empty for {@code REQUEST}
	 * @param urlPatterns the URL patterns
	 * @param servletNames the servlet names
	 * @return the mapping
	 */
	static FilterMapping of(FilterEntry filter, EnumSet<DispatcherType> dispatcherTypes, List<String> urlPatterns,
			List<String> servletNames) {
		Set<DispatcherType> types = (dispatcherTypes == null || dispatcherTypes.isEmpty())
				? EnumSet.of(DispatcherType.REQUEST) : EnumSet.copyOf(dispatcherTypes);
		return new FilterMapping(filter, types, urlPatterns, servletNames);
	}

	/**
	 * Returns whether one of the URL patterns matches a request of the given type.
	 * @param type the dispatcher type
	 * @param match the request's servlet match
	 * @return whether the filter applies by URL pattern
	 */
	boolean matchesUrl(DispatcherType type, ServletMatch match) {
		if (!this.dispatcherTypes.contains(type)) {
			return false;
		}
		for (String pattern : this.urlPatterns) {
			if (ServletMapper.filterMatches(pattern, match)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Returns whether one of the servlet names matches a request of the given type.
	 * @param type the dispatcher type
	 * @param servletName the name of the servlet that serves it
	 * @return whether the filter applies by servlet name
	 */
	boolean matchesServlet(DispatcherType type, String servletName) {
		if (!this.dispatcherTypes.contains(type)) {
			return false;
		}
		for (String name : this.servletNames) {
			if (name.equals("*") || name.equals(servletName)) {
				return true;
			}
		}
		return false;
	}

}
