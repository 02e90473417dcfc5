package dev.ariadne.server.routing;

import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

import dev.ariadne.http.Headers;
import dev.ariadne.http.Method;
import dev.ariadne.http.Version;
import dev.ariadne.server.Request;

/**
 * A bodiless request for running a matched handler in a unit test: method and path, plus the
 * route and variables of the match. Whatever a routing test has no use for fails loudly.
 */
final class StubRequest implements Request {

	private final Method method;

	private final String path;

	private final RouteMatch match;

	private final Headers headers = new Headers();

	StubRequest(Method method, String path, RouteMatch match) {
		this.method = method;
		this.path = path;
		this.match = match;
	}

	@Override
	public Method method() {
		return this.method;
	}

	@Override
	public String target() {
		return this.path;
	}

	@Override
	public String path() {
		return this.path;
	}

	@Override
	public String query() {
		return null;
	}

	@Override
	public String queryParam(String name) {
		return null;
	}

	@Override
	public Map<String, List<String>> queryParams() {
		return Map.of();
	}

	@Override
	public String pathVariable(String name) {
		return this.match.variables().get(name);
	}

	@Override
	public Map<String, String> pathVariables() {
		return this.match.variables();
	}

	@Override
	public String route() {
		return this.match.route();
	}

	@Override
	public Version version() {
		return Version.HTTP_1_1;
	}

	@Override
	public Headers headers() {
		return this.headers;
	}

	@Override
	public String header(String name) {
		return this.headers.get(name);
	}

	@Override
	public InputStream body() {
		return InputStream.nullInputStream();
	}

	@Override
	public byte[] bodyBytes() {
		return new byte[0];
	}

	@Override
	public byte[] bodyBytes(long max) {
		return new byte[0];
	}

	@Override
	public void reserveMemory(long bytes) {
	}

	@Override
	public Headers trailers() {
		return new Headers();
	}

	@Override
	public InetSocketAddress remoteAddress() {
		throw new UnsupportedOperationException("remoteAddress");
	}

	@Override
	public InetSocketAddress localAddress() {
		throw new UnsupportedOperationException("localAddress");
	}

}
