package dev.ariadne.servlet;

import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;

/**
 * HTTP dates (RFC 9110 section 5.6.7): written in IMF-fixdate, read in that form and the two
 * obsolete ones.
 */
final class HttpDates {

	private static final DateTimeFormatter IMF_FIXDATE = DateTimeFormatter.RFC_1123_DATE_TIME;

	private static final DateTimeFormatter WRITER = DateTimeFormatter
		.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
		.withZone(ZoneOffset.UTC);

	private static final DateTimeFormatter RFC_850 = DateTimeFormatter.ofPattern("EEEE, dd-MMM-yy HH:mm:ss 'GMT'",
			Locale.US);

	private static final DateTimeFormatter ASCTIME = DateTimeFormatter.ofPattern("EEE MMM ppd HH:mm:ss yyyy",
			Locale.US);

	private HttpDates() {
	}

	static String format(long epochMillis) {
		return WRITER.format(Instant.ofEpochMilli(epochMillis));
	}

	/**
	 * Parses an HTTP date.
	 * @param text the header value
	 * @return milliseconds since the epoch
	 * @throws IllegalArgumentException if the value is no HTTP date
	 */
	static long parse(String text) {
		String value = text.trim();
		try {
			return ZonedDateTime.parse(value, IMF_FIXDATE).toInstant().toEpochMilli();
		}
		catch (DateTimeParseException ex) {
			// try the obsolete forms
		}
		for (DateTimeFormatter format : new DateTimeFormatter[] { RFC_850, ASCTIME }) {
			try {
				return LocalDateTime.parse(value, format).toInstant(ZoneOffset.UTC).toEpochMilli();
			}
			catch (DateTimeParseException ex) {
				// next form
			}
		}
		throw new IllegalArgumentException("Not an HTTP date: '" + text + "'");
	}

}
