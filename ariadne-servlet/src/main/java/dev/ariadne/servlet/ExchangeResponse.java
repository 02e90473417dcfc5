package dev.ariadne.servlet;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintWriter;
import java.net.URI;
import java.nio.charset.Charset;
import java.nio.charset.IllegalCharsetNameException;
import java.nio.charset.StandardCharsets;
import java.nio.charset.UnsupportedCharsetException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.SessionTrackingMode;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpSession;

import dev.ariadne.http.Headers;
import dev.ariadne.http.Version;
import dev.ariadne.server.Response;

/**
 * The container's response: status, headers, cookies, content type and the buffered body, handed
 * to the core response when it commits.
 *
 * <p>Two notions of "committed": the head was handed to the core ({@link #isHeadCommitted()}),
 * or the application may no longer change the response ({@link #isCommitted()}), which also
 * holds after {@code sendError} and {@code sendRedirect}, when the response is suspended until
 * the container finishes it.
 */
final class ExchangeResponse implements HttpServletResponse {

	private static final int MODE_NONE = 0;

	private static final int MODE_STREAM = 1;

	private static final int MODE_WRITER = 2;

	private final ServletExchange exchange;

	private final DeploymentContext context;

	private final Response core;

	private final Headers headers = new Headers();

	private final List<Cookie> cookies = new ArrayList<>(2);

	private final ResponseOutput output = new ResponseOutput(this);

	private int status = SC_OK;

	private String contentType;

	private String charset;

	private Locale locale;

	private long contentLength = -1;

	private int outputMode = MODE_NONE;

	private PrintWriter writer;

	private ResponseWriter encoder;

	private volatile boolean headCommitted;

	private volatile boolean suspended;

	/** Whether the request switched protocols: the response is a 101 without a body. */
	private volatile boolean upgraded;

	private boolean errorPending;

	private String errorMessage;

	private Cookie sessionCookie;

	private Supplier<Map<String, String>> trailerFields;

	ExchangeResponse(ServletExchange exchange, Response core) {
		this.exchange = exchange;
		this.context = exchange.context();
		this.core = core;
	}

	ServletExchange exchange() {
		return this.exchange;
	}

	ResponseOutput output() {
		return this.output;
	}

	boolean isHeadCommitted() {
		return this.headCommitted;
	}

	boolean isSuspended() {
		return this.suspended;
	}

	boolean isUpgraded() {
		return this.upgraded;
	}

	/** The request switched protocols: the response is a 101, whose status no longer changes. */
	void upgraded() {
		this.status = SC_SWITCHING_PROTOCOLS;
		this.upgraded = true;
	}

	/**
	 * Sends the 101 of a request that switched protocols, with the fields set so far, unless it
	 * went already (a flush).
	 * @throws IOException if the connection failed
	 */
	void finishUpgrade() throws IOException {
		if (!this.headCommitted) {
			writeHead();
		}
		this.core.outputStream().flush();
	}

	boolean errorPending() {
		return this.errorPending;
	}

	String errorMessage() {
		return this.errorMessage;
	}

	long declaredLength() {
		return this.contentLength;
	}

	void writeFailed(IOException failure) {
		this.exchange.nonBlocking().writeFailed(failure);
	}

	// ---- commit

	/** Hands status and headers to the core response and returns the stream for the body. */
	OutputStream commitStreaming() {
		writeHead();
		if (this.contentLength >= 0 && !this.upgraded) {
			this.core.header("Content-Length", Long.toString(this.contentLength));
		}
		return this.core.outputStream();
	}

	/**
	 * Sends a response whose whole body is known, with its length.
	 * @param content the body
	 * @throws IOException if the connection fails
	 */
	void commitComplete(byte[] content) throws IOException {
		if (this.contentLength >= 0 && this.contentLength != content.length) {
			// the application announced another length (HEAD, or a body cut short): keep it
			try (OutputStream body = commitStreaming()) {
				body.write(content);
			}
			return;
		}
		writeHead();
		this.core.send(content);
	}

