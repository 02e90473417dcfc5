package dev.ariadne.server;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;

import javax.net.ssl.SSLSession;

import dev.ariadne.http.Headers;
import dev.ariadne.http.Method;
import dev.ariadne.http.Version;

/**
 * A request as a handler sees it. Valid only while its handler runs, and only on that thread,
 * unless the handler suspends the exchange ({@link Response#suspend()}): then until the
 * exchange ends, on one thread at a time.
 */
public interface Request {

	/**
	 * Returns the request method.
	 * @return the method
	 */
	Method method();

	/**
	 * Returns the request target exactly as sent (origin-, absolute-, asterisk- or
	 * authority-form).
	 * @return the raw target
	 */
	String target();

	/**
	 * Returns the decoded path of the target, without the query.
	 * @return the path, for example {@code /api/user/42}
	 */
	String path();

	/**
	 * Returns the raw query string.
	 * @return the query without its {@code ?}, or {@code null} when there is none
	 */
	String query();

	/**
	 * Returns the first value of a query parameter, decoded.
	 * @param name the parameter name
	 * @return the value, or {@code null} when absent
	 */
	String queryParam(String name);

	/**
	 * Returns every query parameter, decoded, in order.
	 * @return the parameters by name
	 */
	Map<String, List<String>> queryParams();

	/**
	 * Returns the value a path variable of the route template matched.
	 * @param name the variable name, as in {@code /api/user/{id}}
	 * @return the decoded value, or {@code null} when the template has no such variable
	 */
	String pathVariable(String name);

	/**
	 * Returns every path variable of the matched route template.
	 * @return the variables by name
	 */
	Map<String, String> pathVariables();

	/**
	 * Returns the template of the route that matched, for example {@code /api/user/{id}}.
	 * @return the route template
	 */
	String route();

	/**
	 * Replaces the route value reported for this exchange (the {@code route} of its
	 * {@link dev.ariadne.server.stats.RequestEvent}), for a handler that routes requests itself,
	 * such as the router's fallback handler. The value must come from a bounded set (a template
	 * or a pattern, never the raw path), since it becomes a metrics tag.
	 * @param route the route value, for example {@code /api/user/{id}}
	 */
	default void route(String route) {
	}

	/**
	 * Returns the protocol version.
	 * @return the version
	 */
	Version version();

	/**
	 * Returns the protocol of the connection the request came over, as ALPN names it:
	 * {@code http/1.0}, {@code http/1.1}, {@code h2} (HTTP/2 over TLS) or {@code h2c}.
	 * @return the protocol id
	 */
	default String protocol() {
		return (version() == Version.HTTP_1_0) ? "http/1.0" : (version() == Version.HTTP_2) ? "h2c" : "http/1.1";
	}

	/**
	 * Returns what tells the request apart from the others of its connection: the stream id in
	 * HTTP/2, nothing in HTTP/1.1, whose connection carries one request at a time.
	 * @return the id, or the empty string
	 */
	default String protocolRequestId() {
		return "";
	}

	/**
	 * Returns the header fields.
	 * @return the headers
	 */
	Headers headers();

	/**
	 * Returns the first value of a header field.
	 * @param name the field name, in any case
	 * @return the value, or {@code null} when absent
	 */
	String header(String name);

	/**
	 * Returns the body as a stream, with transfer coding removed. Reading it for the first time
	 * sends {@code 100 Continue} when the client asked for it. The stream ends at the end of
	 * the body; closing it is optional.
	 * @return the body stream, empty when there is no body
	 */
	InputStream body();

	/**
	 * Reads the whole body, at most {@code request.max-body-size} bytes. The bytes count in the
	 * server's buffer budget ({@code buffers.budget}) until the exchange ends: when they do
	 * not fit, this waits up to {@code request.header-timeout} for other exchanges to give
	 * theirs back, then fails with a 503 ({@code Retry-After}) for the client; a body larger
	 * than three quarters of the budget fails with a 413. Prefer {@link #body()}, which costs
	 * no more than the connection's input buffer.
	 * @return the body bytes
	 * @throws IOException if the connection fails while reading, or the body does not fit the
	 * budget (it becomes the client's 503 or 413 if the handler lets it escape before its
	 * response is committed)
	 */
	byte[] bodyBytes() throws IOException;

