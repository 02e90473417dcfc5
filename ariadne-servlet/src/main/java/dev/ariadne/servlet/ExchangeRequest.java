package dev.ariadne.servlet;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UnsupportedEncodingException;
import java.net.InetSocketAddress;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.security.Principal;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletConnection;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.Part;

import dev.ariadne.http.Headers;
import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.Version;
import dev.ariadne.server.Request;

/**
 * The container's request: the core request seen through the Servlet API, with the paths of
 * the request dispatch. Dispatches after the first (forward, include, error, async) see it
 * through a {@link DispatchedRequest}.
 *
 * <p>Used by the thread running the exchange; attributes may also be read and written by an
 * application thread during async processing.
 */
final class ExchangeRequest implements HttpServletRequest {

	private static final AtomicLong REQUEST_IDS = new AtomicLong();

	private static final String FORM = "application/x-www-form-urlencoded";

	private static final String MULTIPART = "multipart/form-data";

	private final ServletExchange exchange;

	private final DeploymentContext context;

	private final Request core;

	private final String requestUri;

	private final String query;

	private final String pathInContext;

	private final Map<String, Object> attributes = new ConcurrentHashMap<>();

	private final RequestInput input;

	private ServletMatch match;

	private String characterEncoding;

	private Parameters parameters;

	/** Why the parameters could not be read: what every later call fails with too. */
	private RuntimeException parametersFailure;

	private Cookie[] cookies;

	/** Why the cookies could not be read: what every later call fails with too. */
	private StatusException cookiesFailure;

	private List<Locale> locales;

	private BufferedReader reader;

	private int inputMode;

	private MultipartParts parts;

	/** Why the parts could not be read: the body is spent, so every later call fails with it. */
	private RuntimeException partsFailure;

	private String requestId;

	private final RequestSession session;

	ExchangeRequest(ServletExchange exchange, Request core, String requestUri, String query, String pathInContext) {
		this.exchange = exchange;
		this.context = exchange.context();
		this.core = core;
		this.requestUri = requestUri;
		this.query = query;
		this.pathInContext = pathInContext;
		this.input = new RequestInput(exchange::nonBlocking, core.body());
		this.session = new RequestSession(exchange, this);
		TlsAttributes.put(core.tlsSession(), this.attributes);
	}

	Request core() {
		return this.core;
	}

	ServletExchange exchange() {
		return this.exchange;
	}

	String pathInContext() {
		return this.pathInContext;
	}

	void match(ServletMatch match) {
		this.match = match;
	}

	ServletMatch match() {
		return this.match;
	}

	RequestInput input() {
		return this.input;
	}

	MultipartParts multipartParts() {
		return this.parts;
	}

	MemorySession currentSession() {
		return this.session.current();
	}

	// ---- attributes

	@Override
	public Object getAttribute(String name) {
		return (name != null) ? this.attributes.get(name) : null;
	}

	@Override
	public Enumeration<String> getAttributeNames() {
		return Collections.enumeration(new ArrayList<>(this.attributes.keySet()));
	}

	@Override
	public void setAttribute(String name, Object o) {
		if (name == null) {
			throw new IllegalArgumentException("Attribute name must not be null");
		}
		if (o == null) {
			removeAttribute(name);
			return;
		}
		Object old = this.attributes.put(name, o);
		this.context.listeners().requestAttribute(this.context, this, name, old, o);
	}

	@Override
	public void removeAttribute(String name) {
		if (name == null) {
			return;
		}
		Object old = this.attributes.remove(name);
		if (old != null) {
			this.context.listeners().requestAttribute(this.context, this, name, old, null);
		}
	}

	// ---- encoding, body and parameters

	@Override
	public String getCharacterEncoding() {
		if (this.characterEncoding != null) {
			return this.characterEncoding;
		}
		String fromType = MediaTypes.charset(getContentType());
		return (fromType != null) ? fromType : this.context.getRequestCharacterEncoding();
	}

