package dev.ariadne.http2;

import dev.ariadne.http.Headers;
import dev.ariadne.http.HttpParseException;
import dev.ariadne.http.Method;
import dev.ariadne.http.ParserLimits;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.Version;

/**
 * Collects the fields of one request header block, or of one trailer block, as the HPACK decoder
 * reports them, and once the block is done checks them against RFC 9113 §8.1 to §8.3 and §8.5
 * and makes the request's {@link RequestHead} ({@link #head}) or its trailer fields
 * ({@link #trailers}).
 *
 * <p>Usage: pass the instance to the decoder for a block, then call {@link #head} for the block
 * that opens a stream or {@link #trailers} for the one that ends it. Either call leaves the
 * instance ready for the next block, so one instance serves every block of a connection; it
 * keeps no buffer between blocks but a {@code StringBuilder} for joining cookies. Not
 * thread-safe: it belongs to the connection's codec.
 *
 * <p>Every violation makes the request malformed (§8.1.1): {@link #head} and {@link #trailers}
 * throw a stream error {@link ErrorCode#PROTOCOL_ERROR} whose reason names the rule and never
 * holds what the peer sent. The first violation in the block is the one reported; the fields
 * after it are not looked at. More regular fields than {@link ParserLimits#maxHeaderCount()} is
 * reported the same way, with its own reason, and {@link #tooLarge()} then returns {@code true}
 * so that the caller may answer {@code 431} on the stream instead of resetting it (RFC 9113
 * §10.5.1). The size of a block is bounded by the HPACK decoder, not here.
 *
 * <p>Names are kept as received, lower case, in the head's {@link Headers} (whose lookups ignore
 * case). Several {@code cookie} fields become one, joined with {@code "; "} (§8.2.3), after the
 * other fields. When there is no {@code host} field, one is added from {@code :authority}, since
 * the code above the codec reads {@code Host}.
 */
public final class RequestFields implements HeaderListener {

	private static final String UNKNOWN_PSEUDO = "Unknown pseudo-header field (RFC 9113 §8.3)";

	private final int maxFieldCount;

	private final boolean extendedConnect;

	private final StringBuilder cookies = new StringBuilder();

	// ---- the block being collected

	private String method;

	private String scheme;

	private String authority;

	private String path;

	private String protocol;

	private int pseudoCount;

	private boolean regularSeen;

	private int fieldCount;

	private Headers headers;

	private long contentLength;

	private String host;

	private int hostCount;

	private String firstCookie;

	private int cookieCount;

	/** The first violation found in the block, or {@code null}. */
	private String failure;

	private boolean failureTooLarge;

	// ---- the outcome of the last block

	private boolean tooLarge;

	private String lastProtocol;

	/**
	 * Creates the collector of one connection.
	 * @param limits the limits; {@link ParserLimits#maxHeaderCount()} bounds the regular fields of
	 * a block, each {@code cookie} field counting as one
	 * @param extendedConnect whether {@code SETTINGS_ENABLE_CONNECT_PROTOCOL} was sent, which allows
	 * {@code :protocol} (RFC 8441)
	 */
	public RequestFields(ParserLimits limits, boolean extendedConnect) {
		this.maxFieldCount = limits.maxHeaderCount();
		this.extendedConnect = extendedConnect;
		reset();
	}

	/**
	 * Forgets the block collected so far; {@link #head} and {@link #trailers} do this themselves.
	 */
	public void reset() {
		this.method = null;
		this.scheme = null;
		this.authority = null;
		this.path = null;
		this.protocol = null;
		this.pseudoCount = 0;
		this.regularSeen = false;
		this.fieldCount = 0;
		this.headers = null;
		this.contentLength = -1;
		this.host = null;
		this.hostCount = 0;
		this.firstCookie = null;
		this.cookieCount = 0;
		this.failure = null;
		this.failureTooLarge = false;
		if (this.cookies.capacity() > 1024) {
			this.cookies.setLength(0);
			this.cookies.trimToSize();
		}
	}

