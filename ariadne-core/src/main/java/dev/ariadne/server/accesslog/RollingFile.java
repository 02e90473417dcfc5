package dev.ariadne.server.accesslog;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * An access log's file in a directory, named as Tomcat names its own: prefix, date, suffix
 * ({@code access_log.2026-12-01.log}). A new file begins when the date as the file-date format
 * writes it changes (daily with the default {@code .yyyy-MM-dd}, hourly with a pattern that has
 * the hour), and files of this log older than {@code maxDays} are deleted when a file begins.
 * Without rotation the name is prefix and suffix, and the file only grows. Lines are appended
 * to what the file holds already. Used by the log's writer thread only.
 */
public final class RollingFile implements LogOutput {

	private static final long MILLIS_PER_SECOND = 1000;

	private final Path directory;

	private final String prefix;

	private final String suffix;

	/** Writes the date part of a name; {@code null} when the log does not rotate. */
	private final DateTimeFormatter dates;

	private final int maxDays;

	private final ZoneId zone;

	private OutputStream out;

	private Path file;

	private String period = "";

	private long checkedSecond = Long.MIN_VALUE;

	/** The time of the last roll, for a file opened again after a failure. */
	private long lastNow;

	/**
	 * Creates the file of a log, not yet open.
	 * @param directory the directory, created when missing
	 * @param prefix the start of the name
	 * @param suffix the end of the name
	 * @param fileDateFormat the date part's {@link DateTimeFormatter} pattern, or {@code null}
	 * for a log that never rotates
	 * @param maxDays how many days of rotated files are kept, or 0 or less to keep every one
	 * @param zone the zone the date part is written in
	 */
	public RollingFile(Path directory, String prefix, String suffix, String fileDateFormat, int maxDays, ZoneId zone) {
		this.directory = directory;
		this.prefix = prefix;
		this.suffix = suffix;
		this.dates = (fileDateFormat != null) ? DateTimeFormatter.ofPattern(fileDateFormat, Locale.ROOT).withZone(zone)
				: null;
		this.maxDays = maxDays;
		this.zone = zone;
	}

	/**
	 * Returns the file lines go to now.
	 * @return the file, {@code null} before {@link #open}
	 */
	public Path file() {
		return this.file;
	}

	@Override
	public void open(long nowMillis) throws IOException {
		Files.createDirectories(this.directory);
		begin(nowMillis);
	}

	@Override
	public void roll(long nowMillis) throws IOException {
		this.lastNow = nowMillis;
		long second = Math.floorDiv(nowMillis, MILLIS_PER_SECOND);
		if (this.dates == null || second == this.checkedSecond) {
			return;
		}
		this.checkedSecond = second;
		if (!this.dates.format(Instant.ofEpochMilli(nowMillis)).equals(this.period)) {
			OutputStream previous = this.out;
			this.out = null;
			if (previous != null) {
				previous.close();
			}
			begin(nowMillis);
		}
	}

	private void begin(long nowMillis) throws IOException {
		this.lastNow = nowMillis;
		this.period = (this.dates != null) ? this.dates.format(Instant.ofEpochMilli(nowMillis)) : "";
		this.checkedSecond = Math.floorDiv(nowMillis, MILLIS_PER_SECOND);
		this.file = this.directory.resolve(this.prefix + this.period + this.suffix);
		this.out = Files.newOutputStream(this.file, StandardOpenOption.CREATE, StandardOpenOption.APPEND,
				StandardOpenOption.WRITE);
		if (this.dates != null && this.maxDays > 0) {
			deleteOlderThan(LocalDate.ofInstant(Instant.ofEpochMilli(nowMillis), this.zone).minusDays(this.maxDays));
		}
	}

	/** Deletes this log's files dated before a day: its name, with a date part the format reads back. */
	private void deleteOlderThan(LocalDate oldestKept) throws IOException {
		try (DirectoryStream<Path> files = Files.newDirectoryStream(this.directory)) {
			for (Path candidate : files) {
				String name = candidate.getFileName().toString();
				if (candidate.equals(this.file) || name.length() < this.prefix.length() + this.suffix.length()
						|| !name.startsWith(this.prefix) || !name.endsWith(this.suffix)) {
					continue;
				}
				LocalDate date = dateOf(name.substring(this.prefix.length(), name.length() - this.suffix.length()),
						candidate);
				if (date != null && date.isBefore(oldestKept)) {
					Files.deleteIfExists(candidate);
				}
			}
		}
	}

	/**
	 * The day of a file's date part; for a format without a whole date (monthly), the day it was
	 * last written; {@code null} when the part is not one this format writes (another file).
	 */
	private LocalDate dateOf(String part, Path file) throws IOException {
		try {
			java.time.temporal.TemporalAccessor parsed = this.dates.parse(part);
			try {
				return LocalDate.from(parsed);
			}
			catch (DateTimeException ex) {
				return LocalDate.ofInstant(Files.getLastModifiedTime(file).toInstant(), this.zone);
			}
		}
		catch (DateTimeException ex) {
			return null;
		}
	}

	@Override
	public void write(byte[] bytes, int offset, int length) throws IOException {
		if (this.out == null) {
			// the last roll failed to open the next file: try again
			begin(this.lastNow);
		}
		this.out.write(bytes, offset, length);
	}

	@Override
	public void close() throws IOException {
		OutputStream out = this.out;
		this.out = null;
		if (out != null) {
			out.close();
		}
	}

	@Override
	public String toString() {
		return String.valueOf(this.directory.resolve(this.prefix + ((this.dates != null) ? "<date>" : "") + this.suffix));
	}

}