	@Override
	public void setCharacterEncoding(String env) throws UnsupportedEncodingException {
		if (this.reader != null || this.parameters != null) {
			return;
		}
		if (env == null) {
			this.characterEncoding = null;
			return;
		}
		try {
			Charset.forName(env);
		}
		catch (IllegalCharsetNameException | UnsupportedCharsetException ex) {
			throw new UnsupportedEncodingException("Unsupported request character encoding '" + env + "'");
		}
		this.characterEncoding = env;
	}

	/** The charset the body is read in: the request's, else ISO-8859-1 (Servlet 6.1 section 3.12). */
	Charset bodyCharset() {
		String encoding = getCharacterEncoding();
		try {
			return (encoding != null) ? Charset.forName(encoding) : StandardCharsets.ISO_8859_1;
		}
		catch (IllegalCharsetNameException | UnsupportedCharsetException ex) {
			throw new StatusException(HttpServletResponse.SC_UNSUPPORTED_MEDIA_TYPE,
					"Unsupported request character encoding '" + encoding + "'");
		}
	}

	@Override
	public int getContentLength() {
		long length = getContentLengthLong();
		return (length > Integer.MAX_VALUE) ? -1 : (int) length;
	}

	@Override
	public long getContentLengthLong() {
		String value = this.core.header("Content-Length");
		if (value == null) {
			return -1;
		}
		try {
			return Long.parseLong(value.trim());
		}
		catch (NumberFormatException ex) {
			return -1;
		}
	}

	@Override
	public String getContentType() {
		return this.core.header("Content-Type");
	}

	@Override
	public ServletInputStream getInputStream() throws IOException {
		if (this.inputMode == 2) {
			throw new IllegalStateException("getReader() was already called for this request");
		}
		this.inputMode = 1;
		return this.input;
	}

	@Override
	public BufferedReader getReader() throws IOException {
		if (this.inputMode == 1) {
			throw new IllegalStateException("getInputStream() was already called for this request");
		}
		if (this.reader == null) {
			this.inputMode = 2;
			this.reader = new BufferedReader(new InputStreamReader(this.input, bodyCharset()));
		}
		return this.reader;
	}

	/**
	 * The request's parameters, parsed on first use. A request over a limit fails every call with
	 * the same failure, except in the dispatch to its error page, which sees no parameters.
	 */
	private Parameters parameters() {
		if (this.parameters != null) {
			return this.parameters;
		}
		if (this.parametersFailure == null) {
			try {
				this.parameters = parseParameters();
				return this.parameters;
			}
			catch (RuntimeException ex) {
				this.parametersFailure = ex;
			}
		}
		if (this.exchange.errorDispatching()) {
			return new Parameters(0);
		}
		throw this.parametersFailure;
	}

	private Parameters parseParameters() {
		Parameters parsed = new Parameters(this.context.settings().contentLimits().maxParameters());
		String encoding = getCharacterEncoding();
		parsed.addEncoded(this.query, (encoding != null) ? bodyCharset() : StandardCharsets.UTF_8);
		String type = MediaTypes.type(getContentType());
		if (MULTIPART.equals(type) && (this.parts != null
				|| (this.inputMode == 0 && this.exchange.multipartConfig() != null))) {
			// parts read by getParts() before (Spring's multipart resolver) count too
			multipart().addFieldsTo(parsed, getCharacterEncoding());
		}
		else if (this.inputMode == 0 && "POST".equals(getMethod()) && FORM.equals(type)) {
			FormBody form = readForm(parsed);
			parsed.addEncoded(form.bytes(), 0, form.length(), bodyCharset());
		}
		try {
			// held until the exchange ends, as the form body is
			this.core.reserveMemory(parsed.memory());
		}
		catch (IOException ex) {
			throw refused(ex, "Reading the request parameters failed");
		}
		return parsed;
	}

