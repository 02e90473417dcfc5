package dev.ariadne.servlet;

import java.io.IOException;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletRequestWrapper;
import jakarta.servlet.ServletResponse;

/**
 * A {@link RequestDispatcher} to a path within the context (mapped like a request, the path
 * canonicalised and decoded the same way) or to a servlet by name. Also the target of async and
 * error dispatches.
 */
final class ServletDispatcher implements RequestDispatcher {

	private final ServletMatch match;

	private final String requestUri;

	private final String query;

	private final boolean named;

	private ServletDispatcher(ServletMatch match, String requestUri, String query, boolean named) {
		this.match = match;
		this.requestUri = requestUri;
		this.query = query;
		this.named = named;
	}

	/**
	 * Creates a dispatcher to a context-relative path, which may carry a query string.
	 * @param context the context
	 * @param path the path, percent-encoded as in a URI, starting with {@code /}
	 * @return the dispatcher, or {@code null} if the path is suspicious or malformed
	 */
	static ServletDispatcher forPath(DeploymentContext context, String path) {
		int question = path.indexOf('?');
		String rawPath = (question < 0) ? path : path.substring(0, question);
		String query = (question < 0) ? null : path.substring(question + 1);
		String decoded;
		try {
			decoded = PathCanonicalizer.canonicalize(rawPath);
		}
		catch (SuspiciousPathException ex) {
			return null;
		}
		return new ServletDispatcher(context.mapper().map(decoded), context.getContextPath() + rawPath, query, false);
	}

	/**
	 * Creates a dispatcher to the path a request was dispatched to, for {@code AsyncContext.dispatch()}.
	 * @param context the context
	 * @param decodedPath the decoded path within the context
	 * @param requestUri the request URI that goes with it
	 * @param query the query string, or {@code null}
	 * @return the dispatcher
	 */
	static ServletDispatcher forDecodedPath(DeploymentContext context, String decodedPath, String requestUri,
			String query) {
		return new ServletDispatcher(context.mapper().map(decodedPath), requestUri, query, false);
	}

	/**
	 * Creates a dispatcher for {@code ServletRequest.getRequestDispatcher}: a path relative to
	 * the current one is resolved against it.
	 * @param context the context
	 * @param current the current mapping of the request
	 * @param path the path
	 * @return the dispatcher, or {@code null}
	 */
	static ServletDispatcher relative(DeploymentContext context, ServletMatch current, String path) {
		if (path == null) {
			return null;
		}
		if (path.startsWith("/")) {
			return forPath(context, path);
		}
		String base = current.path();
		return forPath(context, base.substring(0, base.lastIndexOf('/') + 1) + path);
	}

	static ServletDispatcher named(DeploymentContext context, ServletEntry servlet) {
		return new ServletDispatcher(new ServletMatch(servlet, "", null, "", "", null), null, null, true);
	}

	ServletMatch match() {
		return this.match;
	}

	String requestUri() {
		return this.requestUri;
	}

	String query() {
		return this.query;
	}

	/** Whether this dispatcher was obtained by servlet name: the request's paths stay. */
	boolean named() {
		return this.named;
	}

	@Override
	public void forward(ServletRequest request, ServletResponse response) throws ServletException, IOException {
		exchangeOf(request).forward(this, request, response);
	}

	@Override
	public void include(ServletRequest request, ServletResponse response) throws ServletException, IOException {
		exchangeOf(request).include(this, request, response);
	}

	/** Finds the container's request inside any wrappers the application put around it. */
	static ServletExchange exchangeOf(ServletRequest request) {
		ServletRequest current = request;
		while (true) {
			if (current instanceof ExchangeRequest exchangeRequest) {
				return exchangeRequest.exchange();
			}
			if (current instanceof ServletRequestWrapper wrapper) {
				current = wrapper.getRequest();
				continue;
			}
			throw new IllegalArgumentException("The request " + request.getClass().getName()
					+ " does not wrap the container's request, so it cannot be dispatched");
		}
	}

}
