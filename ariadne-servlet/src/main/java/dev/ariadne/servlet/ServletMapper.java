package dev.ariadne.servlet;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import jakarta.servlet.http.MappingMatch;

/**
 * Maps a path within the context to a servlet by the rules of Servlet 6.1 section 12.1: the
 * context root ({@code ""}) and exact patterns first, then the longest {@code /prefix/*}, then
 * {@code *.ext} on the last segment, then the default servlet ({@code /}). Immutable; rebuilt
 * when mappings change.
 */
final class ServletMapper {

	private final Map<String, ServletEntry> exact = new HashMap<>();

	private final List<Prefix> prefixes = new ArrayList<>();

	private final Map<String, ServletEntry> extensions = new HashMap<>();

	private ServletEntry contextRoot;

	private ServletEntry defaultServlet;

	private final ServletEntry notFound;

	private record Prefix(String path, ServletEntry servlet) {
	}

	/**
	 * Builds the mapper of a set of servlets.
	 * @param servlets the servlets with their mappings
	 * @param notFound what serves paths no pattern matches (the container's own 404)
	 */
	ServletMapper(Collection<ServletEntry> servlets, ServletEntry notFound) {
		this.notFound = notFound;
		for (ServletEntry servlet : servlets) {
			for (String pattern : servlet.getMappings()) {
				add(pattern, servlet);
			}
		}
		this.prefixes.sort(Comparator.comparingInt((Prefix prefix) -> prefix.path().length()).reversed());
	}

	private void add(String pattern, ServletEntry servlet) {
		if (pattern.isEmpty()) {
			this.contextRoot = servlet;
		}
		else if (pattern.equals("/")) {
			this.defaultServlet = servlet;
		}
		else if (pattern.endsWith("/*")) {
			this.prefixes.add(new Prefix(pattern.substring(0, pattern.length() - 2), servlet));
		}
		else if (pattern.startsWith("*.")) {
			this.extensions.put(pattern.substring(2), servlet);
		}
		else {
			this.exact.put(pattern, servlet);
		}
	}

	/**
	 * Checks a URL pattern as {@code addMapping} takes it.
	 * @param pattern the pattern
	 * @throws IllegalArgumentException naming the pattern if it is not one of the forms
	 */
	static void validate(String pattern) {
		if (pattern == null) {
			throw new IllegalArgumentException("A URL pattern is null");
		}
		if (pattern.isEmpty() || pattern.equals("/")) {
			return;
		}
		if (pattern.startsWith("*.")) {
			if (pattern.length() > 2 && pattern.indexOf('/') < 0 && pattern.indexOf('*', 1) < 0) {
				return;
			}
		}
		else if (pattern.startsWith("/")) {
			int star = pattern.indexOf('*');
			if (star < 0 || (star == pattern.length() - 1 && pattern.endsWith("/*"))) {
				return;
			}
		}
		throw new IllegalArgumentException("URL pattern '" + pattern
				+ "' is not an exact path (/a/b), a prefix (/a/*), an extension (*.ext), / or \"\"");
	}

	/**
	 * Finds the servlet for a path.
	 * @param path the decoded canonical path within the context, starting with {@code /}
	 * @return the match; the container's 404 servlet when no pattern matches
	 */
	ServletMatch map(String path) {
		if (this.contextRoot != null && path.equals("/")) {
			return new ServletMatch(this.contextRoot, "", "/", "", "", MappingMatch.CONTEXT_ROOT);
		}
		ServletEntry servlet = this.exact.get(path);
		if (servlet != null) {
			return new ServletMatch(servlet, path, null, path.substring(1), path, MappingMatch.EXACT);
		}
		for (Prefix prefix : this.prefixes) {
			String start = prefix.path();
			if (path.startsWith(start) && (path.length() == start.length() || path.charAt(start.length()) == '/')) {
				String info = (path.length() == start.length()) ? null : path.substring(start.length());
				String value = (info != null) ? info.substring(1) : "";
				return new ServletMatch(prefix.servlet(), start, info, value, start + "/*", MappingMatch.PATH);
			}
		}
		String extension = extension(path);
		if (extension != null) {
			servlet = this.extensions.get(extension);
			if (servlet != null) {
				String value = path.substring(1, path.length() - extension.length() - 1);
				return new ServletMatch(servlet, path, null, value, "*." + extension, MappingMatch.EXTENSION);
			}
		}
		ServletEntry fallback = (this.defaultServlet != null) ? this.defaultServlet : this.notFound;
		return new ServletMatch(fallback, path, null, "", "/", MappingMatch.DEFAULT);
	}

	/**
	 * Returns the extension of the last segment of a path.
	 * @param path the path
	 * @return the text after the last dot of the last segment, or {@code null}
	 */
	static String extension(String path) {
		int slash = path.lastIndexOf('/');
		int dot = path.lastIndexOf('.');
		return (dot > slash && dot < path.length() - 1) ? path.substring(dot + 1) : null;
	}

	/**
	 * Returns whether a URL pattern of a filter mapping matches a request.
	 * @param pattern the filter's URL pattern
	 * @param match the servlet match of the request
	 * @return whether the filter applies
	 */
	static boolean filterMatches(String pattern, ServletMatch match) {
		String path = match.path();
		if (pattern.equals("/*")) {
			return true;
		}
		if (pattern.isEmpty()) {
			return path.equals("/");
		}
		if (pattern.equals("/")) {
			return match.match() == MappingMatch.DEFAULT;
		}
		if (pattern.endsWith("/*")) {
			String start = pattern.substring(0, pattern.length() - 2);
			return path.startsWith(start) && (path.length() == start.length() || path.charAt(start.length()) == '/');
		}
		if (pattern.startsWith("*.")) {
			String extension = extension(path);
			return extension != null && pattern.regionMatches(2, extension, 0, extension.length())
					&& pattern.length() - 2 == extension.length();
		}
		return pattern.equals(path);
	}

}
