package dev.ariadne.servlet;

import java.util.Collections;
import java.util.Enumeration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;

/**
 * The request as the target of a forward, include, error or async dispatch sees it: the
 * dispatcher type, the target's paths (except for an include, which keeps the caller's), the
 * parameters of the dispatch's query string ahead of the request's own, and the
 * {@code jakarta.servlet.forward.*}, {@code include.*} or {@code async.*} attributes.
 */
final class DispatchedRequest extends HttpServletRequestWrapper {

	private final DispatcherType type;

	private final ServletDispatcher target;

	private final ExchangeRequest base;

	private final Map<String, Object> dispatchAttributes;

	private Parameters parameters;

	private DispatchedRequest(HttpServletRequest request, DispatcherType type, ServletDispatcher target,
			ExchangeRequest base, Map<String, Object> dispatchAttributes) {
		super(request);
		this.type = type;
		this.target = target;
		this.base = base;
		this.dispatchAttributes = dispatchAttributes;
	}

	static DispatchedRequest forward(HttpServletRequest request, ServletDispatcher target, ExchangeRequest base) {
		Map<String, Object> attributes = new LinkedHashMap<>();
		// nested forwards keep the values of the first, those of the client's request
		if (!target.named() && request.getAttribute(RequestDispatcher.FORWARD_REQUEST_URI) == null) {
			attributes.put(RequestDispatcher.FORWARD_REQUEST_URI, request.getRequestURI());
			attributes.put(RequestDispatcher.FORWARD_CONTEXT_PATH, request.getContextPath());
			attributes.put(RequestDispatcher.FORWARD_SERVLET_PATH, request.getServletPath());
			putIfNotNull(attributes, RequestDispatcher.FORWARD_PATH_INFO, request.getPathInfo());
			putIfNotNull(attributes, RequestDispatcher.FORWARD_QUERY_STRING, request.getQueryString());
			attributes.put(RequestDispatcher.FORWARD_MAPPING, request.getHttpServletMapping());
		}
		return new DispatchedRequest(request, DispatcherType.FORWARD, target, base, attributes);
	}

	static DispatchedRequest include(HttpServletRequest request, ServletDispatcher target, ExchangeRequest base) {
		Map<String, Object> attributes = new LinkedHashMap<>();
		if (!target.named()) {
			ServletMatch match = target.match();
			attributes.put(RequestDispatcher.INCLUDE_REQUEST_URI, target.requestUri());
			attributes.put(RequestDispatcher.INCLUDE_CONTEXT_PATH, request.getContextPath());
			attributes.put(RequestDispatcher.INCLUDE_SERVLET_PATH, match.servletPath());
			putIfNotNull(attributes, RequestDispatcher.INCLUDE_PATH_INFO, match.pathInfo());
			putIfNotNull(attributes, RequestDispatcher.INCLUDE_QUERY_STRING, target.query());
			attributes.put(RequestDispatcher.INCLUDE_MAPPING, match);
		}
		return new DispatchedRequest(request, DispatcherType.INCLUDE, target, base, attributes);
	}

	static DispatchedRequest error(HttpServletRequest request, ServletDispatcher target, ExchangeRequest base) {
		return new DispatchedRequest(request, DispatcherType.ERROR, target, base, new LinkedHashMap<>());
	}

	static DispatchedRequest async(HttpServletRequest request, ServletDispatcher target, ExchangeRequest base) {
		Map<String, Object> attributes = new LinkedHashMap<>();
		attributes.put(AsyncContext.ASYNC_REQUEST_URI, request.getRequestURI());
		attributes.put(AsyncContext.ASYNC_CONTEXT_PATH, request.getContextPath());
		attributes.put(AsyncContext.ASYNC_SERVLET_PATH, request.getServletPath());
		putIfNotNull(attributes, AsyncContext.ASYNC_PATH_INFO, request.getPathInfo());
		putIfNotNull(attributes, AsyncContext.ASYNC_QUERY_STRING, request.getQueryString());
		attributes.put(AsyncContext.ASYNC_MAPPING, request.getHttpServletMapping());
		return new DispatchedRequest(request, DispatcherType.ASYNC, target, base, attributes);
	}

