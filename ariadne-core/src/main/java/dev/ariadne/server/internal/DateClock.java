package dev.ariadne.server.internal;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The {@code Date} header line, formatted at most once per second and shared by every
 * connection (RFC 9110 §5.6.7 IMF-fixdate).
 */
public final class DateClock {

	private static final DateTimeFormatter IMF_FIXDATE = DateTimeFormatter
		.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US)
		.withZone(ZoneOffset.UTC);

	private volatile Line current = format(System.currentTimeMillis() / 1000);

	private record Line(long second, byte[] bytes) {
	}

	/**
	 * Returns {@code Date: <now>\r\n} as bytes. The array is shared: never modify it.
	 * @return the header line
	 */
	public byte[] headerLine() {
		long second = System.currentTimeMillis() / 1000;
		Line line = this.current;
		if (line.second != second) {
			line = format(second);
			this.current = line;
		}
		return line.bytes;
	}

	private static Line format(long second) {
		String text = "Date: " + IMF_FIXDATE.format(Instant.ofEpochSecond(second)) + "\r\n";
		return new Line(second, text.getBytes(StandardCharsets.US_ASCII));
	}

}
