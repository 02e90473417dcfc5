package dev.ariadne.http;

import java.util.Objects;

/**
 * The request line and header section of one request, as parsed, with the framing facts the
 * parser derived from them.
 *
 * <p>Built by {@link RequestParser} and handed to its {@link RequestSink}, or by another codec
 * (HTTP/2) through {@link #of}; a new instance per request, so it may be kept after the codec has
 * moved on to the next request.
 */
public final class RequestHead {

	/** How the request target was written (RFC 9112 §3.2). */
	public enum TargetForm {

		/** {@code /path?query}. */
		ORIGIN,

		/** {@code http://host/path?query}. */
		ABSOLUTE,

		/** {@code *}, only with {@code OPTIONS}. */
		ASTERISK,

		/** {@code host:port}, only with {@code CONNECT}. */
		AUTHORITY

	}

	private final Method method;

	private final String target;

	private final TargetForm targetForm;

	private final String pathAndQuery;

	private final Version version;

	private final Headers headers;

	long contentLength = -1;

	boolean chunked;

	boolean closeRequested;

	boolean keepAliveRequested;

	boolean expectContinue;

	Headers trailers;

	RequestHead(Method method, String target, TargetForm targetForm, String pathAndQuery, Version version,
			Headers headers) {
		this.method = method;
		this.target = target;
		this.targetForm = targetForm;
		this.pathAndQuery = pathAndQuery;
		this.version = version;
		this.headers = headers;
	}

	/**
	 * Makes the head of a request that did not come as a request line, for a codec other than
	 * {@link RequestParser} (HTTP/2, which has already checked its fields). The target is checked
	 * as a request line's is: its characters, and that it has the form given ({@code /...} for
	 * origin-form, {@code *} only with {@code OPTIONS}, {@code host:port} only with
	 * {@code CONNECT}, {@code http(s)://host...} without userinfo); unlike a request line,
	 * {@code CONNECT} may come with an origin-form target, as extended {@code CONNECT} (RFC 8441)
	 * does. {@link #expectContinue()} follows from an {@code Expect: 100-continue} field in
	 * {@code headers}; any other expectation is the caller's to refuse.
	 * @param method the method
	 * @param target the target as received
	 * @param form the form of the target
	 * @param version the version
	 * @param headers the header fields, kept (not copied)
	 * @param contentLength the declared body length, or -1 when none was declared
	 * @param bodyFollows whether a body follows the head; without a declared length it then ends
	 * with the message (HTTP/2: the stream), and {@link #chunked()} reports {@code true}
	 * @return the head
	 * @throws HttpParseException 400 when the target has an invalid character or is not of that form
	 * @throws IllegalArgumentException if {@code contentLength} is below -1, or above 0 while no body
	 * follows
	 */
	public static RequestHead of(Method method, String target, TargetForm form, Version version, Headers headers,
			long contentLength, boolean bodyFollows) throws HttpParseException {
		Objects.requireNonNull(method, "method");
		Objects.requireNonNull(target, "target");
		Objects.requireNonNull(form, "form");
		Objects.requireNonNull(version, "version");
		Objects.requireNonNull(headers, "headers");
		if (contentLength < -1 || (!bodyFollows && contentLength > 0)) {
			throw new IllegalArgumentException("Content length " + contentLength + " with"
					+ (bodyFollows ? "" : "out") + " a body");
		}
		RequestHead head = RequestTarget.head(method, target, form, version, headers);
		head.contentLength = contentLength;
		head.chunked = bodyFollows && contentLength < 0;
		// RFC 9110 §10.1.1: HTTP/1.0 cannot receive a 1xx response
		head.expectContinue = version != Version.HTTP_1_0
				&& "100-continue".equalsIgnoreCase(headers.get(HeaderName.EXPECT));
		return head;
	}

	/**
	 * Returns the request method.
	 * @return the method
	 */
	public Method method() {
		return this.method;
	}

	/**
	 * Returns the request target exactly as sent.
	 * @return the raw target
	 */
	public String target() {
		return this.target;
	}

	/**
	 * Returns the form the target was written in.
	 * @return the target form
	 */
	public TargetForm targetForm() {
		return this.targetForm;
	}

	/**
	 * Returns the path and query of the target: the target itself in origin-form, the part
	 * after the authority in absolute-form ({@code /} when empty), {@code *} or the authority
	 * for the other two forms.
	 * @return the path and query, still percent-encoded
	 */
	public String pathAndQuery() {
		return this.pathAndQuery;
	}

	/**
	 * Returns the protocol version.
	 * @return the version
	 */
	public Version version() {
		return this.version;
	}

	/**
	 * Returns the header fields.
	 * @return the headers, in arrival order
	 */
	public Headers headers() {
		return this.headers;
	}

	/**
	 * Returns the declared body length.
	 * @return the {@code Content-Length}, or -1 when absent
	 */
	public long contentLength() {
		return this.contentLength;
	}

	/**
	 * Returns whether the body has no declared length: framed by the chunked transfer coding in
	 * HTTP/1.1, or in HTTP/2 carried by {@code DATA} frames up to the end of the stream without a
	 * {@code content-length}.
	 * @return whether chunked, or of undeclared length
	 */
	public boolean chunked() {
		return this.chunked;
	}

	/**
	 * Returns whether the request has a body at all (declared with a non-zero length, or
	 * chunked).
	 * @return whether a body follows the head
	 */
	public boolean hasBody() {
		return this.chunked || this.contentLength > 0;
	}

	/**
	 * Returns whether the client asked for the connection to persist after this exchange:
	 * HTTP/1.1 unless it sent {@code Connection: close}; HTTP/1.0 only with
	 * {@code Connection: keep-alive}; HTTP/2 always (it has no {@code Connection} field, and ends a
	 * connection with {@code GOAWAY}).
	 * @return whether the client wants the connection kept
	 */
	public boolean keepAlive() {
		if (this.closeRequested) {
			return false;
		}
		return this.version != Version.HTTP_1_0 || this.keepAliveRequested;
	}

	/**
	 * Returns whether the client sent {@code Expect: 100-continue} and waits for a
	 * {@code 100 Continue} before sending the body. Always {@code false} for HTTP/1.0, where the
	 * expectation is ignored (RFC 9110 §10.1.1).
	 * @return whether an interim response is expected
	 */
	public boolean expectContinue() {
		return this.expectContinue;
	}

	/**
	 * Returns the trailer fields of a chunked body, available once the message is complete.
	 * @return the trailers, empty when there were none
	 */
	public Headers trailers() {
		return (this.trailers != null) ? this.trailers : EMPTY;
	}

	/**
	 * Sets the trailer fields, for a codec other than {@link RequestParser} (which sets them
	 * itself): once the trailer section has been read and before the end of the body is reported,
	 * so that whoever sees the end of the body sees them too.
	 * @param trailers the trailer fields, kept (not copied)
	 */
	public void trailers(Headers trailers) {
		this.trailers = Objects.requireNonNull(trailers, "trailers");
	}

	private static final Headers EMPTY = new Headers(0);

	@Override
	public String toString() {
		return this.method + " " + this.target + " " + this.version;
	}

}
