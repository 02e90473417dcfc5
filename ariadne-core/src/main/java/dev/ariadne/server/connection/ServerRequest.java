package dev.ariadne.server.connection;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

import javax.net.ssl.SSLSession;

import dev.ariadne.http.Headers;
import dev.ariadne.http.Method;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.Version;
import dev.ariadne.server.Request;
import dev.ariadne.server.routing.PathSegments;
import dev.ariadne.server.routing.RouteMatch;

/**
 * The {@link Request} of one exchange: the parsed head, the route match and the body. Query
 * parameters and the decoded path are computed only when asked for.
 */
final class ServerRequest implements Request {

	private final RequestHead head;

	private final RequestBody body;

	private final String rawPath;

	private final String query;

	private final InetSocketAddress remote;

	private final InetSocketAddress local;

	private final long maxBodySize;

	private RouteMatch match;

	private SSLSession tlsSession;

	private String reportedRoute;

	private String path;

	private Map<String, List<String>> queryParams;

	ServerRequest(RequestHead head, RequestBody body, InetSocketAddress remote, InetSocketAddress local,
			long maxBodySize) {
		this.head = head;
		this.body = body;
		String pathAndQuery = head.pathAndQuery();
		int question = pathAndQuery.indexOf('?');
		this.rawPath = rawPath(head);
		this.query = (question < 0) ? null : pathAndQuery.substring(question + 1);
		this.remote = remote;
		this.local = local;
		this.maxBodySize = maxBodySize;
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
		ByteArrayOutputStream bytes = new ByteArrayOutputStream(
				(int) Math.min(Math.max(this.head.contentLength(), 256), this.maxBodySize));
		this.body.transferTo(bytes);
		return bytes.toByteArray();
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
