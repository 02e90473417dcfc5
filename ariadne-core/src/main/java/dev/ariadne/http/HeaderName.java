package dev.ariadne.http;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * Names of the header fields the server itself reads or writes.
 *
 * <p>The parser maps these names to the constants whatever their case on the wire, so that a
 * request's common fields cost no string allocation; any other name keeps the spelling the client
 * sent. Names compare case-insensitively everywhere ({@link Headers}).
 */
public final class HeaderName {

	/** {@code Host}. */
	public static final String HOST = "Host";

	/** {@code Content-Length}. */
	public static final String CONTENT_LENGTH = "Content-Length";

	/** {@code Content-Type}. */
	public static final String CONTENT_TYPE = "Content-Type";

	/** {@code Transfer-Encoding}. */
	public static final String TRANSFER_ENCODING = "Transfer-Encoding";

	/** {@code Connection}. */
	public static final String CONNECTION = "Connection";

	/** {@code Expect}. */
	public static final String EXPECT = "Expect";

	/** {@code Date}. */
	public static final String DATE = "Date";

	/** {@code Server}. */
	public static final String SERVER = "Server";

	/** {@code Allow}. */
	public static final String ALLOW = "Allow";

	/** {@code Retry-After}. */
	public static final String RETRY_AFTER = "Retry-After";

	/** {@code Accept}. */
	public static final String ACCEPT = "Accept";

	/** {@code Accept-Encoding}. */
	public static final String ACCEPT_ENCODING = "Accept-Encoding";

	/** {@code User-Agent}. */
	public static final String USER_AGENT = "User-Agent";

	/** {@code Keep-Alive}. */
	public static final String KEEP_ALIVE = "Keep-Alive";

	/** {@code Upgrade}. */
	public static final String UPGRADE = "Upgrade";

	/** {@code TE}. */
	public static final String TE = "TE";

	/** {@code Trailer}. */
	public static final String TRAILER = "Trailer";

	/** {@code Cache-Control}. */
	public static final String CACHE_CONTROL = "Cache-Control";

	/** {@code Cookie}. */
	public static final String COOKIE = "Cookie";

	/** {@code Authorization}. */
	public static final String AUTHORIZATION = "Authorization";

	/** {@code Accept-Language}. */
	public static final String ACCEPT_LANGUAGE = "Accept-Language";

	/** {@code Pragma}. */
	public static final String PRAGMA = "Pragma";

	/** {@code Referer}. */
	public static final String REFERER = "Referer";

	/** {@code Origin}. */
	public static final String ORIGIN = "Origin";

	/** {@code Sec-WebSocket-Key}, of a WebSocket handshake (RFC 6455). */
	public static final String SEC_WEBSOCKET_KEY = "Sec-WebSocket-Key";

	/** {@code Sec-WebSocket-Version}. */
	public static final String SEC_WEBSOCKET_VERSION = "Sec-WebSocket-Version";

	/** {@code Sec-WebSocket-Protocol}. */
	public static final String SEC_WEBSOCKET_PROTOCOL = "Sec-WebSocket-Protocol";

	/** {@code Sec-WebSocket-Extensions}. */
	public static final String SEC_WEBSOCKET_EXTENSIONS = "Sec-WebSocket-Extensions";

	private static final String[] KNOWN = { HOST, CONTENT_LENGTH, CONTENT_TYPE, TRANSFER_ENCODING, CONNECTION, EXPECT,
			DATE, SERVER, ALLOW, RETRY_AFTER, ACCEPT, ACCEPT_ENCODING, USER_AGENT, KEEP_ALIVE, UPGRADE, TE, TRAILER,
			CACHE_CONTROL, COOKIE, AUTHORIZATION, ACCEPT_LANGUAGE, PRAGMA, REFERER, ORIGIN, SEC_WEBSOCKET_KEY,
			SEC_WEBSOCKET_VERSION, SEC_WEBSOCKET_PROTOCOL, SEC_WEBSOCKET_EXTENSIONS };

	/** Known names, lower-cased and encoded, bucketed by length. */
	private static final byte[][][] BY_LENGTH = new byte[32][][];

	private static final String[][] NAMES_BY_LENGTH = new String[32][];

	/** The known names lower-cased, at the index of their constant in {@link #NAMES_BY_LENGTH}. */
	private static final String[][] LOWER_BY_LENGTH = new String[32][];

	static {
		for (String name : KNOWN) {
			int length = name.length();
			byte[][] bucket = BY_LENGTH[length];
			String[] names = NAMES_BY_LENGTH[length];
			int size = (bucket != null) ? bucket.length : 0;
			byte[][] grownBucket = new byte[size + 1][];
			String[] grownNames = new String[size + 1];
			if (bucket != null) {
				System.arraycopy(bucket, 0, grownBucket, 0, size);
				System.arraycopy(names, 0, grownNames, 0, size);
			}
			grownBucket[size] = name.toLowerCase(Locale.ROOT).getBytes(StandardCharsets.US_ASCII);
			grownNames[size] = name;
			BY_LENGTH[length] = grownBucket;
			NAMES_BY_LENGTH[length] = grownNames;
			String[] lower = LOWER_BY_LENGTH[length];
			String[] grownLower = new String[size + 1];
			if (lower != null) {
				System.arraycopy(lower, 0, grownLower, 0, size);
			}
			grownLower[size] = name.toLowerCase(Locale.ROOT);
			LOWER_BY_LENGTH[length] = grownLower;
		}
	}

	private HeaderName() {
	}

	/**
	 * Returns a field name in lower case, as HTTP/2 sends names: for one of the constants here
	 * (and so for the same literal in application code, which Java interns), a string made once;
	 * for a name already in lower case, the name itself; else a new string.
	 * @param name a field name
	 * @return the name in lower case
	 */
	public static String lowerCase(String name) {
		int length = name.length();
		String[] names = (length < NAMES_BY_LENGTH.length) ? NAMES_BY_LENGTH[length] : null;
		if (names != null) {
			for (int i = 0; i < names.length; i++) {
				if (names[i] == name) {
					return LOWER_BY_LENGTH[length][i];
				}
			}
		}
		for (int i = 0; i < length; i++) {
			char c = name.charAt(i);
			if (c >= 'A' && c <= 'Z') {
				return name.toLowerCase(Locale.ROOT);
			}
		}
		return name;
	}

	/**
	 * Returns the constant for a field name already checked to be a token, or a new string in
	 * the client's spelling.
	 */
	static String of(byte[] buf, int start, int end) {
		int length = end - start;
		if (length < BY_LENGTH.length) {
			byte[][] bucket = BY_LENGTH[length];
			if (bucket != null) {
				for (int i = 0; i < bucket.length; i++) {
					if (Ascii.equalsIgnoreCase(bucket[i], buf, start)) {
						return NAMES_BY_LENGTH[length][i];
					}
				}
			}
		}
		return new String(buf, start, length, StandardCharsets.ISO_8859_1);
	}

}
