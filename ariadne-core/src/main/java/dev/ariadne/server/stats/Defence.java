package dev.ariadne.server.stats;

/**
 * A defence the server used against a client that held a connection without finishing what it
 * started: the {@code reason} tag of {@code ariadne.defences}. Each is counted when the server
 * acts (answers 408, or closes the connection), once per request.
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
	SLOW_READER("slow-reader");

	private final String tag;

	Defence(String tag) {
		this.tag = tag;
	}

	/**
	 * Returns the tag value.
	 * @return the reason as the meter shows it
	 */
	public String tag() {
		return this.tag;
	}

}