	@Override
	public void field(String name, String value) {
		if (this.failure != null) {
			return;
		}
		if (name.isEmpty()) {
			fail("Empty field name (RFC 9113 §8.2.1)");
		}
		else if (name.charAt(0) == ':') {
			pseudo(name, value);
		}
		else {
			regular(name, value);
		}
	}

	private void pseudo(String name, String value) {
		if (this.regularSeen) {
			fail("Pseudo-header field after a regular field (RFC 9113 §8.3)");
			return;
		}
		this.pseudoCount++;
		switch (name) {
			case ":method" -> this.method = once(this.method, value);
			case ":scheme" -> this.scheme = once(this.scheme, value);
			case ":authority" -> this.authority = once(this.authority, value);
			case ":path" -> this.path = once(this.path, value);
			case ":protocol" -> {
				if (this.extendedConnect) {
					this.protocol = once(this.protocol, value);
				}
				else {
					fail(UNKNOWN_PSEUDO);
				}
			}
			case ":status" -> fail("Response pseudo-header field in a request (RFC 9113 §8.3.2)");
			default -> fail(UNKNOWN_PSEUDO);
		}
		if (this.failure == null) {
			checkValue(value);
		}
	}

	private String once(String previous, String value) {
		if (previous != null) {
			fail("Repeated pseudo-header field (RFC 9113 §8.3)");
		}
		return value;
	}

	private void regular(String name, String value) {
		this.regularSeen = true;
		if (++this.fieldCount > this.maxFieldCount) {
			fail("More than " + this.maxFieldCount + " header fields");
			this.failureTooLarge = true;
			return;
		}
		if (!checkName(name) || !checkValue(value)) {
			return;
		}
		if (FieldRules.isConnectionSpecific(name)) {
			fail("Connection-specific field (RFC 9113 §8.2.2)");
			return;
		}
		switch (name) {
			case "te" -> {
				if (!value.equalsIgnoreCase("trailers")) {
					fail("te with a value other than trailers (RFC 9113 §8.2.2)");
					return;
				}
			}
			case "content-length" -> contentLength(value);
			case "host" -> {
				this.host = value;
				this.hostCount++;
			}
			case "cookie" -> {
				cookie(value);
				return;
			}
			default -> {
			}
		}
		if (this.headers == null) {
			this.headers = new Headers();
		}
		this.headers.add(name, value);
	}

	private boolean checkName(String name) {
		String problem = FieldRules.nameProblem(name);
		if (problem != null) {
			fail(problem);
		}
		return problem == null;
	}

	private boolean checkValue(String value) {
		String problem = FieldRules.valueProblem(value);
		if (problem != null) {
			fail(problem);
		}
		return problem == null;
	}

	private void contentLength(String value) {
		int length = value.length();
		if (length == 0) {
			fail("Invalid content-length: not a decimal number (RFC 9110 §8.6)");
			return;
		}
		long parsed = 0;
		for (int i = 0; i < length; i++) {
			char c = value.charAt(i);
			if (c < '0' || c > '9') {
				fail("Invalid content-length: not a decimal number (RFC 9110 §8.6)");
				return;
			}
			// a number too large for a long is larger than any body limit
			parsed = (parsed > (Long.MAX_VALUE - 9) / 10) ? Long.MAX_VALUE : parsed * 10 + (c - '0');
		}
		if (this.contentLength >= 0 && this.contentLength != parsed) {
			fail("Differing content-length values (RFC 9110 §8.6)");
			return;
		}
		this.contentLength = parsed;
	}

	private void cookie(String value) {
		if (++this.cookieCount == 1) {
			this.firstCookie = value;
			return;
		}
		if (this.cookieCount == 2) {
			this.cookies.setLength(0);
			this.cookies.append(this.firstCookie);
		}
		this.cookies.append("; ").append(value);
	}

