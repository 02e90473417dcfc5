package dev.ariadne.servlet;

import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.MappingMatch;

/**
 * A servlet mapped to a path within the context, with the path split as the request reports
 * it: {@code servletPath + pathInfo} is the path.
 *
 * @param servlet the servlet
 * @param servletPath the servlet path, {@code ""} for the {@code /*} and {@code ""} patterns
 * @param pathInfo the rest of the path, or {@code null}
 * @param matchValue the part of the path that matched, as {@link HttpServletMapping} defines it
 * @param pattern the URL pattern that matched
 * @param match how it matched
 */
record ServletMatch(ServletEntry servlet, String servletPath, String pathInfo, String matchValue, String pattern,
		MappingMatch match) implements HttpServletMapping {

	@Override
	public String getMatchValue() {
		return this.matchValue;
	}

	@Override
	public String getPattern() {
		return this.pattern;
	}

	@Override
	public String getServletName() {
		return this.servlet.getName();
	}

	@Override
	public MappingMatch getMappingMatch() {
		return this.match;
	}

	/** The path within the context that this match was made for. */
	String path() {
		return (this.pathInfo != null) ? this.servletPath + this.pathInfo : this.servletPath;
	}

}
