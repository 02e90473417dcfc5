package dev.ariadne.websocket;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import dev.ariadne.http.Headers;

/**
 * One extension of a {@code Sec-WebSocket-Extensions} field (RFC 6455 §9.1): a client's offer,
 * or a server's answer.
 *
 * @param name the extension token, such as {@code permessage-deflate}
 * @param parameters its parameters in order, repeats included
 */
public record Extension(String name, List<Parameter> parameters) {

	/** The field a client offers extensions in and a server answers with. */
	public static final String HEADER = "Sec-WebSocket-Extensions";

	/**
	 * One parameter of an extension.
	 * @param name the parameter token
	 * @param value its value, unquoted, or {@code null} when it has none
	 */
	public record Parameter(String name, String value) {

		@Override
		public String toString() {
			return (this.value != null) ? this.name + "=" + this.value : this.name;
		}

	}

	/**
	 * Creates an extension.
	 */
	public Extension {
		parameters = List.copyOf(parameters);
	}

	/**
	 * Returns the extensions a client offers in the {@value #HEADER} fields of a request, in
	 * order; none when there is no such field or one does not follow the grammar (the
	 * handshake then goes on without extensions).
	 * @param headers the request's header fields
	 * @return the offers, possibly empty
	 */
	public static List<Extension> offered(Headers headers) {
		List<Extension> offers = new ArrayList<>();
		for (String value : headers.all(HEADER)) {
			if (!new Scanner(value).extensions(offers)) {
				return Collections.emptyList();
			}
		}
		return offers;
	}

	/**
	 * Returns the extension as a header value: the name, then {@code ; name=value} for each
	 * parameter (values are tokens here).
	 * @return the header value
	 */
	@Override
	public String toString() {
		StringBuilder text = new StringBuilder(this.name);
		for (Parameter parameter : this.parameters) {
			text.append("; ").append(parameter);
		}
		return text.toString();
	}

	/** Reads {@code 1#(token *(";" token ["=" (token / quoted-string)]))} from one field value. */
	private static final class Scanner {

		private final String text;

		private int at;

		Scanner(String text) {
			this.text = text;
		}

		boolean extensions(List<Extension> into) {
			while (true) {
				skipSpace();
				if (this.at == this.text.length()) {
					return true;
				}
				if (peek() == ',') {
					// empty list elements are allowed (RFC 9110 §5.6.1.2)
					this.at++;
					continue;
				}
				String name = token();
				if (name == null) {
					return false;
				}
				List<Parameter> parameters = new ArrayList<>();
				skipSpace();
				while (peek() == ';') {
					this.at++;
					Parameter parameter = parameter();
					if (parameter == null) {
						return false;
					}
					parameters.add(parameter);
					skipSpace();
				}
				into.add(new Extension(name, parameters));
				if (this.at < this.text.length() && peek() != ',') {
					return false;
				}
			}
		}

		private Parameter parameter() {
			skipSpace();
			String name = token();
			if (name == null) {
				return null;
			}
			skipSpace();
			if (peek() != '=') {
				return new Parameter(name, null);
			}
			this.at++;
			skipSpace();
			// RFC 6455 §9.1: a quoted value, once unescaped, must be a token too
			String value = (peek() == '"') ? quoted() : token();
			return (value != null && Headers.isToken(value)) ? new Parameter(name, value) : null;
		}

		private String token() {
			int start = this.at;
			while (this.at < this.text.length() && Headers.isTokenChar(this.text.charAt(this.at))) {
				this.at++;
			}
			return (this.at > start) ? this.text.substring(start, this.at) : null;
		}

		private String quoted() {
			StringBuilder value = new StringBuilder();
			this.at++;
			while (this.at < this.text.length()) {
				char c = this.text.charAt(this.at++);
				if (c == '"') {
					return value.toString();
				}
				if (c == '\\') {
					if (this.at == this.text.length()) {
						return null;
					}
					c = this.text.charAt(this.at++);
				}
				value.append(c);
			}
			return null;
		}

		private void skipSpace() {
			while (this.at < this.text.length() && (peek() == ' ' || peek() == '\t')) {
				this.at++;
			}
		}

		private char peek() {
			return (this.at < this.text.length()) ? this.text.charAt(this.at) : '\0';
		}

	}

}
