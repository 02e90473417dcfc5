package dev.ariadne.server.accesslog;

import java.net.InetSocketAddress;

/**
 * One slot of the access log's ring: what the request path copied of an exchange (references
 * and numbers, nothing formatted), for the writer to format. A slot is filled by the one thread
 * that claimed its sequence, then {@link #published} makes it the writer's; the writer clears it
 * and moves past it, which frees it for the producer one lap later.
 */
final class AccessLogEntry {

	/** The sequence this slot holds, once filled; the release that hands it to the writer. */
	volatile long published = -1;

	String method;

	/** The request target as sent ({@code /a?b}), for the request line. */
	String target;

	/** The path and query of the target, for the path and query codes. */
	String pathAndQuery;

	String protocol;

	/** The client, after forwarded headers from a trusted proxy. */
	InetSocketAddress remote;

	InetSocketAddress local;

	int status;

	/** Content bytes sent, without the head. */
	long bytes;

	/** When the request head was read ({@link System#nanoTime()}). */
	long startNanos;

	long durationNanos;

	/** How long the request (or, in the blocking model, its connection) waited for a worker. */
	long waitNanos;

	String pool;

	String route;

	/** Values of the request fields the format names, in its order; {@code null} when absent. */
	final String[] requestFields;

	/** Values of the response fields the format names. */
	final String[] responseFields;

	/** The wall-clock time of {@link #startNanos}, set by the writer. */
	long epochMillis;

	AccessLogEntry(int requestFields, int responseFields) {
		this.requestFields = new String[requestFields];
		this.responseFields = new String[responseFields];
	}

	/** Lets go of every reference, so that a slot keeps nothing of a request alive. */
	void clear() {
		this.method = null;
		this.target = null;
		this.pathAndQuery = null;
		this.protocol = null;
		this.remote = null;
		this.local = null;
		this.pool = null;
		this.route = null;
		java.util.Arrays.fill(this.requestFields, null);
		java.util.Arrays.fill(this.responseFields, null);
	}

}
