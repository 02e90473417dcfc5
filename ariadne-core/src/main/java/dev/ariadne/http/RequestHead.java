package dev.ariadne.http;

/**
 * The request line and header section of one request, as parsed, with the framing facts the
 * parser derived from them.
 *
 * <p>Built by {@link RequestParser} and handed to its {@link RequestSink}; a new instance per
 * request, so it may be kept after the parser has moved on to the next pipelined request.
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
	 * Returns whether the body is framed by the chunked transfer coding.
	 * @return whether chunked
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
	 * {@code Connection: keep-alive}.
	 * @return whether the client wants the connection kept
	 */
	public boolean keepAlive() {
		if (this.closeRequested) {
			return false;
		}
		return this.version == Version.HTTP_1_1 || this.keepAliveRequested;
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

	private static final Headers EMPTY = new Headers(0);

	@Override
	public String toString() {
		return this.method + " " + this.target + " " + this.version;
	}

}