	private void fail(String reason) {
		this.failure = reason;
	}

	/**
	 * Returns whether the last {@link #head} or {@link #trailers} failed because the block had
	 * more fields than the limit: a request the caller may answer with {@code 431} rather than
	 * a reset.
	 * @return whether the field-count limit was exceeded
	 */
	public boolean tooLarge() {
		return this.tooLarge;
	}

	/**
	 * Returns the {@code :protocol} of the last head made, for extended {@code CONNECT}
	 * (RFC 8441), which the head itself does not carry.
	 * @return the protocol, or {@code null} when the request had none
	 */
	public String protocol() {
		return this.lastProtocol;
	}

	/**
	 * Checks the block collected as a request's header block and makes the request's head,
	 * version {@link Version#HTTP_2}: target from {@code :path} (origin-form, or asterisk-form
	 * with {@code OPTIONS}), or from {@code :authority} for {@code CONNECT} (authority-form),
	 * checked as HTTP/1.1 checks a request line's.
	 * @param streamId the stream the block opened
	 * @param endStream whether the {@code HEADERS} frame had {@code END_STREAM}: then no body
	 * follows, and a {@code content-length} above 0 is malformed
	 * @return the head; its {@link RequestHead#contentLength()} is the {@code content-length}
	 * (-1 when absent), which the caller checks against the {@code DATA} it receives
	 * @throws Http2Exception a stream error {@link ErrorCode#PROTOCOL_ERROR} when the request is
	 * malformed or has too many fields ({@link #tooLarge()})
	 */
	public RequestHead head(int streamId, boolean endStream) throws Http2Exception {
		this.tooLarge = false;
		this.lastProtocol = null;
		try {
			RequestHead head = makeHead(streamId, endStream);
			this.lastProtocol = this.protocol;
			return head;
		}
		finally {
			reset();
		}
	}

	private RequestHead makeHead(int streamId, boolean endStream) throws Http2Exception {
		checkFailure(streamId);
		if (this.method == null) {
			throw malformed(streamId, "Missing :method (RFC 9113 §8.3.1)");
		}
		Method method = method(streamId);
		boolean connect = method == Method.CONNECT;
		String target;
		RequestHead.TargetForm form;
		if (connect && this.protocol == null) {
			if (this.scheme != null || this.path != null) {
				throw malformed(streamId, "CONNECT with :scheme or :path (RFC 9113 §8.5)");
			}
			if (this.authority == null) {
				throw malformed(streamId, "CONNECT without :authority (RFC 9113 §8.5)");
			}
			target = this.authority;
			form = RequestHead.TargetForm.AUTHORITY;
		}
		else {
			checkSchemeAndPath(streamId, connect);
			target = this.path;
			form = this.path.equals("*") ? RequestHead.TargetForm.ASTERISK : RequestHead.TargetForm.ORIGIN;
		}
		checkAuthorityAndHost(streamId);
		if (endStream && this.contentLength > 0) {
			throw malformed(streamId, "content-length above 0 on a request without content (RFC 9113 §8.1.1)");
		}
		Headers headers = finishHeaders();
		if (this.host == null && this.authority != null) {
			headers.add("host", this.authority);
		}
		try {
			return RequestHead.of(method, target, form, Version.HTTP_2, headers, this.contentLength, !endStream);
		}
		catch (HttpParseException ex) {
			// the reasons of the target checks are Ariadne's own, never the target itself
			throw malformed(streamId, ex.reason());
		}
	}

	private Method method(int streamId) throws Http2Exception {
		String name = this.method;
		if (name.isEmpty()) {
			throw malformed(streamId, "Empty :method (RFC 9113 §8.3.1)");
		}
		if (!Headers.isToken(name)) {
			throw malformed(streamId, ":method is not a token (RFC 9110 §9.1)");
		}
		Method method = Method.of(name);
		if (this.protocol != null && method != Method.CONNECT) {
			throw malformed(streamId, ":protocol on a request other than CONNECT (RFC 8441 §4)");
		}
		return method;
	}