	/**
	 * Reads a form body whole, counted in the server's buffer budget until the exchange ends.
	 * @param parsed the parameters so far, whose room bounds the pairs of the body
	 * @throws StatusException 413 beyond the most form bytes, 400 at the pair beyond the most
	 * parameters, 503 when no memory is free for it
	 */
	private FormBody readForm(Parameters parsed) {
		try {
			return FormBody.read(this.input, getContentLengthLong(),
					this.context.settings().contentLimits().maxFormSize(), parsed, this.core::reserveMemory);
		}
		catch (IOException ex) {
			throw refused(ex, "Reading the form body failed");
		}
	}

	/**
	 * The failure of a read or a reservation: the core's status and reason when the core refused
	 * (503 when no memory is free, 413, or a malformed body), else 400.
	 */
	private static StatusException refused(IOException ex, String what) {
		if (ex.getCause() instanceof HttpParseException parse) {
			return StatusException.refusal(parse.status().code(), parse.reason(), ex);
		}
		return new StatusException(HttpServletResponse.SC_BAD_REQUEST, what + ": " + ex, ex);
	}

	/**
	 * Adds parameters that take precedence over the request's own, for a dispatch whose path
	 * has a query string.
	 * @param dispatchQuery the dispatch's query string
	 * @return the combined parameters
	 */
	Parameters parametersWith(String dispatchQuery) {
		Parameters combined = new Parameters();
		String encoding = getCharacterEncoding();
		combined.addEncoded(dispatchQuery, (encoding != null) ? bodyCharset() : StandardCharsets.UTF_8);
		combined.addAll(parameters());
		return combined;
	}

	@Override
	public String getParameter(String name) {
		return parameters().first(name);
	}

	@Override
	public Enumeration<String> getParameterNames() {
		return Collections.enumeration(parameters().names());
	}

	@Override
	public String[] getParameterValues(String name) {
		return parameters().all(name);
	}

	@Override
	public Map<String, String[]> getParameterMap() {
		return parameters().asMap();
	}

	/**
	 * The parts, read on first use. Reading them spends the body, so a failure is kept and every
	 * later call fails with it.
	 */
	private MultipartParts multipart() {
		if (this.parts == null) {
			if (this.partsFailure != null) {
				throw this.partsFailure;
			}
			try {
				this.parts = MultipartParts.read(this, this.exchange.multipartConfig());
			}
			catch (RuntimeException ex) {
				this.partsFailure = ex;
				throw ex;
			}
			this.inputMode = 1;
		}
		return this.parts;
	}

	@Override
	public Collection<Part> getParts() throws IOException, ServletException {
		if (this.exchange.multipartConfig() == null) {
			throw new IllegalStateException("Servlet '" + this.exchange.currentServletName()
					+ "' has no multipart config, so the container does not read parts");
		}
		if (!MULTIPART.equals(MediaTypes.type(getContentType()))) {
			throw new ServletException("The request is not multipart/form-data but " + getContentType());
		}
		return multipart().parts();
	}

	@Override
	public Part getPart(String name) throws IOException, ServletException {
		for (Part part : getParts()) {
			if (part.getName().equals(name)) {
				return part;
			}
		}
		return null;
	}

	@Override
	public <T extends HttpUpgradeHandler> T upgrade(Class<T> handlerClass) throws IOException, ServletException {
		return this.exchange.upgrade(handlerClass);
	}

	@Override
	public Map<String, String> getTrailerFields() {
		Headers trailers = this.core.trailers();
		Map<String, String> fields = new LinkedHashMap<>();
		for (int i = 0; i < trailers.size(); i++) {
			fields.merge(trailers.name(i).toLowerCase(Locale.ROOT), trailers.value(i), (a, b) -> a + "," + b);
		}
		return fields;
	}

	@Override
	public boolean isTrailerFieldsReady() {
		// HTTP/2 trailers end the stream; HTTP/1.1 ones only a chunked body
		return this.input.isFinished()
				|| (this.core.version() != Version.HTTP_2 && this.core.header("Transfer-Encoding") == null);
	}

	// ---- headers, cookies, locales

	@Override
	public String getHeader(String name) {
		return this.core.header(name);
	}

	@Override
	public Enumeration<String> getHeaders(String name) {
		return Collections.enumeration(this.core.headers().all(name));
	}