	private void writeHead() {
		if (this.headCommitted) {
			throw new IllegalStateException("Response already committed");
		}
		if ((this.status < 200 || this.status > 999) && !this.upgraded) {
			// refused before anything reaches the core, so the response can still become a 500
			throw new IllegalStateException("Status " + this.status + " cannot be sent as a final response");
		}
		List<String> setCookies;
		synchronized (this.headers) {
			// another thread may still add headers (a filter's header writer on the request thread
			// while an async thread commits): the head is read whole, and later changes ignored
			setCookies = new ArrayList<>(this.cookies.size());
			for (Cookie cookie : this.cookies) {
				setCookies.add(CookieCodec.format(cookie, this.context.sameSite(cookie)));
			}
			this.headCommitted = true;
			if (!this.upgraded) {
				// the core's response switched protocols: a 101 already
				this.core.status(this.status);
			}
			for (int i = 0; i < this.headers.size(); i++) {
				this.core.header(this.headers.name(i), this.headers.value(i));
			}
		}
		String type = getContentType();
		if (type != null) {
			this.core.contentType(type);
		}
		if (this.locale != null && !this.headers.contains("Content-Language")) {
			this.core.header("Content-Language", this.locale.toLanguageTag());
		}
		for (String setCookie : setCookies) {
			this.core.header("Set-Cookie", setCookie);
		}
		String server = this.context.settings().serverHeader();
		if (server != null && !this.headers.contains("Server")) {
			this.core.header("Server", server);
		}
		if (this.exchange.request().input().framingLost()) {
			this.core.header("Connection", "close");
		}
		Supplier<Map<String, String>> trailerFields = this.trailerFields;
		if (trailerFields != null) {
			this.core.trailers(() -> trailers(trailerFields.get()));
		}
	}

	private static Headers trailers(Map<String, String> fields) {
		Headers trailers = new Headers();
		if (fields != null) {
			fields.forEach((name, value) -> {
				if (name != null && value != null) {
					trailers.add(name, value);
				}
			});
		}
		return trailers;
	}

	/**
	 * Ends the response: flushes the writer's encoder and closes the body, so a response that
	 * fits the buffer gets its {@code Content-Length}.
	 * @throws IOException if the connection fails
	 */
	void finish() throws IOException {
		this.suspended = false;
		if (this.encoder != null && !this.output.isClosed()) {
			this.encoder.endOfInput();
		}
		this.output.close();
	}

	// ---- error and redirect

	@Override
	public void sendError(int sc, String msg) throws IOException {
		if (isCommitted()) {
			throw new IllegalStateException("Cannot send error " + sc + ": the response is already committed");
		}
		this.output.clearBuffer();
		this.status = sc;
		this.errorPending = true;
		this.errorMessage = msg;
		this.suspended = true;
	}

	@Override
	public void sendError(int sc) throws IOException {
		sendError(sc, null);
	}

	/**
	 * Prepares the response for the error page of a pending error or a failure: clears the
	 * error state and the buffer, sets the status, and lets the page write.
	 * @param status the error status
	 */
	void prepareErrorPage(int status) {
		this.errorPending = false;
		this.suspended = false;
		this.status = status;
		this.contentType = null;
		this.charset = null;
		this.contentLength = -1;
		this.headers.remove("Content-Length");
		this.outputMode = MODE_NONE;
		this.writer = null;
		this.encoder = null;
		this.output.reopen();
	}

	@Override
	public void sendRedirect(String location, int sc, boolean clearBuffer) throws IOException {
		if (isCommitted()) {
			throw new IllegalStateException("Cannot redirect: the response is already committed");
		}
		if (location == null) {
			throw new IllegalArgumentException("Redirect location must not be null");
		}
		if (clearBuffer) {
			this.output.clearBuffer();
		}
		this.status = sc;
		this.headers.set("Location", resolveLocation(location));
		this.suspended = clearBuffer;
	}

