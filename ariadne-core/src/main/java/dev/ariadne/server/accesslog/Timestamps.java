package dev.ariadne.server.accesslog;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * The two time stamps of the formats, each formatted once per second and copied for every
 * line of that second: NCSA's {@code [10/Oct/2000:13:55:36 -0700]} in the log's zone, and
 * ISO 8601's {@code 2000-10-10T20:55:36.123Z} in UTC. Owned by the writer thread.
 */
final class Timestamps {

	private static final DateTimeFormatter NCSA = DateTimeFormatter.ofPattern("dd/MMM/yyyy:HH:mm:ss Z",
			Locale.ENGLISH);

	private static final DateTimeFormatter ISO = DateTimeFormatter.ofPattern("yyyy-MM-dd'T'HH:mm:ss", Locale.ROOT)
		.withZone(ZoneOffset.UTC);

	private final DateTimeFormatter ncsa;

	private long ncsaSecond = Long.MIN_VALUE;

	private byte[] ncsaText;

	private long isoSecond = Long.MIN_VALUE;

	private byte[] isoText;

	/**
	 * Creates the stamps of a log.
	 * @param zone the zone of the NCSA stamp
	 */
	Timestamps(ZoneId zone) {
		this.ncsa = NCSA.withZone(zone);
	}

	/** Appends {@code [dd/MMM/yyyy:HH:mm:ss Z]}. */
	void ncsa(long epochMillis, LineBuffer out) {
		long second = Math.floorDiv(epochMillis, 1000);
		if (second != this.ncsaSecond) {
			this.ncsaText = ("[" + this.ncsa.format(Instant.ofEpochSecond(second)) + "]")
				.getBytes(StandardCharsets.US_ASCII);
			this.ncsaSecond = second;
		}
		out.ascii(this.ncsaText, 0, this.ncsaText.length);
	}

	/** Appends {@code yyyy-MM-ddTHH:mm:ss.SSSZ}, in UTC. */
	void iso(long epochMillis, LineBuffer out) {
		long second = Math.floorDiv(epochMillis, 1000);
		if (second != this.isoSecond) {
			this.isoText = ISO.format(Instant.ofEpochSecond(second)).getBytes(StandardCharsets.US_ASCII);
			this.isoSecond = second;
		}
		out.ascii(this.isoText, 0, this.isoText.length);
		int millis = (int) Math.floorMod(epochMillis, 1000);
		out.ascii('.');
		out.ascii((char) ('0' + millis / 100));
		out.ascii((char) ('0' + (millis / 10) % 10));
		out.ascii((char) ('0' + millis % 10));
		out.ascii('Z');
	}

}
