package dev.ariadne.http;

/**
 * The HTTP versions Ariadne speaks.
 */
public enum Version {

	/** HTTP/1.0: connections close after each exchange unless the client asks for keep-alive. */
	HTTP_1_0("HTTP/1.0"),

	/** HTTP/1.1: connections persist unless either side sends {@code Connection: close}. */
	HTTP_1_1("HTTP/1.1"),

	/**
	 * HTTP/2 (RFC 9113): requests are streams multiplexed on one connection, which persists;
	 * written {@code HTTP/2.0}, as Servlet's {@code getProtocol()} reports it.
	 */
	HTTP_2("HTTP/2.0");

	private final String text;

	Version(String text) {
		this.text = text;
	}

	/**
	 * Returns the protocol version as it appears on the wire.
	 * @return {@code HTTP/1.0}, {@code HTTP/1.1} or {@code HTTP/2.0}
	 */
	public String text() {
		return this.text;
	}

	@Override
	public String toString() {
		return this.text;
	}

}