	/**
	 * Makes a redirect location absolute, as {@code sendRedirect} requires of the container
	 * (and as Boot's Tomcat sends it): a path against the server root, a relative reference
	 * against the request URI, a network-path reference with the request's scheme; all with
	 * the request's scheme, host and port.
	 */
	private String resolveLocation(String location) {
		int colon = location.indexOf(':');
		boolean absolute = colon > 0 && colon < firstOf(location, "/?#");
		if (absolute) {
			return location;
		}
		ExchangeRequest request = this.exchange.request();
		if (location.startsWith("//")) {
			return request.getScheme() + ":" + location;
		}
		if (location.startsWith("/")) {
			return ExchangeRequest.requestUrl(request, location).toString();
		}
		try {
			String path = URI.create(request.getRequestURI()).resolve(URI.create(location)).toString();
			return ExchangeRequest.requestUrl(request, path).toString();
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException("Redirect location '" + location
					+ "' cannot be resolved against the request URI", ex);
		}
	}

	private static int firstOf(String text, String characters) {
		int first = text.length();
		for (char c : characters.toCharArray()) {
			int index = text.indexOf(c);
			if (index >= 0 && index < first) {
				first = index;
			}
		}
		return first;
	}

	// ---- status and headers

	@Override
	public void setStatus(int sc) {
		if (!isCommitted() && !this.upgraded) {
			this.status = sc;
		}
	}

	@Override
	public int getStatus() {
		return this.status;
	}

	@Override
	public boolean containsHeader(String name) {
		return switch (name.toLowerCase(Locale.ROOT)) {
			case "content-type" -> this.contentType != null;
			case "content-length" -> this.contentLength >= 0;
			case "set-cookie" -> !this.cookies.isEmpty() || this.headers.contains(name);
			default -> this.headers.contains(name);
		};
	}

	@Override
	public void setHeader(String name, String value) {
		if (name == null || isCommitted()) {
			return;
		}
		if (special(name, value)) {
			return;
		}
		if (value != null) {
			Headers.validate(name, value);
		}
		synchronized (this.headers) {
			if (isCommitted()) {
				return;
			}
			if (value == null) {
				this.headers.remove(name);
			}
			else {
				this.headers.set(name, value);
			}
		}
	}

	@Override
	public void addHeader(String name, String value) {
		if (name == null || value == null || isCommitted()) {
			return;
		}
		if (special(name, value)) {
			return;
		}
		Headers.validate(name, value);
		synchronized (this.headers) {
			if (!isCommitted()) {
				this.headers.add(name, value);
			}
		}
	}

	/** Routes Content-Type and Content-Length to their setters; returns whether it did. */
	private boolean special(String name, String value) {
		if (name.equalsIgnoreCase("Content-Type")) {
			setContentType(value);
			return true;
		}
		if (name.equalsIgnoreCase("Content-Length")) {
			if (value == null) {
				this.contentLength = -1;
			}
			else {
				try {
					setContentLengthLong(Long.parseLong(value.trim()));
				}
				catch (NumberFormatException ex) {
					throw new IllegalArgumentException("Content-Length must be a number, was '" + value + "'");
				}
			}
			return true;
		}
		return false;
	}

	@Override
	public void setIntHeader(String name, int value) {
		setHeader(name, Integer.toString(value));
	}

	@Override
	public void addIntHeader(String name, int value) {
		addHeader(name, Integer.toString(value));
	}

	@Override
	public void setDateHeader(String name, long date) {
		setHeader(name, HttpDates.format(date));
	}

	@Override
	public void addDateHeader(String name, long date) {
		addHeader(name, HttpDates.format(date));
	}

	@Override
	public String getHeader(String name) {
		if (name.equalsIgnoreCase("Content-Type")) {
			return getContentType();
		}
		if (name.equalsIgnoreCase("Content-Length")) {
			return (this.contentLength >= 0) ? Long.toString(this.contentLength) : null;
		}
		return this.headers.get(name);
	}

