package dev.ariadne.server.stats;

/**
 * A defence the server used against a client that held a connection without finishing what it
 * started, or that made it work for nothing: the {@code reason} tag of {@code ariadne.defences},
 * or of {@code ariadne.http2.defences} for the limits of HTTP/2 ({@link #http2()}). Each is
 * counted when the server acts (answers 408, refuses a stream, or closes the connection), once
 * per request or stream.
 */
public enum Defence {

	/** A request head not complete within {@code request.header-timeout}: 408. */
	SLOW_HEAD("slow-head"),

	/**
	 * A request body that paused longer than allowed, or arrived slower than
	 * {@code request.min-data-rate}: 408, or the connection closed once the response is
	 * committed.
	 */
	SLOW_BODY("slow-body"),

	/**
	 * A client that took nothing of its response for {@code keep-alive.timeout} (or the
	 * low-resources stall timeout): the connection is closed.
	 */
	SLOW_READER("slow-reader"),

	/**
	 * An HTTP/2 stream refused with {@code REFUSED_STREAM} because as many of the connection's
	 * exchanges as {@code SETTINGS_MAX_CONCURRENT_STREAMS} still run or wait for a worker:
	 * streams the client reset count until their exchange ends, so resets cannot pile up work.
	 */
	HTTP2_STREAMS("http2-streams"),

	/**
	 * An HTTP/2 client that reset too many streams in a short time (Rapid Reset,
	 * CVE-2023-44487): {@code GOAWAY} with {@code ENHANCE_YOUR_CALM}, then the connection is
	 * closed.
	 */
	HTTP2_RAPID_RESET("http2-rapid-reset"),

	/**
	 * An HTTP/2 client that sent more frames that cost work and carry no request (SETTINGS, PING,
	 * PRIORITY, empty DATA, WINDOW_UPDATEs of small credit never used, unknown types) than
	 * {@code http2.max-control-frames} in the rate window: {@code GOAWAY} with
	 * {@code ENHANCE_YOUR_CALM}, then the connection is closed.
	 */
	HTTP2_CONTROL_FRAMES("http2-control-frames"),

	/**
	 * An HTTP/2 client that made the server reset more streams (by frames invalid on them) than
	 * {@code http2.max-resets} in the rate window (MadeYouReset, CVE-2025-8671): {@code GOAWAY}
	 * with {@code ENHANCE_YOUR_CALM}, then the connection is closed.
	 */
	HTTP2_PROVOKED_RESETS("http2-provoked-resets"),

	/**
	 * An HTTP/2 header block larger than the header list allows, or of too many
	 * {@code CONTINUATION} frames (CONTINUATION floods), stopped before it was decoded:
	 * {@code GOAWAY} with {@code ENHANCE_YOUR_CALM}, then the connection is closed.
	 */
	HTTP2_HEADER_BLOCK("http2-header-block");

	private final String tag;

	private final boolean http2;

	Defence(String tag) {
		this.tag = tag;
		this.http2 = tag.startsWith("http2-");
	}

	/**
	 * Returns the tag value.
	 * @return the reason as the meter shows it
	 */
	public String tag() {
		return this.tag;
	}

	/**
	 * Returns whether this is one of HTTP/2's own limits, counted on {@code ariadne.http2.defences}
	 * rather than {@code ariadne.defences}.
	 * @return whether an HTTP/2 session's limit acted
	 */
	public boolean http2() {
		return this.http2;
	}

}