	@Override
	public Enumeration<String> getHeaderNames() {
		Headers headers = this.core.headers();
		Set<String> names = new LinkedHashSet<>();
		Set<String> seen = new HashSet<>();
		for (int i = 0; i < headers.size(); i++) {
			if (seen.add(headers.name(i).toLowerCase(Locale.ROOT))) {
				names.add(headers.name(i));
			}
		}
		return Collections.enumeration(names);
	}

	@Override
	public int getIntHeader(String name) {
		String value = getHeader(name);
		return (value != null) ? Integer.parseInt(value.trim()) : -1;
	}

	@Override
	public long getDateHeader(String name) {
		String value = getHeader(name);
		return (value != null) ? HttpDates.parse(value) : -1;
	}

	/**
	 * Returns the cookies, parsed on first use. More than the most cookies fails every call with a
	 * {@code 400}, except in the dispatch to the error page, which sees none.
	 */
	@Override
	public Cookie[] getCookies() {
		if (this.cookies == null) {
			if (this.cookiesFailure == null) {
				try {
					List<String> headers = this.core.headers().all("Cookie");
					this.cookies = headers.isEmpty() ? new Cookie[0]
							: CookieCodec.parse(headers, this.context.settings().contentLimits().maxCookies())
								.toArray(new Cookie[0]);
				}
				catch (StatusException ex) {
					this.cookiesFailure = ex;
				}
			}
			if (this.cookies == null) {
				if (this.exchange.errorDispatching()) {
					return null;
				}
				throw this.cookiesFailure;
			}
		}
		return (this.cookies.length == 0) ? null : this.cookies.clone();
	}

	@Override
	public Locale getLocale() {
		return locales().get(0);
	}

	@Override
	public Enumeration<Locale> getLocales() {
		return Collections.enumeration(locales());
	}

	private List<Locale> locales() {
		if (this.locales == null) {
			this.locales = Locales.parse(this.core.headers().all("Accept-Language"));
		}
		return this.locales;
	}

	// ---- request line, paths and addresses

	@Override
	public String getMethod() {
		return this.core.method().name();
	}

	@Override
	public String getProtocol() {
		return this.core.version().text();
	}

	@Override
	public String getScheme() {
		return this.core.secure() ? "https" : "http";
	}

	@Override
	public boolean isSecure() {
		return this.core.secure();
	}

	@Override
	public String getServerName() {
		return HostHeader.name(this.core.header("Host"), this.core.localAddress());
	}

	@Override
	public int getServerPort() {
		return HostHeader.port(this.core.header("Host"), this.core.localAddress(), this.core.secure());
	}

	@Override
	public String getRemoteAddr() {
		InetSocketAddress remote = this.core.remoteAddress();
		return (remote != null && remote.getAddress() != null) ? remote.getAddress().getHostAddress() : null;
	}

	@Override
	public String getRemoteHost() {
		return getRemoteAddr();
	}

	@Override
	public int getRemotePort() {
		InetSocketAddress remote = this.core.remoteAddress();
		return (remote != null) ? remote.getPort() : -1;
	}

	@Override
	public String getLocalName() {
		InetSocketAddress local = this.core.localAddress();
		return (local != null) ? local.getHostString() : null;
	}

	@Override
	public String getLocalAddr() {
		InetSocketAddress local = this.core.localAddress();
		return (local != null && local.getAddress() != null) ? local.getAddress().getHostAddress() : null;
	}

	@Override
	public int getLocalPort() {
		InetSocketAddress local = this.core.localAddress();
		return (local != null) ? local.getPort() : -1;
	}

	@Override
	public String getContextPath() {
		// behind a trusted proxy's X-Forwarded-Prefix, the request URI starts with it instead
		String prefix = this.core.forwardedPrefix();
		return (prefix != null) ? prefix : PathCanonicalizer.rawPrefix(this.requestUri, this.context.getContextPath());
	}

	@Override
	public String getServletPath() {
		return this.match.servletPath();
	}