	@Override
	public Collection<String> getHeaders(String name) {
		String special = name.equalsIgnoreCase("Content-Type") || name.equalsIgnoreCase("Content-Length")
				? getHeader(name) : null;
		if (special != null) {
			return List.of(special);
		}
		List<String> values = new ArrayList<>(this.headers.all(name));
		if (name.equalsIgnoreCase("Set-Cookie")) {
			for (Cookie cookie : this.cookies) {
				values.add(CookieCodec.format(cookie, this.context.sameSite(cookie)));
			}
		}
		return values;
	}

	@Override
	public Collection<String> getHeaderNames() {
		Set<String> names = new LinkedHashSet<>();
		for (int i = 0; i < this.headers.size(); i++) {
			names.add(this.headers.name(i));
		}
		if (this.contentType != null) {
			names.add("Content-Type");
		}
		if (this.contentLength >= 0) {
			names.add("Content-Length");
		}
		if (!this.cookies.isEmpty()) {
			names.add("Set-Cookie");
		}
		return names;
	}

	@Override
	public void addCookie(Cookie cookie) {
		if (!isCommitted()) {
			// refuse a cookie that cannot be written now, while the application can handle it
			CookieCodec.format(cookie, null);
			synchronized (this.headers) {
				if (!isCommitted()) {
					this.cookies.add(cookie);
				}
			}
		}
	}

	/**
	 * Sets the session cookie, replacing one set before in this response.
	 * @param id the session id
	 */
	void sessionCookie(String id) {
		SessionCookieSettings settings = this.context.sessionCookie();
		Cookie cookie = new Cookie(settings.getName(), id);
		for (Map.Entry<String, String> attribute : settings.getAttributes().entrySet()) {
			cookie.setAttribute(attribute.getKey(), attribute.getValue());
		}
		if (cookie.getPath() == null) {
			// behind a trusted proxy's X-Forwarded-Prefix the client's path starts with the prefix
			String prefix = this.exchange.request().core().forwardedPrefix();
			String contextPath = (prefix != null) ? prefix : this.context.getContextPath();
			cookie.setPath(contextPath.isEmpty() ? "/" : contextPath);
		}
		synchronized (this.headers) {
			if (this.sessionCookie != null) {
				this.cookies.remove(this.sessionCookie);
			}
			this.sessionCookie = cookie;
			this.cookies.add(cookie);
		}
	}

	@Override
	public String encodeURL(String url) {
		if (url == null || !this.context.getEffectiveSessionTrackingModes().contains(SessionTrackingMode.URL)) {
			return url;
		}
		ExchangeRequest request = this.exchange.request();
		HttpSession session = request.currentSession();
		if (session == null || request.isRequestedSessionIdFromCookie() || url.contains("://")
				|| url.startsWith("//")) {
			return url;
		}
		int end = firstOf(url, "?#");
		String path = url.substring(0, end);
		if (path.contains(";jsessionid=")) {
			return url;
		}
		return path + ";jsessionid=" + session.getId() + url.substring(end);
	}

	@Override
	public String encodeRedirectURL(String url) {
		return encodeURL(url);
	}

	// ---- content type and encoding

	@Override
	public String getCharacterEncoding() {
		if (this.charset != null) {
			return this.charset;
		}
		String configured = this.context.getResponseCharacterEncoding();
		return (configured != null) ? configured : StandardCharsets.ISO_8859_1.name();
	}

	@Override
	public String getContentType() {
		if (this.contentType == null) {
			return null;
		}
		String encoding = (this.charset != null) ? this.charset
				: (this.outputMode == MODE_WRITER) ? getCharacterEncoding() : null;
		return (encoding != null) ? this.contentType + ";charset=" + encoding : this.contentType;
	}

	@Override
	public void setContentType(String type) {
		if (isCommitted()) {
			return;
		}
		if (type == null) {
			this.contentType = null;
			if (this.outputMode != MODE_WRITER) {
				this.charset = null;
			}
			return;
		}
		String typeCharset = MediaTypes.charset(type);
		this.contentType = MediaTypes.withoutCharset(type);
		if (typeCharset != null && this.outputMode != MODE_WRITER) {
			this.charset = typeCharset;
		}
	}

