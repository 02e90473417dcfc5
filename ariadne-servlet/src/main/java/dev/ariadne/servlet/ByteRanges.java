package dev.ariadne.servlet;

import java.util.Arrays;
import java.util.Locale;

/**
 * What a {@code Range} header asks of a representation of a known length (RFC 9110 section
 * 14.2): the whole of it (no header, or one that is ignored), nothing it can satisfy (416), or
 * the byte ranges to send, in the order asked.
 *
 * <p>Ignored, so that the whole representation goes out with 200, as section 14.2 allows: a
 * unit other than {@code bytes}, a range set that breaks the grammar (a last position before
 * the first, a number too large, a stray character), more than {@value #MAX_RANGES} ranges, and
 * a range set whose satisfiable ranges overlap (the marks of a broken client or of an attack
 * that makes the server send a file many times over). Ranges partly beyond the end are cut at
 * the end; ranges wholly beyond it are dropped, and 416 is for a set with none left.
 */
final class ByteRanges {

	/** The most ranges served from one request; a request asking more gets the whole. */
	static final int MAX_RANGES = 16;

	/** The largest position taken, 18 digits: larger numbers fail the parse, never overflow. */
	private static final int MAX_DIGITS = 18;

	static final ByteRanges WHOLE = new ByteRanges(new long[0], false);

	static final ByteRanges UNSATISFIABLE = new ByteRanges(new long[0], true);

	/** First and last position of each range, in pairs. */
	private final long[] bounds;

	private final boolean unsatisfiable;

	private ByteRanges(long[] bounds, boolean unsatisfiable) {
		this.bounds = bounds;
		this.unsatisfiable = unsatisfiable;
	}

	/**
	 * Reads a {@code Range} header.
	 * @param header the field value, or {@code null}
	 * @param length the length of the representation
	 * @return the ranges to send, {@link #WHOLE} or {@link #UNSATISFIABLE}
	 */
	static ByteRanges parse(String header, long length) {
		if (header == null) {
			return WHOLE;
		}
		int equals = header.indexOf('=');
		if (equals < 0 || !header.substring(0, equals).trim().toLowerCase(Locale.ROOT).equals("bytes")) {
			return WHOLE;
		}
		long[] bounds = new long[2 * MAX_RANGES];
		int count = 0;
		boolean any = false;
		for (String element : header.substring(equals + 1).split(",", -1)) {
			String spec = element.trim();
			if (spec.isEmpty()) {
				// the list rule lets empty elements be, so long as one is not
				continue;
			}
			any = true;
			long[] range = spec(spec, length);
			if (range == null) {
				return WHOLE;
			}
			if (range.length == 0) {
				continue;
			}
			if (count == MAX_RANGES) {
				return WHOLE;
			}
			bounds[2 * count] = range[0];
			bounds[2 * count + 1] = range[1];
			count++;
		}
		if (!any) {
			return WHOLE;
		}
		if (count == 0) {
			return UNSATISFIABLE;
		}
		ByteRanges ranges = new ByteRanges(Arrays.copyOf(bounds, 2 * count), false);
		return ranges.overlap() ? WHOLE : ranges;
	}

	/**
	 * Reads one range spec.
	 * @return its first and last position within the length; empty if it is not satisfiable;
	 * {@code null} if it breaks the grammar
	 */
	private static long[] spec(String spec, long length) {
		int dash = spec.indexOf('-');
		if (dash < 0) {
			return null;
		}
		if (dash == 0) {
			long suffix = number(spec, 1, spec.length());
			if (suffix < 0) {
				return null;
			}
			return (suffix == 0 || length == 0) ? new long[0] : new long[] { Math.max(0, length - suffix), length - 1 };
		}
		long first = number(spec, 0, dash);
		long last = (dash == spec.length() - 1) ? Long.MAX_VALUE : number(spec, dash + 1, spec.length());
		if (first < 0 || last < 0 || last < first) {
			return null;
		}
		return (first >= length) ? new long[0] : new long[] { first, Math.min(last, length - 1) };
	}

	/** The decimal number between two indexes, or -1 if they hold anything else. */
	private static long number(String text, int start, int end) {
		if (start >= end || end - start > MAX_DIGITS) {
			return -1;
		}
		long value = 0;
		for (int i = start; i < end; i++) {
			char c = text.charAt(i);
			if (c < '0' || c > '9') {
				return -1;
			}
			value = value * 10 + (c - '0');
		}
		return value;
	}

	private boolean overlap() {
		for (int i = 0; i < count(); i++) {
			for (int j = i + 1; j < count(); j++) {
				if (first(i) <= last(j) && first(j) <= last(i)) {
					return true;
				}
			}
		}
		return false;
	}

	/** Whether the whole representation is to be sent. */
	boolean whole() {
		return this.bounds.length == 0 && !this.unsatisfiable;
	}

	/** Whether none of the ranges asked is within the representation: 416. */
	boolean unsatisfiable() {
		return this.unsatisfiable;
	}

	/** The number of ranges to send; 0 for the whole or none. */
	int count() {
		return this.bounds.length / 2;
	}

	long first(int range) {
		return this.bounds[2 * range];
	}

	long last(int range) {
		return this.bounds[2 * range + 1];
	}

	/** The length of a range, in bytes. */
	long length(int range) {
		return last(range) - first(range) + 1;
	}

	/**
	 * Returns the {@code Content-Range} of a range.
	 * @param range the range's index
	 * @param total the representation's length
	 * @return for example {@code bytes 0-99/1000}
	 */
	String contentRange(int range, long total) {
		return "bytes " + first(range) + "-" + last(range) + "/" + total;
	}

	@Override
	public String toString() {
		if (whole() || this.unsatisfiable) {
			return whole() ? "whole" : "unsatisfiable";
		}
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < count(); i++) {
			text.append((i > 0) ? "," : "").append(first(i)).append('-').append(last(i));
		}
		return text.toString();
	}

}