	private static void putIfNotNull(Map<String, Object> attributes, String name, Object value) {
		if (value != null) {
			attributes.put(name, value);
		}
	}

	/** Whether this dispatch sees the target's paths rather than the caller's. */
	private boolean ownPaths() {
		return this.type != DispatcherType.INCLUDE && !this.target.named();
	}

	@Override
	public DispatcherType getDispatcherType() {
		return this.type;
	}

	@Override
	public String getContextPath() {
		if (!ownPaths()) {
			return super.getContextPath();
		}
		String uri = getRequestURI();
		if (uri.equals(this.base.getRequestURI())) {
			// AsyncContext.dispatch() keeps the request's URI, which may start with a forwarded prefix
			return this.base.getContextPath();
		}
		return PathCanonicalizer.rawPrefix(uri, getServletContext().getContextPath());
	}

	@Override
	public String getRequestURI() {
		return ownPaths() ? this.target.requestUri() : super.getRequestURI();
	}

	@Override
	public StringBuffer getRequestURL() {
		return ownPaths() ? ExchangeRequest.requestUrl(this, getRequestURI()) : super.getRequestURL();
	}

	@Override
	public String getServletPath() {
		return ownPaths() ? this.target.match().servletPath() : super.getServletPath();
	}

	@Override
	public String getPathInfo() {
		return ownPaths() ? this.target.match().pathInfo() : super.getPathInfo();
	}

	@Override
	public String getPathTranslated() {
		String info = getPathInfo();
		return (info != null) ? getServletContext().getRealPath(info) : null;
	}

	@Override
	public HttpServletMapping getHttpServletMapping() {
		return ownPaths() ? this.target.match() : super.getHttpServletMapping();
	}

	@Override
	public String getQueryString() {
		return (ownPaths() && this.target.query() != null) ? this.target.query() : super.getQueryString();
	}

	private Parameters parameters() {
		if (this.parameters == null) {
			this.parameters = this.base.parametersWith(this.target.query());
		}
		return this.parameters;
	}

	@Override
	public String getParameter(String name) {
		return (this.target.query() != null) ? parameters().first(name) : super.getParameter(name);
	}

	@Override
	public Map<String, String[]> getParameterMap() {
		return (this.target.query() != null) ? parameters().asMap() : super.getParameterMap();
	}

	@Override
	public Enumeration<String> getParameterNames() {
		return (this.target.query() != null) ? Collections.enumeration(parameters().names())
				: super.getParameterNames();
	}

	@Override
	public String[] getParameterValues(String name) {
		return (this.target.query() != null) ? parameters().all(name) : super.getParameterValues(name);
	}

	@Override
	public Object getAttribute(String name) {
		if (this.dispatchAttributes.containsKey(name)) {
			return this.dispatchAttributes.get(name);
		}
		return super.getAttribute(name);
	}

	@Override
	public Enumeration<String> getAttributeNames() {
		Set<String> names = new LinkedHashSet<>(Collections.list(super.getAttributeNames()));
		names.addAll(this.dispatchAttributes.keySet());
		return Collections.enumeration(names);
	}

	@Override
	public void setAttribute(String name, Object value) {
		if (this.dispatchAttributes.containsKey(name)) {
			if (value == null) {
				this.dispatchAttributes.remove(name);
			}
			else {
				this.dispatchAttributes.put(name, value);
			}
			return;
		}
		super.setAttribute(name, value);
	}

	@Override
	public void removeAttribute(String name) {
		if (this.dispatchAttributes.remove(name) == null) {
			super.removeAttribute(name);
		}
	}

	@Override
	public RequestDispatcher getRequestDispatcher(String path) {
		ServletMatch current = ownPaths() ? this.target.match() : null;
		if (current == null) {
			return super.getRequestDispatcher(path);
		}
		return ServletDispatcher.relative((DeploymentContext) getServletContext(), current, path);
	}

	@Override
	public String toString() {
		return this.type + " " + getRequestURI();
	}

}
