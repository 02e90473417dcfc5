package dev.ariadne.servlet;

import java.util.LinkedHashMap;
import java.util.Map;

import jakarta.servlet.ServletException;

/**
 * The error pages of a context: by status, by exception type, and a global one used when
 * neither matches (Spring Boot registers a global {@code /error}). Immutable after start.
 */
final class ErrorPages {

	private final Map<Integer, String> byStatus = new LinkedHashMap<>();

	private final Map<Class<? extends Throwable>, String> byType = new LinkedHashMap<>();

	private String global;

	void add(int status, String path) {
		if (status < 400 || status > 599) {
			throw new IllegalArgumentException("Error page status must be 4xx or 5xx, was " + status);
		}
		this.byStatus.put(status, checkPath(path));
	}

	void add(Class<? extends Throwable> type, String path) {
		this.byType.put(type, checkPath(path));
	}

	void global(String path) {
		this.global = checkPath(path);
	}

	private static String checkPath(String path) {
		if (path == null || !path.startsWith("/")) {
			throw new IllegalArgumentException("Error page path must start with /, was '" + path + "'");
		}
		return path;
	}

	/**
	 * Returns the page for a status.
	 * @param status the status
	 * @return the page's path within the context, or {@code null}
	 */
	String forStatus(int status) {
		String path = this.byStatus.get(status);
		return (path != null) ? path : this.global;
	}

	/**
	 * Returns the page for an exception: by its class or a superclass, then, for a
	 * {@link ServletException}, by its root cause, then the 500 page and the global page.
	 * @param failure the exception
	 * @return the page's path within the context, or {@code null}
	 */
	String forException(Throwable failure) {
		String path = byType(failure);
		if (path == null && failure instanceof ServletException servletException
				&& servletException.getRootCause() != null) {
			path = byType(servletException.getRootCause());
		}
		return (path != null) ? path : forStatus(500);
	}

	private String byType(Throwable failure) {
		for (Class<?> type = failure.getClass(); type != null; type = type.getSuperclass()) {
			String path = this.byType.get(type);
			if (path != null) {
				return path;
			}
		}
		return null;
	}

}
