package dev.ariadne.http2;

import java.util.Base64;

/**
 * The {@code HTTP2-Settings} header field of an HTTP/1.1 request that asks to upgrade to
 * cleartext HTTP/2 ({@code h2c}, RFC 7540 §3.2.1, which RFC 9113 §3.1 leaves in place for that
 * use): a {@code SETTINGS} frame's payload in base64url with the trailing {@code '='} omitted.
 */
public final class Http2SettingsHeader {

	/** The field's name. */
	public static final String NAME = "HTTP2-Settings";

	private static final int ENTRY_LENGTH = 6;

	private Http2SettingsHeader() {
	}

	/**
	 * Decodes the field's value into the settings it carries, each checked as a received
	 * {@code SETTINGS} frame's is; unknown settings are ignored (RFC 9113 §6.5.2) and a repeated
	 * one keeps its last value (§6.5.3). A payload of 6-byte entries never needs padding, so a
	 * {@code '='} is refused with the other characters outside the base64url alphabet.
	 * @param value the field value, without surrounding whitespace; empty for no settings
	 * @return the settings, only those present in the value
	 * @throws Http2Exception a connection error {@link ErrorCode#PROTOCOL_ERROR} when the value is
	 * not base64url or not a sequence of 6-byte entries, or the error {@link Settings#check}
	 * reports for a value
	 */
	public static Settings decode(String value) throws Http2Exception {
		byte[] payload;
		try {
			payload = Base64.getUrlDecoder().decode(value);
		}
		catch (IllegalArgumentException ex) {
			throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR, "HTTP2-Settings is not base64url");
		}
		if (payload.length % ENTRY_LENGTH != 0) {
			throw Http2Exception.connection(ErrorCode.PROTOCOL_ERROR,
					"HTTP2-Settings is not a sequence of 6-byte settings (RFC 9113 §6.5.1)");
		}
		Settings settings = new Settings();
		for (int i = 0; i < payload.length; i += ENTRY_LENGTH) {
			int id = ((payload[i] & 0xFF) << 8) | (payload[i + 1] & 0xFF);
			long setting = ((payload[i + 2] & 0xFFL) << 24) | ((payload[i + 3] & 0xFFL) << 16)
					| ((payload[i + 4] & 0xFFL) << 8) | (payload[i + 5] & 0xFFL);
			Settings.check(id, setting);
			if (Settings.isKnown(id)) {
				settings.set(id, setting);
			}
		}
		return settings;
	}

}
