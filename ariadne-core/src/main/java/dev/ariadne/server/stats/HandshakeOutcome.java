package dev.ariadne.server.stats;

/**
 * How a TLS handshake ended, as the {@code outcome} tag of the handshake meter. Every
 * connection of a TLS listener counts once, when its handshake ends one way or another.
 */
public enum HandshakeOutcome {

	/** The handshake completed; the connection carries requests. */
	SUCCESS("success"),

	/**
	 * The handshake failed: no common protocol version or cipher suite (a TLS 1.1 client), a
	 * client certificate missing or refused under {@code client-auth: need}, a bad message, or
	 * anything else the TLS engine refused.
	 */
	FAILED("failed"),

	/** The handshake did not complete within the handshake timeout; the connection was closed. */
	TIMEOUT("timeout"),

	/** The client, or a shutdown, closed the connection before the handshake completed. */
	CLOSED("closed"),

	/**
	 * The client sent plaintext HTTP to the TLS port; it was answered 400 with a body that says
	 * the port expects TLS, then closed.
	 */
	PLAINTEXT("plaintext");

	private final String tag;

	HandshakeOutcome(String tag) {
		this.tag = tag;
	}

	/**
	 * Returns the value of the {@code outcome} tag.
	 * @return the tag value
	 */
	public String tag() {
		return this.tag;
	}

}
