package dev.ariadne.server.tls;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

import dev.ariadne.server.stats.TlsProtocol;

/**
 * What the first bytes of a connection to a TLS port say, read before any TLS engine sees
 * them: plaintext HTTP, or a TLS record with a ClientHello, whose host name (SNI) picks the
 * context and whose highest offered version names a failed handshake's protocol. Reads without
 * moving the buffer's position, so the engine then reads the same bytes.
 *
 * <p>A TLS record starts with a content type of 20 to 24 (22 for a handshake), an SSL 2
 * ClientHello with a byte of 0x80 or more, and an HTTP request with its method, an uppercase
 * token: one byte tells them apart.
 */
final class ClientHello {

	/** What the first bytes are. */
	enum Kind {

		/** Too few bytes to tell yet. */
		INCOMPLETE,

		/** Plaintext HTTP: a request method where a TLS record was expected. */
		PLAINTEXT,

		/** A whole first TLS handshake record. */
		TLS,

		/** Anything else: the TLS engine refuses it with an alert. */
		OTHER

	}

	private static final ClientHello INCOMPLETE = new ClientHello(Kind.INCOMPLETE, null, TlsProtocol.UNKNOWN);

	private static final ClientHello PLAINTEXT = new ClientHello(Kind.PLAINTEXT, null, TlsProtocol.UNKNOWN);

	private static final ClientHello OTHER = new ClientHello(Kind.OTHER, null, TlsProtocol.UNKNOWN);

	private static final int HANDSHAKE_RECORD = 22;

	private static final int CLIENT_HELLO = 1;

	private static final int RECORD_HEADER = 5;

	/** Largest record plaintext plus the largest expansion TLS allows (RFC 8446 section 5.2). */
	private static final int MAX_RECORD = 16384 + 2048;

	private static final int SERVER_NAME = 0x0000;

	private static final int SUPPORTED_VERSIONS = 0x002b;

	private final Kind kind;

	private final String serverName;

	private final TlsProtocol offered;

	private ClientHello(Kind kind, String serverName, TlsProtocol offered) {
		this.kind = kind;
		this.serverName = serverName;
		this.offered = offered;
	}

	Kind kind() {
		return this.kind;
	}

	/** The host name the client asked for, lowercase, or {@code null}. */
	String serverName() {
		return this.serverName;
	}

	/** The highest version the client offered. */
	TlsProtocol offered() {
		return this.offered;
	}

	/**
	 * Reads the start of a connection's input.
	 * @param in the bytes read so far, in read mode; not moved
	 * @return what they are
	 */
	static ClientHello inspect(ByteBuffer in) {
		int start = in.position();
		int available = in.remaining();
		if (available == 0) {
			return INCOMPLETE;
		}
		int first = in.get(start) & 0xff;
		if (first >= 'A' && first <= 'Z') {
			return PLAINTEXT;
		}
		if (first != HANDSHAKE_RECORD) {
			return OTHER;
		}
		if (available < RECORD_HEADER) {
			return INCOMPLETE;
		}
		int length = u16(in, start + 3);
		if (length > MAX_RECORD) {
			return OTHER;
		}
		if (available < RECORD_HEADER + length) {
			return INCOMPLETE;
		}
		return parse(in, start + RECORD_HEADER, start + RECORD_HEADER + length);
	}

	/**
	 * Parses a handshake record's fragment as far as it holds a ClientHello; a ClientHello
	 * longer than its first record yields what that record holds.
	 */
	private static ClientHello parse(ByteBuffer in, int from, int end) {
		if (end - from < 6 || (in.get(from) & 0xff) != CLIENT_HELLO) {
			return OTHER;
		}
		int position = from + 4;
		int legacyVersion = u16(in, position);
		position += 2 + 32;
		Cursor cursor = new Cursor(in, position, end);
		if (!cursor.skip(1) || !cursor.skip(2) || !cursor.skip(1) || !cursor.has(2)) {
			return new ClientHello(Kind.TLS, null, TlsProtocol.of(legacyVersion));
		}
		int extensionsEnd = Math.min(end, cursor.position + 2 + u16(in, cursor.position));
		int at = cursor.position + 2;
		String serverName = null;
		int highest = legacyVersion;
		while (at + 4 <= extensionsEnd) {
			int type = u16(in, at);
			int length = u16(in, at + 2);
			int data = at + 4;
			int dataEnd = Math.min(extensionsEnd, data + length);
			if (type == SERVER_NAME) {
				serverName = serverName(in, data, dataEnd);
			}
			else if (type == SUPPORTED_VERSIONS) {
				highest = highestVersion(in, data, dataEnd, legacyVersion);
			}
			at = data + length;
		}
		return new ClientHello(Kind.TLS, serverName, TlsProtocol.of(highest));
	}

	/** The first host name of a server_name extension (RFC 6066 section 3). */
	private static String serverName(ByteBuffer in, int from, int end) {
		int at = from + 2;
		while (at + 3 <= end) {
			int type = in.get(at) & 0xff;
			int length = u16(in, at + 1);
			if (type == 0 && at + 3 + length <= end && length > 0) {
				byte[] name = new byte[length];
				in.get(at + 3, name);
				return new String(name, StandardCharsets.US_ASCII).toLowerCase(Locale.ROOT);
			}
			at += 3 + length;
		}
		return null;
	}

	/** The highest version of a supported_versions extension, GREASE values left out. */
	private static int highestVersion(ByteBuffer in, int from, int end, int legacyVersion) {
		if (from >= end) {
			return legacyVersion;
		}
		int listEnd = Math.min(end, from + 1 + (in.get(from) & 0xff));
		int highest = 0;
		for (int at = from + 1; at + 2 <= listEnd; at += 2) {
			int version = u16(in, at);
			if ((version & 0x0f0f) != 0x0a0a && version > highest) {
				highest = version;
			}
		}
		return (highest != 0) ? highest : legacyVersion;
	}

	private static int u16(ByteBuffer in, int at) {
		return ((in.get(at) & 0xff) << 8) | (in.get(at + 1) & 0xff);
	}

	/** Skips length-prefixed vectors inside a bound. */
	private static final class Cursor {

		private final ByteBuffer in;

		private final int end;

		private int position;

		Cursor(ByteBuffer in, int position, int end) {
			this.in = in;
			this.position = position;
			this.end = end;
		}

		boolean has(int bytes) {
			return this.position + bytes <= this.end;
		}

		/** Skips a vector whose length takes {@code lengthBytes} bytes. */
		boolean skip(int lengthBytes) {
			if (!has(lengthBytes)) {
				return false;
			}
			int length = (lengthBytes == 1) ? this.in.get(this.position) & 0xff : u16(this.in, this.position);
			this.position += lengthBytes + length;
			return this.position <= this.end;
		}

	}

}
