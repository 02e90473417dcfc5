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

	private record Line(long second, String value, byte[] bytes) {
	}

	/**
	 * Returns {@code Date: <now>\r\n} as bytes. The array is shared: never modify it.
	 * @return the header line
	 */
	public byte[] headerLine() {
		return line().bytes;
	}

	/**
	 * Returns the value of the {@code Date} field now, for a protocol that encodes fields itself.
	 * @return the IMF-fixdate of this second
	 */
	public String value() {
		return line().value;
	}

	private Line line() {
		long second = System.currentTimeMillis() / 1000;
		Line line = this.current;
		if (line.second != second) {
			line = format(second);
			this.current = line;
		}
		return line;
	}

	private static Line format(long second) {
		String value = IMF_FIXDATE.format(Instant.ofEpochSecond(second));
		return new Line(second, value, ("Date: " + value + "\r\n").getBytes(StandardCharsets.US_ASCII));
	}

}
