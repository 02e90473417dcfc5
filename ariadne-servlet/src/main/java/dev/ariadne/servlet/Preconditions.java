package dev.ariadne.servlet;

/**
 * The conditional request fields of RFC 9110 section 13 against a file's validators, evaluated
 * in the order of section 13.2.2: {@code If-Match} (else {@code If-Unmodified-Since}), then
 * {@code If-None-Match} (else, for {@code GET} and {@code HEAD}, {@code If-Modified-Since}).
 * {@code If-Match} and {@code If-Range} compare entity tags strongly, {@code If-None-Match}
 * weakly; dates compare at the second, the precision of {@code Last-Modified}. A date that is
 * no HTTP date is ignored.
 */
final class Preconditions {

	/** What a request's conditions make of it. */
	enum Outcome {

		/** The conditions hold, or there are none: serve. */
		PROCEED,

		/** A {@code GET} or {@code HEAD} whose copy is current: 304. */
		NOT_MODIFIED,

		/** A condition is false: 412. */
		FAILED

	}

	private Preconditions() {
	}

	/**
	 * Evaluates the conditions of a request.
	 * @param method the request method
	 * @param ifMatch {@code If-Match}, its lines joined with commas, or {@code null}
	 * @param ifUnmodifiedSince {@code If-Unmodified-Since}, or {@code null}
	 * @param ifNoneMatch {@code If-None-Match}, its lines joined with commas, or {@code null}
	 * @param ifModifiedSince {@code If-Modified-Since}, or {@code null}
	 * @param etag the file's entity tag, with its quotes and any {@code W/}
	 * @param lastModified the file's modification time, in milliseconds since the epoch
	 * @return the outcome
	 */
	static Outcome evaluate(String method, String ifMatch, String ifUnmodifiedSince, String ifNoneMatch,
			String ifModifiedSince, String etag, long lastModified) {
		boolean read = "GET".equals(method) || "HEAD".equals(method);
		if (ifMatch != null) {
			if (!matches(ifMatch, etag, true)) {
				return Outcome.FAILED;
			}
		}
		else if (ifUnmodifiedSince != null) {
			long date = date(ifUnmodifiedSince);
			if (date >= 0 && seconds(lastModified) > date) {
				return Outcome.FAILED;
			}
		}
		if (ifNoneMatch != null) {
			if (matches(ifNoneMatch, etag, false)) {
				return read ? Outcome.NOT_MODIFIED : Outcome.FAILED;
			}
		}
		else if (read && ifModifiedSince != null) {
			long date = date(ifModifiedSince);
			if (date >= 0 && seconds(lastModified) <= date) {
				return Outcome.NOT_MODIFIED;
			}
		}
		return Outcome.PROCEED;
	}

	/**
	 * Returns whether a {@code Range} applies under an {@code If-Range} (RFC 9110 section
	 * 13.1.5): with none, or one that names the current file (an entity tag, compared strongly,
	 * or exactly its {@code Last-Modified}).
	 * @param ifRange the field value, or {@code null}
	 * @param etag the file's entity tag
	 * @param lastModified the file's modification time, in milliseconds
	 * @return whether to send the ranges rather than the whole file
	 */
	static boolean rangeApplies(String ifRange, String etag, long lastModified) {
		if (ifRange == null) {
			return true;
		}
		String value = ifRange.trim();
		if (value.startsWith("\"") || value.startsWith("W/")) {
			return !isWeak(value) && !isWeak(etag) && value.equals(etag);
		}
		long date = date(value);
		return date >= 0 && date == seconds(lastModified);
	}

	/**
	 * Whether a field of entity tags, or {@code *}, matches a tag.
	 * @param field the comma-separated tags
	 * @param etag the current tag
	 * @param strong whether to compare strongly (weak tags match nothing)
	 */
	static boolean matches(String field, String etag, boolean strong) {
		String value = field.trim();
		if (value.equals("*")) {
			return true;
		}
		if (strong && isWeak(etag)) {
			return false;
		}
		String opaque = opaque(etag);
		int at = 0;
		int length = value.length();
		while (at < length) {
			char c = value.charAt(at);
			if (c == ',' || c == ' ' || c == '\t') {
				at++;
				continue;
			}
			boolean weak = value.startsWith("W/", at);
			int open = weak ? at + 2 : at;
			if (open >= length || value.charAt(open) != '"') {
				return false;
			}
			int close = value.indexOf('"', open + 1);
			if (close < 0) {
				return false;
			}
			if (!(strong && weak) && value.regionMatches(open, opaque, 0, opaque.length())
					&& close - open + 1 == opaque.length()) {
				return true;
			}
			at = close + 1;
		}
		return false;
	}

	private static boolean isWeak(String etag) {
		return etag.startsWith("W/");
	}

	/** The quoted part of a tag. */
	private static String opaque(String etag) {
		return isWeak(etag) ? etag.substring(2) : etag;
	}

	/** The milliseconds of an HTTP date, or -1 if it is none. */
	private static long date(String value) {
		try {
			return HttpDates.parse(value);
		}
		catch (IllegalArgumentException ex) {
			return -1;
		}
	}

	private static long seconds(long millis) {
		return millis - Math.floorMod(millis, 1000L);
	}

}
