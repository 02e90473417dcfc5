package dev.ariadne.server.stats;

/**
 * What a connection's HTTP/2 streams are doing, or the sum over connections: read when a scrape
 * or the diagnosis asks, never on the request path.
 *
 * @param active streams whose exchange runs or waits for a thread
 * @param queued of those, the streams that wait for a thread: their handler has not started
 * @param atLimit connections whose streams are as many as {@code http2.max-concurrent-streams}
 * allows, so that their clients hold further requests back
 */
public record StreamCount(int active, int queued, int atLimit) {

	/** No stream: an HTTP/1.1 connection, or none at all. */
	public static final StreamCount NONE = new StreamCount(0, 0, 0);

	/**
	 * Returns the sum of two counts.
	 * @param other the other count
	 * @return the sum
	 */
	public StreamCount plus(StreamCount other) {
		return new StreamCount(this.active + other.active, this.queued + other.queued, this.atLimit + other.atLimit);
	}

}