	private void checkSchemeAndPath(int streamId, boolean connect) throws Http2Exception {
		if (this.scheme == null) {
			throw malformed(streamId, "Missing :scheme (RFC 9113 §8.3.1)");
		}
		if (this.path == null) {
			throw malformed(streamId, "Missing :path (RFC 9113 §8.3.1)");
		}
		if (connect && this.authority == null) {
			throw malformed(streamId, "Extended CONNECT without :authority (RFC 8441 §4)");
		}
		String scheme = this.scheme;
		if (!FieldRules.isScheme(scheme)) {
			throw malformed(streamId, "Invalid :scheme (RFC 3986 §3.1)");
		}
		if (this.path.isEmpty()) {
			throw malformed(streamId, "Empty :path (RFC 9113 §8.3.1)");
		}
		if (this.path.charAt(0) != '/' && !this.path.equals("*")) {
			throw malformed(streamId, ":path neither starting with / nor * (RFC 9113 §8.3.1)");
		}
		if ((this.authority == null && this.host == null)
				&& (scheme.equalsIgnoreCase("http") || scheme.equalsIgnoreCase("https"))) {
			throw malformed(streamId, "An http(s) request without :authority or host (RFC 9113 §8.3.1)");
		}
	}

	private void checkAuthorityAndHost(int streamId) throws Http2Exception {
		if (this.authority != null) {
			checkAuthority(streamId, this.authority, ":authority");
		}
		if (this.hostCount > 1) {
			throw malformed(streamId, "More than one host field (RFC 9110 §7.2)");
		}
		if (this.host != null) {
			checkAuthority(streamId, this.host, "host");
			// §8.3.1 asks the two to identify the same entity; a case-insensitive comparison
			// is the part of RFC 3986 §6.2 normalisation that applies to a host and port
			if (this.authority != null && !this.host.equalsIgnoreCase(this.authority)) {
				throw malformed(streamId, "host differs from :authority (RFC 9113 §8.3.1)");
			}
		}
	}

	private static void checkAuthority(int streamId, String value, String what) throws Http2Exception {
		String problem = FieldRules.authorityProblem(value, what);
		if (problem != null) {
			throw malformed(streamId, problem);
		}
	}

	/**
	 * Checks the block collected as a trailer block: no pseudo-header field at all (RFC 9113
	 * §8.1), the field rules of a header block otherwise.
	 * @param streamId the stream the block ended
	 * @return the trailer fields, for {@link RequestHead#trailers(Headers)}
	 * @throws Http2Exception a stream error {@link ErrorCode#PROTOCOL_ERROR} when the trailers are
	 * malformed or too many ({@link #tooLarge()})
	 */
	public Headers trailers(int streamId) throws Http2Exception {
		this.tooLarge = false;
		this.lastProtocol = null;
		try {
			checkFailure(streamId);
			if (this.pseudoCount > 0) {
				throw malformed(streamId, "Pseudo-header field in trailers (RFC 9113 §8.1)");
			}
			return finishHeaders();
		}
		finally {
			reset();
		}
	}

	private void checkFailure(int streamId) throws Http2Exception {
		if (this.failure != null) {
			this.tooLarge = this.failureTooLarge;
			throw malformed(streamId, this.failure);
		}
	}

	/** Adds the joined cookies to the regular fields. */
	private Headers finishHeaders() {
		Headers headers = (this.headers != null) ? this.headers : new Headers();
		if (this.cookieCount == 1) {
			headers.add("cookie", this.firstCookie);
		}
		else if (this.cookieCount > 1) {
			headers.add("cookie", this.cookies.toString());
		}
		return headers;
	}

	private static Http2Exception malformed(int streamId, String reason) {
		return Http2Exception.stream(streamId, ErrorCode.PROTOCOL_ERROR, reason);
	}

}
