package dev.ariadne.http;

/**
 * The HTTP versions Ariadne speaks.
 */
public enum Version {

	/** HTTP/1.0: connections close after each exchange unless the client asks for keep-alive. */
	HTTP_1_0("HTTP/1.0"),

	/** HTTP/1.1: connections persist unless either side sends {@code Connection: close}. */
	HTTP_1_1("HTTP/1.1");

	private final String text;

	Version(String text) {
		this.text = text;
	}

	/**
	 * Returns the protocol version as it appears on the wire.
	 * @return {@code HTTP/1.0} or {@code HTTP/1.1}
	 */
	public String text() {
		return this.text;
	}

	@Override
	public String toString() {
		return this.text;
	}

}
