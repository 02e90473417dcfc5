package dev.ariadne.servlet;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns the path of a request target into the decoded, canonical path that servlets, filters
 * and security constraints are mapped by (Servlet 6.1 section 3.5.2), rejecting the suspicious
 * sequences of that section: so the path a filter on {@code /admin/*} sees is the path the
 * servlet serves, however the client spelled it.
 *
 * <p>Steps: split at {@code /}; drop path parameters ({@code ;...}) from each segment; percent-
 * decode each segment as strict UTF-8; drop empty segments but the last; remove {@code .}
 * segments and resolve {@code ..} segments; join. Rejected: a path not starting with {@code /};
 * a fragment;
 * an encoded {@code /}; {@code \} encoded or not; control characters encoded or not; bad
 * percent-escapes; invalid or overlong UTF-8; a {@code .} or {@code ..} segment that had
 * parameters or encoded characters; an empty segment with parameters other than the last; a
 * {@code ..} leaving the root.
 */
final class PathCanonicalizer {

	private PathCanonicalizer() {
	}

	/**
	 * Canonicalises a path.
	 * @param rawPath the path as sent, percent-encoded, without query or fragment
	 * @return the decoded canonical path, starting with {@code /}
	 * @throws SuspiciousPathException naming the sequence that was found
	 */
	static String canonicalize(String rawPath) {
		if (rawPath.isEmpty() || rawPath.charAt(0) != '/') {
			throw new SuspiciousPathException("the path does not start with /");
		}
		if (rawPath.indexOf('#') >= 0) {
			throw new SuspiciousPathException("the path has a fragment");
		}
		if (isPlain(rawPath)) {
			return rawPath;
		}
		List<String> segments = new ArrayList<>();
		int length = rawPath.length();
		int start = 1;
		while (start <= length) {
			int slash = rawPath.indexOf('/', start);
			int end = (slash < 0) ? length : slash;
			boolean last = slash < 0;
			addSegment(segments, rawPath.substring(start, end), last);
			start = end + 1;
		}
		return join(segments);
	}

	/** Whether the path is already canonical: no escapes, parameters, dot or empty segments. */
	private static boolean isPlain(String path) {
		char previous = '/';
		for (int i = 1; i < path.length(); i++) {
			char c = path.charAt(i);
			if (c == '%' || c == ';' || c == '\\' || c < 0x20 || c >= 0x7F) {
				return false;
			}
			if (c == '/' && previous == '/') {
				return false;
			}
			if (c == '.' && previous == '/') {
				return false;
			}
			previous = c;
		}
		return true;
	}

	private static void addSegment(List<String> segments, String raw, boolean last) {
		int semicolon = raw.indexOf(';');
		boolean parameters = semicolon >= 0;
		if (parameters) {
			// dropped below, but suspicious wherever they appear
			checkParameters(raw.substring(semicolon));
		}
		String encoded = parameters ? raw.substring(0, semicolon) : raw;
		boolean escaped = encoded.indexOf('%') >= 0;
		String segment = escaped ? decode(encoded) : encoded;
		checkCharacters(segment);
		boolean dot = segment.equals(".") || segment.equals("..");
		if (dot && parameters) {
			throw new SuspiciousPathException("a dot segment has path parameters");
		}
		if (dot && escaped) {
			throw new SuspiciousPathException("a dot segment is percent-encoded");
		}
		if (segment.isEmpty()) {
			if (parameters && !last) {
				throw new SuspiciousPathException("an empty segment has path parameters");
			}
			if (last) {
				segments.add(segment);
			}
			return;
		}
		if (segment.equals(".")) {
			// removed, even when last: "/a/." is "/a"
			return;
		}
		if (segment.equals("..")) {
			if (segments.isEmpty()) {
				throw new SuspiciousPathException("a .. segment leaves the root");
			}
			segments.remove(segments.size() - 1);
			return;
		}
		segments.add(segment);
	}

	private static void checkParameters(String parameters) {
		for (int i = parameters.indexOf('%'); i >= 0; i = parameters.indexOf('%', i + 1)) {
			if (i + 2 >= parameters.length()) {
				throw new SuspiciousPathException("the path has a malformed percent-escape");
			}
			int high = Character.digit(parameters.charAt(i + 1), 16);
			int low = Character.digit(parameters.charAt(i + 2), 16);
			if (high < 0 || low < 0) {
				throw new SuspiciousPathException("the path has a malformed percent-escape");
			}
			checkCharacters(String.valueOf((char) ((high << 4) | low)));
		}
		checkCharacters(parameters);
	}

	private static void checkCharacters(String segment) {
		for (int i = 0; i < segment.length(); i++) {
			char c = segment.charAt(i);
			if (c == '/') {
				throw new SuspiciousPathException("the path has an encoded /");
			}
			if (c == '\\') {
				throw new SuspiciousPathException("the path has a \\");
			}
			if (c < 0x20 || (c >= 0x7F && c <= 0x9F)) {
				throw new SuspiciousPathException("the path has a control character");
			}
		}
	}

	private static String decode(String text) {
		ByteBuffer bytes = ByteBuffer.allocate(text.length() * 3);
		for (int i = 0; i < text.length(); i++) {
			char c = text.charAt(i);
			if (c >= 0x80) {
				// only in paths an application passes to a dispatcher; the parser admits ASCII only
				int end = Character.isHighSurrogate(c) && i + 1 < text.length() ? i + 2 : i + 1;
				bytes.put(text.substring(i, end).getBytes(StandardCharsets.UTF_8));
				i = end - 1;
				continue;
			}
			if (c != '%') {
				bytes.put((byte) c);
				continue;
			}
			int high = (i + 2 < text.length()) ? Character.digit(text.charAt(i + 1), 16) : -1;
			int low = (high >= 0) ? Character.digit(text.charAt(i + 2), 16) : -1;
			if (high < 0 || low < 0) {
				throw new SuspiciousPathException("the path has a malformed percent-escape");
			}
			bytes.put((byte) ((high << 4) | low));
			i += 2;
		}
		bytes.flip();
		CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
			.onMalformedInput(CodingErrorAction.REPORT)
			.onUnmappableCharacter(CodingErrorAction.REPORT);
		try {
			CharBuffer chars = decoder.decode(bytes);
			return chars.toString();
		}
		catch (CharacterCodingException ex) {
			throw new SuspiciousPathException("the path is not valid UTF-8 once decoded");
		}
	}

	private static String join(List<String> segments) {
		if (segments.isEmpty()) {
			return "/";
		}
		StringBuilder path = new StringBuilder();
		for (String segment : segments) {
			path.append('/').append(segment);
		}
		return path.toString();
	}

}
