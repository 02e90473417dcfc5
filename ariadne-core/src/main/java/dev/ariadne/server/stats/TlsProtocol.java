package dev.ariadne.server.stats;

/**
 * The TLS protocol version of a handshake, as the {@code protocol} tag of the handshake meter:
 * the version negotiated, or, for a handshake that failed before one was, the highest version
 * the client offered (so that refused TLS 1.1 clients show as {@code TLSv1.1}).
 */
public enum TlsProtocol {

	/** TLS 1.3. */
	TLS_1_3("TLSv1.3"),

	/** TLS 1.2. */
	TLS_1_2("TLSv1.2"),

	/** TLS 1.1, refused by default. */
	TLS_1_1("TLSv1.1"),

	/** TLS 1.0, refused by default. */
	TLS_1_0("TLSv1"),

	/** Not known: nothing TLS was read (plaintext, an early close), or an older or unknown version. */
	UNKNOWN("unknown");

	private final String tag;

	TlsProtocol(String tag) {
		this.tag = tag;
	}

	/**
	 * Returns the value of the {@code protocol} tag: the JDK's name of the version.
	 * @return the tag value, for example {@code TLSv1.3}
	 */
	public String tag() {
		return this.tag;
	}

	/**
	 * Returns the version of a JDK protocol name.
	 * @param name the name, as {@code SSLSession.getProtocol()} gives it, or {@code null}
	 * @return the version, {@link #UNKNOWN} for any other name
	 */
	public static TlsProtocol of(String name) {
		for (TlsProtocol protocol : values()) {
			if (protocol.tag.equals(name) && protocol != UNKNOWN) {
				return protocol;
			}
		}
		return UNKNOWN;
	}

	/**
	 * Returns the version of a protocol number as a ClientHello carries it ({@code 0x0303} is
	 * TLS 1.2).
	 * @param version the two bytes of the version
	 * @return the version, {@link #UNKNOWN} for any other number
	 */
	public static TlsProtocol of(int version) {
		return switch (version) {
			case 0x0304 -> TLS_1_3;
			case 0x0303 -> TLS_1_2;
			case 0x0302 -> TLS_1_1;
			case 0x0301 -> TLS_1_0;
			default -> UNKNOWN;
		};
	}

}