	@Override
	public void setCharacterEncoding(String encoding) {
		if (isCommitted() || this.outputMode == MODE_WRITER) {
			return;
		}
		this.charset = encoding;
	}

	@Override
	public void setContentLength(int len) {
		setContentLengthLong(len);
	}

	@Override
	public void setContentLengthLong(long len) {
		if (!isCommitted()) {
			this.contentLength = (len < 0) ? -1 : len;
		}
	}

	@Override
	public void setLocale(Locale loc) {
		if (isCommitted() || loc == null) {
			return;
		}
		this.locale = loc;
		if (this.outputMode != MODE_WRITER && this.charset == null) {
			Charset mapped = this.context.charsetFor(loc);
			if (mapped != null) {
				this.charset = mapped.name();
			}
		}
	}

	@Override
	public Locale getLocale() {
		return (this.locale != null) ? this.locale : Locale.getDefault();
	}

	// ---- body

	@Override
	public ServletOutputStream getOutputStream() throws IOException {
		if (this.outputMode == MODE_WRITER) {
			throw new IllegalStateException("getWriter() was already called for this response");
		}
		this.outputMode = MODE_STREAM;
		return this.output;
	}

	@Override
	public PrintWriter getWriter() throws IOException {
		if (this.outputMode == MODE_STREAM) {
			throw new IllegalStateException("getOutputStream() was already called for this response");
		}
		if (this.writer == null) {
			Charset encoding;
			try {
				encoding = Charset.forName(getCharacterEncoding());
			}
			catch (IllegalCharsetNameException | UnsupportedCharsetException ex) {
				throw new java.io.UnsupportedEncodingException("Unsupported response character encoding '"
						+ getCharacterEncoding() + "'");
			}
			this.outputMode = MODE_WRITER;
			this.encoder = new ResponseWriter(this.output, encoding);
			this.writer = new PrintWriter(this.encoder, false);
		}
		return this.writer;
	}

	@Override
	public void setBufferSize(int size) {
		this.output.bufferSize(size);
	}

	@Override
	public int getBufferSize() {
		return this.output.bufferSize();
	}

	@Override
	public void flushBuffer() throws IOException {
		if (this.writer != null) {
			this.writer.flush();
		}
		else {
			this.output.flush();
		}
	}

	@Override
	public void resetBuffer() {
		if (this.headCommitted) {
			throw new IllegalStateException("Cannot reset the buffer: the response is already committed");
		}
		this.output.clearBuffer();
	}

	@Override
	public void setTrailerFields(Supplier<Map<String, String>> supplier) {
		if (isCommitted()) {
			throw new IllegalStateException("Cannot set trailer fields: the response is already committed");
		}
		if (this.exchange.request().core().version() == Version.HTTP_1_0) {
			throw new IllegalStateException("Cannot set trailer fields: an HTTP/1.0 response cannot carry them");
		}
		this.trailerFields = supplier;
	}

	@Override
	public Supplier<Map<String, String>> getTrailerFields() {
		return this.trailerFields;
	}

	@Override
	public boolean isCommitted() {
		return this.headCommitted || this.suspended;
	}

	@Override
	public void reset() {
		if (this.headCommitted) {
			throw new IllegalStateException("Cannot reset: the response is already committed");
		}
		this.headers.clear();
		this.cookies.clear();
		if (this.sessionCookie != null) {
			// a session created by this request still needs its cookie
			this.cookies.add(this.sessionCookie);
		}
		this.status = SC_OK;
		this.contentType = null;
		this.charset = null;
		this.locale = null;
		this.contentLength = -1;
		this.trailerFields = null;
		this.outputMode = MODE_NONE;
		this.writer = null;
		this.encoder = null;
		this.errorPending = false;
		this.suspended = false;
		this.output.reopen();
	}

	@Override
	public String toString() {
		return "Response[" + this.status + "]";
	}

}
