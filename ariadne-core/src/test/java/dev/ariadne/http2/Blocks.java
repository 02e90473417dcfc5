package dev.ariadne.http2;

import java.util.ArrayList;
import java.util.List;

import dev.ariadne.http.Headers;
import dev.ariadne.http.RequestHead;

/**
 * Test helpers: header blocks written as name, value pairs, and heads written as one line that
 * a table row can compare.
 */
final class Blocks {

	private Blocks() {
	}

	/** A block from name, value pairs. */
	static List<String[]> block(String... nameValues) {
		if (nameValues.length % 2 != 0) {
			throw new IllegalArgumentException("name, value pairs expected");
		}
		List<String[]> fields = new ArrayList<>();
		for (int i = 0; i < nameValues.length; i += 2) {
			fields.add(new String[] { nameValues[i], nameValues[i + 1] });
		}
		return fields;
	}

	/** A GET of {@code /} on https://a.example followed by more pairs. */
	static List<String[]> get(String... more) {
		List<String[]> fields = block(":method", "GET", ":scheme", "https", ":authority", "a.example", ":path", "/");
		fields.addAll(block(more));
		return fields;
	}

	static void feed(HeaderListener listener, List<String[]> fields) {
		for (String[] field : fields) {
			listener.field(field[0], field[1]);
		}
	}

	/** {@code METHOD target FORM pathAndQuery VERSION [name: value, ...] length=n body=b}. */
	static String describe(RequestHead head) {
		return head.method() + " " + head.target() + " " + head.targetForm() + " " + head.pathAndQuery() + " "
				+ head.version() + " " + describe(head.headers()) + " length=" + head.contentLength() + " unknownLength="
				+ head.chunked() + " expectContinue=" + head.expectContinue();
	}

	static String describe(Headers headers) {
		StringBuilder text = new StringBuilder("[");
		for (int i = 0; i < headers.size(); i++) {
			text.append((i > 0) ? ", " : "").append(headers.name(i)).append(": ").append(headers.value(i));
		}
		return text.append(']').toString();
	}

	/** A field list for a failure message, control characters escaped. */
	static String show(List<String[]> fields) {
		StringBuilder text = new StringBuilder("[");
		for (String[] field : fields) {
			text.append((text.length() > 1) ? ", " : "").append(escape(field[0])).append('=').append(escape(field[1]));
		}
		return text.append(']').toString();
	}

	static String escape(String s) {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < s.length(); i++) {
			char c = s.charAt(i);
			if (c < 0x20 || c >= 0x7F) {
				text.append(String.format("\\u%04x", (int) c));
			}
			else {
				text.append(c);
			}
		}
		return text.toString();
	}

}