	@Override
	public String getPathInfo() {
		return this.match.pathInfo();
	}

	@Override
	public String getPathTranslated() {
		String info = getPathInfo();
		return (info != null) ? this.context.getRealPath(info) : null;
	}

	@Override
	public HttpServletMapping getHttpServletMapping() {
		return this.match;
	}

	@Override
	public String getQueryString() {
		return this.query;
	}

	@Override
	public String getRequestURI() {
		return this.requestUri;
	}

	@Override
	public StringBuffer getRequestURL() {
		return requestUrl(this, this.requestUri);
	}

	static StringBuffer requestUrl(HttpServletRequest request, String uri) {
		StringBuffer url = new StringBuffer(64).append(request.getScheme()).append("://");
		String host = request.getServerName();
		url.append((host.indexOf(':') >= 0) ? "[" + host + "]" : host);
		int port = request.getServerPort();
		if (port > 0 && port != (request.isSecure() ? 443 : 80)) {
			url.append(':').append(port);
		}
		return url.append(uri);
	}

	@Override
	public RequestDispatcher getRequestDispatcher(String path) {
		return ServletDispatcher.relative(this.context, this.match, path);
	}

	@Override
	public ServletContext getServletContext() {
		return this.context;
	}

	@Override
	public DispatcherType getDispatcherType() {
		return DispatcherType.REQUEST;
	}

	@Override
	public String getRequestId() {
		if (this.requestId == null) {
			this.requestId = Long.toString(REQUEST_IDS.incrementAndGet());
		}
		return this.requestId;
	}

	@Override
	public String getProtocolRequestId() {
		return "";
	}

	@Override
	public ServletConnection getServletConnection() {
		return this.exchange.connection();
	}

	// ---- security: left to filters (Spring Security wraps the request)

	@Override
	public String getAuthType() {
		return null;
	}

	@Override
	public String getRemoteUser() {
		return null;
	}

	@Override
	public boolean isUserInRole(String role) {
		return false;
	}

	@Override
	public Principal getUserPrincipal() {
		return null;
	}

	@Override
	public boolean authenticate(HttpServletResponse response) throws IOException, ServletException {
		throw new ServletException("Ariadne has no container authentication; use a filter such as Spring Security");
	}

	@Override
	public void login(String username, String password) throws ServletException {
		throw new ServletException("Ariadne has no container authentication; use a filter such as Spring Security");
	}

	@Override
	public void logout() throws ServletException {
	}

	// ---- sessions

	@Override
	public HttpSession getSession(boolean create) {
		return this.session.get(create);
	}

	@Override
	public HttpSession getSession() {
		return getSession(true);
	}

	@Override
	public String changeSessionId() {
		return this.session.changeId();
	}

	@Override
	public String getRequestedSessionId() {
		return this.session.requestedId();
	}

	@Override
	public boolean isRequestedSessionIdValid() {
		return this.session.requestedIdValid();
	}

	@Override
	public boolean isRequestedSessionIdFromCookie() {
		return this.session.requestedId() != null && this.session.requestedIdFromCookie();
	}

	@Override
	public boolean isRequestedSessionIdFromURL() {
		return this.session.requestedId() != null && !this.session.requestedIdFromCookie();
	}

	// ---- async

	@Override
	public AsyncContext startAsync() throws IllegalStateException {
		return this.exchange.startAsync(this, this.exchange.response(), true);
	}

	@Override
	public AsyncContext startAsync(ServletRequest servletRequest, ServletResponse servletResponse)
			throws IllegalStateException {
		return this.exchange.startAsync(servletRequest, servletResponse, false);
	}

	@Override
	public boolean isAsyncStarted() {
		return this.exchange.isAsyncStarted();
	}

	@Override
	public boolean isAsyncSupported() {
		return this.exchange.isAsyncSupported();
	}

	@Override
	public AsyncContext getAsyncContext() {
		return this.exchange.asyncContext();
	}

	@Override
	public String toString() {
		return getMethod() + " " + this.requestUri + ((this.query != null) ? "?" + this.query : "");
	}

}
