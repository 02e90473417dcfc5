package dev.ariadne.server.connection;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import javax.net.ssl.SSLSession;

import dev.ariadne.http.Headers;
import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.Method;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.Status;
import dev.ariadne.http.Version;
import dev.ariadne.server.Request;
import dev.ariadne.server.internal.BufferBudget;
import dev.ariadne.server.routing.PathSegments;
import dev.ariadne.server.routing.RouteMatch;

/**
 * The {@link Request} of one exchange: the parsed head, the route match and the body. Query
 * parameters and the decoded path are computed only when asked for. A body read whole
 * ({@link #bodyBytes()}) and memory a handler reserves ({@link #reserveMemory}) count in the
 * server's {@link BufferBudget} until the exchange ends.
 */
final class ServerRequest implements Request {

	private final RequestHead head;

	private final RequestBody body;

	private final String rawPath;

	private final String query;

	private InetSocketAddress remote;

	private final InetSocketAddress local;

	/** Most bytes of a chunked body's array before it grows: the array is sized to the body. */
	private static final int INITIAL_CHUNKED_ARRAY = 16 * 1024;

	private final BufferBudget budget;

	private final long budgetWaitNanos;

	/** Bytes of {@link #budget} this request holds for bodies read whole and reserved memory. */
	private long reserved;

	private RouteMatch match;

	private SSLSession tlsSession;

	/** The protocol id of a multiplexed request (HTTP/2), or {@code null}. */
	private String protocol;

	private int streamId;

	private String reportedRoute;

	private String path;

	private Map<String, List<String>> queryParams;

	/** Whether a trusted proxy said the client used {@code https}; {@code null} if it did not say. */
	private Boolean forwardedSecure;

	/** The path prefix a trusted proxy serves the application under; {@code null} if none. */
	private String forwardedPrefix;

	ServerRequest(RequestHead head, RequestBody body, InetSocketAddress remote, InetSocketAddress local,
			BufferBudget budget, long budgetWaitNanos) {
		this.head = head;
		this.body = body;
		String pathAndQuery = head.pathAndQuery();
		int question = pathAndQuery.indexOf('?');
		this.rawPath = rawPath(head);
		this.query = (question < 0) ? null : pathAndQuery.substring(question + 1);
		this.remote = remote;
		this.local = local;
		this.budget = budget;
		this.budgetWaitNanos = budgetWaitNanos;
	}

	/** The path of a request's target, still percent-encoded, without the query. */
	static String rawPath(RequestHead head) {
		String pathAndQuery = head.pathAndQuery();
		int question = pathAndQuery.indexOf('?');
		return (question < 0) ? pathAndQuery : pathAndQuery.substring(0, question);
	}

	void match(RouteMatch match) {
		this.match = match;
	}

	/**
	 * Takes what a trusted proxy said of the client ({@link Forwarding}).
	 * @param client the client's address
	 * @param secure whether the client used {@code https}, or {@code null} when not said
	 */
	void forwarded(InetSocketAddress client, Boolean secure) {
		this.remote = client;
		this.forwardedSecure = secure;
	}

	@Override
	public boolean secure() {
		return (this.forwardedSecure != null) ? this.forwardedSecure : this.tlsSession != null;
	}

	/**
	 * Takes the path prefix a trusted proxy serves the application under ({@link Forwarding}).
	 * @param prefix the normalized prefix, {@code ""} for the root, or {@code null}
	 */
	void forwardedPrefix(String prefix) {
		this.forwardedPrefix = prefix;
	}

	@Override
	public String forwardedPrefix() {
		return this.forwardedPrefix;
	}

	void stream(String protocol, int streamId) {
		this.protocol = protocol;
		this.streamId = streamId;
	}

	@Override
	public String protocol() {
		return (this.protocol != null) ? this.protocol : Request.super.protocol();
	}

	@Override
	public String protocolRequestId() {
		return (this.streamId > 0) ? Integer.toString(this.streamId) : "";
	}

	void tlsSession(SSLSession session) {
		this.tlsSession = session;
	}

	@Override
	public Method method() {
		return this.head.method();
	}

	@Override
	public String target() {
		return this.head.target();
	}

	@Override
	public String path() {
		if (this.path == null) {
			try {
				this.path = PathSegments.decode(this.rawPath, false);
			}
			catch (IllegalArgumentException ex) {
				this.path = this.rawPath;
			}
		}
		return this.path;
	}

	@Override
	public String query() {
		return this.query;
	}

	@Override
	public String queryParam(String name) {
		List<String> values = queryParams().get(name);
		return (values != null && !values.isEmpty()) ? values.get(0) : null;
	}

	@Override
	public Map<String, List<String>> queryParams() {
		if (this.queryParams == null) {
			this.queryParams = parseQuery(this.query);
		}
		return this.queryParams;
	}

	private static Map<String, List<String>> parseQuery(String query) {
		if (query == null || query.isEmpty()) {
			return Collections.emptyMap();
		}
		Map<String, List<String>> params = new LinkedHashMap<>();
		for (String pair : query.split("&")) {
			if (pair.isEmpty()) {
				continue;
			}
			int equals = pair.indexOf('=');
			String name = (equals < 0) ? pair : pair.substring(0, equals);
			String value = (equals < 0) ? "" : pair.substring(equals + 1);
			try {
				params.computeIfAbsent(PathSegments.decode(name, true), (key) -> new ArrayList<>(1))
					.add(PathSegments.decode(value, true));
			}
			catch (IllegalArgumentException ex) {
				// a malformed escape leaves that parameter out rather than failing the request
			}
		}
		return Collections.unmodifiableMap(params);
	}