	/**
	 * Reads the whole body as {@link #bodyBytes()} does, if it has at most {@code max} bytes: for
	 * a handler with a limit of its own below {@code request.max-body-size}, such as a form
	 * parser. A body that declares more fails before anything is read or taken from the budget;
	 * a chunked body fails as soon as more than {@code max} bytes arrived, holding no more than
	 * {@code max} of them. The bytes count in the buffer budget until the exchange ends, with the
	 * same wait, 503 and 413 as {@link #bodyBytes()}.
	 *
	 * <p>Blocks while the body arrives and while it waits for the budget: call it on the thread
	 * that runs the handler (or a task of its suspended exchange), never on one that must not
	 * wait, such as a selector.
	 * @param max the most bytes the body may have
	 * @return the body bytes, at most {@code max} of them
	 * @throws IOException if the connection fails while reading; if the body is longer than
	 * {@code max} (it becomes the client's 413 if the handler lets it escape before its response
	 * is committed); or if it does not fit the budget (503 or 413, as for {@link #bodyBytes()})
	 * @throws IllegalArgumentException if {@code max} is negative
	 */
	byte[] bodyBytes(long max) throws IOException;

	/**
	 * Counts memory the handler holds for this exchange in the server's buffer budget
	 * ({@code buffers.budget}) until the exchange ends, as a body read whole is counted: for what
	 * a handler builds from the request in proportion to what the client sent (parsed
	 * parameters, parts of a multipart body held in memory), so that a flood of such requests
	 * waits for memory or is refused rather than running the heap out. Nothing is given back
	 * before the exchange ends.
	 *
	 * <p>When the bytes do not fit, this waits up to {@code request.header-timeout} for other
	 * exchanges to give theirs back, then fails with a 503 ({@code Retry-After}) for the client;
	 * when this exchange would hold more than three quarters of the budget, it fails with a 413
	 * at once. Blocks while it waits: call it on the thread that runs the handler (or a task of
	 * its suspended exchange), never on one that must not wait, such as a selector.
	 * @param bytes how many bytes
	 * @throws IOException if the bytes do not fit the budget (it becomes the client's 503 or 413
	 * if the handler lets it escape before its response is committed)
	 * @throws IllegalArgumentException if {@code bytes} is negative
	 */
	void reserveMemory(long bytes) throws IOException;

	/**
	 * Returns the trailer fields of a chunked body, once the body has been read.
	 * @return the trailers, empty when there are none
	 */
	Headers trailers();

	/**
	 * Returns the client's address.
	 * @return the remote address
	 */
	InetSocketAddress remoteAddress();

	/**
	 * Returns the server's address for this connection.
	 * @return the local address
	 */
	InetSocketAddress localAddress();

	/**
	 * Returns the path under which a trusted proxy serves the application, from its
	 * {@code X-Forwarded-Prefix} when forwarded headers are on: the path the client used is this
	 * prefix followed by the application's own path, so links and redirects the client follows
	 * start with it. {@link #path()} and routing are not changed by it. Normalized: it starts
	 * with {@code /} and does not end with one, and holds no dot segment.
	 * @return the prefix, {@code ""} when the proxy serves the application at its root, or
	 * {@code null} when no trusted proxy gave one (or gave one that is not a safe path)
	 */
	default String forwardedPrefix() {
		return null;
	}

	/**
	 * Returns whether the request came over TLS: its scheme is {@code https}.
	 * @return whether the connection is encrypted
	 */
	default boolean secure() {
		return tlsSession() != null;
	}

	/**
	 * Returns the TLS session of the connection the request came over: its protocol version,
	 * cipher suite, and the client's certificates when it presented any.
	 * @return the session, or {@code null} for a plaintext connection
	 */
	default SSLSession tlsSession() {
		return null;
	}

}
