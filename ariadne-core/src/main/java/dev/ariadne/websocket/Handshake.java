package dev.ariadne.websocket;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collection;
import java.util.List;

import dev.ariadne.http.HeaderName;
import dev.ariadne.http.Headers;
import dev.ariadne.http.Method;
import dev.ariadne.http.RequestHead;
import dev.ariadne.http.Status;
import dev.ariadne.http.Version;

/**
 * The server side of the opening handshake (RFC 6455 §4.2), as pure functions of the request:
 * whether it asks for WebSocket, whether it does so correctly, the {@code Sec-WebSocket-Accept}
 * that proves the server read it, the subprotocol chosen, and the 101's header fields.
 * Extensions are negotiated by {@link Extension#offered} and {@link PerMessageDeflate#negotiate}.
 *
 * <p>A server routes a request with {@link #isUpgrade}, then calls {@link #check}, which either
 * returns the key or throws the refusal to answer with; the application decides the rest
 * (origin, subprotocol, whether to accept at all) before the 101 with
 * {@link #responseHeaders}.
 */
public final class Handshake {

	/** The only protocol version there is: 13. */
	public static final String VERSION = "13";

	/** The client's nonce. */
	public static final String SEC_WEBSOCKET_KEY = "Sec-WebSocket-Key";

	/** The server's proof. */
	public static final String SEC_WEBSOCKET_ACCEPT = "Sec-WebSocket-Accept";

	/** The protocol version, from the client; from the server with a 426. */
	public static final String SEC_WEBSOCKET_VERSION = "Sec-WebSocket-Version";

	/** The subprotocols the client offers, and the one the server chose. */
	public static final String SEC_WEBSOCKET_PROTOCOL = "Sec-WebSocket-Protocol";

	private static final String GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

	private static final String WEBSOCKET = "websocket";

	private Handshake() {
	}

	/**
	 * Returns whether a request asks for WebSocket: a {@code GET} whose {@code Upgrade} lists
	 * {@code websocket}. Whether it does so correctly is {@link #check}'s.
	 * @param head the request head
	 * @return whether it asks to upgrade to WebSocket
	 */
	public static boolean isUpgrade(RequestHead head) {
		return head.method() == Method.GET && head.headers().containsToken(HeaderName.UPGRADE, WEBSOCKET);
	}

	/**
	 * Checks an upgrade request against §4.2.1 and returns its key.
	 * @param head the request head
	 * @return the {@code Sec-WebSocket-Key}, the base64 of 16 bytes
	 * @throws HandshakeException 405 for a method other than {@code GET}; 400 for a version other
	 * than HTTP/1.1, no {@code Upgrade: websocket}, no {@code upgrade} in {@code Connection}, or a
	 * key missing, repeated or not 16 bytes of base64; 426 with {@code Sec-WebSocket-Version: 13}
	 * for a version missing or other than 13
	 */
	public static String check(RequestHead head) throws HandshakeException {
		Headers headers = head.headers();
		if (head.method() != Method.GET) {
			throw new HandshakeException(Status.METHOD_NOT_ALLOWED_405, "A WebSocket handshake is a GET request",
					new Headers().add(HeaderName.ALLOW, "GET"));
		}
		if (head.version() != Version.HTTP_1_1) {
			throw badRequest("A WebSocket handshake is an HTTP/1.1 request");
		}
		if (!headers.containsToken(HeaderName.UPGRADE, WEBSOCKET)) {
			throw badRequest("Upgrade: websocket missing");
		}
		if (!headers.containsToken(HeaderName.CONNECTION, "upgrade")) {
			throw badRequest("Connection: upgrade missing");
		}
		List<String> versions = headers.all(SEC_WEBSOCKET_VERSION);
		if (versions.size() != 1 || !VERSION.equals(versions.get(0).trim())) {
			throw new HandshakeException(Status.of(426), "Only WebSocket version 13 is supported",
					new Headers().add(SEC_WEBSOCKET_VERSION, VERSION));
		}
		List<String> keys = headers.all(SEC_WEBSOCKET_KEY);
		if (keys.size() != 1 || !isKey(keys.get(0).trim())) {
			throw badRequest("Sec-WebSocket-Key missing or not 16 bytes of base64");
		}
		return keys.get(0).trim();
	}

	/**
	 * Returns the {@code Sec-WebSocket-Accept} for a key: the base64 of the SHA-1 of the key and
	 * RFC 6455's GUID (§4.2.2).
	 * @param key the client's key, as sent
	 * @return the accept value
	 */
	public static String accept(String key) {
		try {
			MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
			byte[] digest = sha1.digest((key + GUID).getBytes(StandardCharsets.US_ASCII));
			return Base64.getEncoder().encodeToString(digest);
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every Java platform has SHA-1", ex);
		}
	}

	/**
	 * Returns the subprotocols the client offers, in its order of preference: the tokens of its
	 * {@code Sec-WebSocket-Protocol} fields.
	 * @param headers the request's header fields
	 * @return the subprotocols, possibly none
	 */
	public static List<String> subprotocols(Headers headers) {
		List<String> offered = new ArrayList<>();
		for (String value : headers.all(SEC_WEBSOCKET_PROTOCOL)) {
			for (String element : value.split(",")) {
				String token = element.trim();
				if (Headers.isToken(token)) {
					offered.add(token);
				}
			}
		}
		return offered;
	}

	/**
	 * Chooses a subprotocol: the first the client offers that the server supports, compared
	 * exactly, as the Jakarta WebSocket default does.
	 * @param headers the request's header fields
	 * @param supported the subprotocols the endpoint supports
	 * @return the chosen one, or {@code null} when none is common (the 101 then names none)
	 */
	public static String selectSubprotocol(Headers headers, Collection<String> supported) {
		for (String offered : subprotocols(headers)) {
			if (supported.contains(offered)) {
				return offered;
			}
		}
		return null;
	}

	/**
	 * Returns the header fields of the 101 that accepts a checked request.
	 * @param key the key {@link #check} returned
	 * @param subprotocol the subprotocol chosen, or {@code null}
	 * @param extensions the extensions agreed, as a field value (such as
	 * {@link PerMessageDeflate#toString()}), or {@code null}
	 * @return {@code Upgrade}, {@code Connection}, {@code Sec-WebSocket-Accept}, and the others
	 * when given
	 */
	public static Headers responseHeaders(String key, String subprotocol, String extensions) {
		Headers headers = new Headers().add(HeaderName.UPGRADE, WEBSOCKET)
			.add(HeaderName.CONNECTION, "Upgrade")
			.add(SEC_WEBSOCKET_ACCEPT, accept(key));
		if (subprotocol != null) {
			headers.add(SEC_WEBSOCKET_PROTOCOL, subprotocol);
		}
		if (extensions != null) {
			headers.add(Extension.HEADER, extensions);
		}
		return headers;
	}

	private static boolean isKey(String key) {
		if (key.length() != 24) {
			return false;
		}
		try {
			return Base64.getDecoder().decode(key).length == 16;
		}
		catch (IllegalArgumentException ex) {
			return false;
		}
	}

	private static HandshakeException badRequest(String reason) {
		return new HandshakeException(Status.BAD_REQUEST_400, reason, new Headers());
	}

}