	@Override
	public String pathVariable(String name) {
		return pathVariables().get(name);
	}

	@Override
	public Map<String, String> pathVariables() {
		return (this.match != null) ? Collections.unmodifiableMap(this.match.variables()) : Collections.emptyMap();
	}

	@Override
	public String route() {
		if (this.reportedRoute != null) {
			return this.reportedRoute;
		}
		return (this.match != null) ? this.match.route() : null;
	}

	@Override
	public void route(String route) {
		this.reportedRoute = Objects.requireNonNull(route, "route");
	}

	@Override
	public Version version() {
		return this.head.version();
	}

	@Override
	public Headers headers() {
		return this.head.headers();
	}

	@Override
	public String header(String name) {
		return this.head.headers().get(name);
	}

	@Override
	public InputStream body() {
		return this.body;
	}

	@Override
	public byte[] bodyBytes() throws IOException {
		return readWhole(Long.MAX_VALUE);
	}

	@Override
	public byte[] bodyBytes(long max) throws IOException {
		if (max < 0) {
			throw new IllegalArgumentException("The most bytes of a body must not be negative, was " + max);
		}
		return readWhole(max);
	}

	private byte[] readWhole(long max) throws IOException {
		if (!this.head.hasBody()) {
			return new byte[0];
		}
		if (!this.head.chunked()) {
			long declared = this.head.contentLength();
			if (declared > max) {
				throw longerThan(max);
			}
			take(declared);
			byte[] bytes = new byte[(int) declared];
			int length = fill(bytes, 0);
			// shorter when part of the body was read before
			return (length == bytes.length) ? bytes : shrink(bytes, length);
		}
		long most = Math.min(max, Integer.MAX_VALUE - 8);
		int initial = (int) Math.min(INITIAL_CHUNKED_ARRAY, most);
		take(initial);
		byte[] bytes = new byte[initial];
		int length = 0;
		while (true) {
			length = fill(bytes, length);
			if (length < bytes.length) {
				return shrink(bytes, length);
			}
			if (length >= most) {
				// as many bytes as allowed: the body must end here
				if (this.body.read() < 0) {
					return bytes;
				}
				throw longerThan(max);
			}
			long grown = Math.min((long) bytes.length * 2, most);
			take(grown);
			bytes = Arrays.copyOf(bytes, (int) grown);
			release(length);
		}
	}

	private static IOException longerThan(long max) {
		return RequestBody.badBody(new HttpParseException(Status.CONTENT_TOO_LARGE_413,
				"Request body is larger than the " + max + " bytes allowed here"));
	}

	@Override
	public void reserveMemory(long bytes) throws IOException {
		if (bytes < 0) {
			throw new IllegalArgumentException("Bytes to reserve must not be negative, was " + bytes);
		}
		if (bytes == 0) {
			return;
		}
		if (this.reserved + bytes > this.budget.bulkLimit()) {
			throw RequestBody.badBody(new HttpParseException(Status.CONTENT_TOO_LARGE_413,
					"The request needs more memory than the server holds for one exchange"));
		}
		reserve(bytes, "No memory free for the request; try again later");
	}

	/** Reads into the array from an offset until it is full or the body ends; returns the end. */
	private int fill(byte[] bytes, int offset) throws IOException {
		int length = offset;
		while (length < bytes.length) {
			int n = this.body.read(bytes, length, bytes.length - length);
			if (n < 0) {
				break;
			}
			length += n;
		}
		return length;
	}

	private byte[] shrink(byte[] bytes, int length) throws IOException {
		take(length);
		byte[] exact = Arrays.copyOf(bytes, length);
		release(bytes.length);
		return exact;
	}

	/**
	 * Takes bytes of the budget for a body read whole, waiting at most the header timeout for
	 * other exchanges to give theirs back.
	 */
	private void take(long bytes) throws IOException {
		if (bytes > this.budget.bulkLimit() || bytes > Integer.MAX_VALUE - 8) {
			throw RequestBody.badBody(new HttpParseException(Status.CONTENT_TOO_LARGE_413,
					"Request body of " + bytes + " bytes is larger than the server holds for a handler"));
		}
		reserve(bytes, "No memory free for the request body; try again later");
	}

	private void reserve(long bytes, String refusal) throws IOException {
		try {
			if (!this.budget.reserve(bytes, this.budgetWaitNanos)) {
				throw RequestBody.badBody(new HttpParseException(Status.SERVICE_UNAVAILABLE_503, refusal));
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IOException("Interrupted while waiting for buffer memory", ex);
		}
		this.reserved += bytes;
	}

	private void release(long bytes) {
		this.budget.release(bytes);
		this.reserved -= bytes;
	}

	/**
	 * Gives back what bodies read whole and reserved memory held of the budget: the exchange is
	 * over.
	 */
	void releaseBodies() {
		this.budget.release(this.reserved);
		this.reserved = 0;
	}

	@Override
	public Headers trailers() {
		return this.body.trailers();
	}

	@Override
	public InetSocketAddress remoteAddress() {
		return this.remote;
	}

	@Override
	public InetSocketAddress localAddress() {
		return this.local;
	}

	@Override
	public SSLSession tlsSession() {
		return this.tlsSession;
	}

	@Override
	public String toString() {
		return this.head.toString();
	}

}
