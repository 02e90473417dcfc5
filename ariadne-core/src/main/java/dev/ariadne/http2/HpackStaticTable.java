package dev.ariadne.http2;

import java.util.HashMap;
import java.util.Map;

/**
 * The static table of RFC 7541 Appendix A: 61 fields, indexed from 1.
 *
 * <p>Names and values are {@code String} constants, so a decoder hands out the same instance for
 * each indexed static name and value, allocating nothing. Lookups by name and by name and value
 * allocate nothing either (a {@code String}'s hash is cached).
 */
final class HpackStaticTable {

	/** How many entries the table has; dynamic table indexes start after it. */
	static final int LENGTH = 61;

	/** Names, from index 1; index 0 is unused. */
	private static final String[] NAMES = { null, ":authority", ":method", ":method", ":path", ":path", ":scheme",
			":scheme", ":status", ":status", ":status", ":status", ":status", ":status", ":status", "accept-charset",
			"accept-encoding", "accept-language", "accept-ranges", "accept", "access-control-allow-origin", "age",
			"allow", "authorization", "cache-control", "content-disposition", "content-encoding", "content-language",
			"content-length", "content-location", "content-range", "content-type", "cookie", "date", "etag",
			"expect", "expires", "from", "host", "if-match", "if-modified-since", "if-none-match", "if-range",
			"if-unmodified-since", "last-modified", "link", "location", "max-forwards", "proxy-authenticate",
			"proxy-authorization", "range", "referer", "refresh", "retry-after", "server", "set-cookie",
			"strict-transport-security", "transfer-encoding", "user-agent", "vary", "via", "www-authenticate" };

	/** Values, from index 1; empty where Appendix A has none. */
	private static final String[] VALUES = { null, "", "GET", "POST", "/", "/index.html", "http", "https", "200",
			"204", "206", "304", "400", "404", "500", "", "gzip, deflate", "", "", "", "", "", "", "", "", "", "", "",
			"", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "", "",
			"", "", "", "", "", "", "", "" };

	/** The first index of each name; entries of the same name are adjacent. */
	private static final Map<String, Integer> FIRST = new HashMap<>(128);

	static {
		for (int index = LENGTH; index >= 1; index--) {
			FIRST.put(NAMES[index], index);
		}
	}

	private HpackStaticTable() {
	}

	/**
	 * Returns an entry's name.
	 * @param index 1 to {@value #LENGTH}
	 * @return the name constant
	 */
	static String name(int index) {
		return NAMES[index];
	}

	/**
	 * Returns an entry's value.
	 * @param index 1 to {@value #LENGTH}
	 * @return the value constant, possibly empty
	 */
	static String value(int index) {
		return VALUES[index];
	}

	/**
	 * Returns the first entry with a name.
	 * @param name the name, lower case
	 * @return its index, or 0 when no entry has that name
	 */
	static int indexOf(String name) {
		Integer index = FIRST.get(name);
		return (index != null) ? index : 0;
	}

	/**
	 * Returns the entry with a name and a value.
	 * @param name the name, lower case
	 * @param value the value
	 * @return its index, or 0 when no entry has both
	 */
	static int indexOf(String name, String value) {
		int index = indexOf(name);
		if (index == 0) {
			return 0;
		}
		for (; index <= LENGTH && NAMES[index].equals(name); index++) {
			if (VALUES[index].equals(value)) {
				return index;
			}
		}
		return 0;
	}

}
