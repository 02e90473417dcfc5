package dev.ariadne.server;

import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.Objects;

import dev.ariadne.server.accesslog.AccessLog;
import dev.ariadne.server.accesslog.AccessLogFormat;

/**
 * Whether a listener keeps an access log, what a line says and where it goes: one line per
 * exchange, written off the request path by a thread of the log's own, in a named format or a
 * pattern, to a file in {@code directory} that begins anew each day (as its
 * {@code fileDateFormat} says) or to standard output.
 *
 * <p>The settings and their defaults follow Tomcat's {@code server.tomcat.accesslog.*}
 * ({@code directory}, {@code prefix}, {@code suffix}, {@code file-date-format}, {@code rotate},
 * {@code max-days}, {@code pattern}) and Jetty's {@code format}; {@code console} replaces the
 * file, and {@code queueCapacity} bounds the lines waiting for the writer (beyond it they are
 * dropped and counted, never waited for).
 *
 * @param enabled whether the listener logs its exchanges
 * @param format the named format, when no pattern is set
 * @param pattern a pattern of {@code %}-codes ({@link AccessLogFormat}), which replaces the
 * format; {@code null} for none
 * @param console whether lines go to standard output instead of a file
 * @param directory the directory of the files, relative to the working directory unless
 * absolute
 * @param prefix the start of a file's name
 * @param suffix the end of a file's name
 * @param fileDateFormat the date between prefix and suffix, as a {@link DateTimeFormatter}
 * pattern; a new file begins when it changes
 * @param rotate whether files are dated and begin anew; without, one file named prefix and
 * suffix
 * @param maxDays how many days of dated files are kept; -1 keeps every one
 * @param queueCapacity most lines waiting for the writer
 */
public record AccessLogConfig(boolean enabled, Format format, String pattern, boolean console, Path directory,
		String prefix, String suffix, String fileDateFormat, boolean rotate, int maxDays, int queueCapacity) {

	/** Default directory: {@code logs}. */
	public static final Path DEFAULT_DIRECTORY = Path.of("logs");

	/** Default file name prefix: {@code access_log}, as Tomcat's. */
	public static final String DEFAULT_PREFIX = "access_log";

	/** Default file name suffix: {@code .log}, as Tomcat's. */
	public static final String DEFAULT_SUFFIX = ".log";

	/** Default file date format: {@code .yyyy-MM-dd}, a file a day, as Tomcat's. */
	public static final String DEFAULT_FILE_DATE_FORMAT = ".yyyy-MM-dd";

	/** Default capacity of the queue of lines waiting for the writer: 8,192. */
	public static final int DEFAULT_QUEUE_CAPACITY = AccessLog.DEFAULT_CAPACITY;

	/** No access log. */
	public static final AccessLogConfig DISABLED = builder().build();

	/**
	 * The named formats.
	 */
	public enum Format {

		/** Apache's common log format: {@value AccessLogFormat#COMMON_PATTERN}. */
		COMMON,

		/** Apache's combined log format: {@value AccessLogFormat#COMBINED_PATTERN}. */
		COMBINED,

		/**
		 * One JSON object per line, with the wait for a worker, the pool and the I/O model
		 * beside the usual fields ({@link AccessLogFormat#json()}).
		 */
		JSON

	}

	/**
	 * Validates every setting.
	 */
	public AccessLogConfig {
		Objects.requireNonNull(format, "accesslog.format");
		Objects.requireNonNull(directory, "accesslog.directory");
		if (pattern != null) {
			try {
				AccessLogFormat.pattern(pattern);
			}
			catch (IllegalArgumentException ex) {
				throw new IllegalArgumentException(
						"ariadne.server.accesslog.pattern " + ex.getMessage() + ", but was '" + pattern + "'", ex);
			}
		}
		checkNamePart("accesslog.prefix", prefix);
		checkNamePart("accesslog.suffix", suffix);
		if (rotate) {
			checkDateFormat(fileDateFormat);
		}
		if (maxDays == 0 || maxDays < -1) {
			throw ServerConfig.invalid("accesslog.max-days", maxDays, "-1 (keep every file) or 1 or more");
		}
		if (queueCapacity <= 0 || queueCapacity > AccessLog.MAX_CAPACITY) {
			throw ServerConfig.invalid("accesslog.queue-capacity", queueCapacity,
					"between 1 and " + AccessLog.MAX_CAPACITY);
		}
	}

	private static void checkNamePart(String property, String part) {
		Objects.requireNonNull(part, property);
		if (part.indexOf('/') >= 0 || part.indexOf('\\') >= 0 || part.indexOf('\0') >= 0) {
			throw ServerConfig.invalid(property, "'" + part + "'", "part of a file name, without a path separator");
		}
	}

	private static void checkDateFormat(String fileDateFormat) {
		Objects.requireNonNull(fileDateFormat, "accesslog.file-date-format");
		String sample;
		try {
			sample = DateTimeFormatter.ofPattern(fileDateFormat, Locale.ROOT)
				.withZone(ZoneOffset.UTC)
				.format(Instant.EPOCH);
		}
		catch (IllegalArgumentException | java.time.DateTimeException ex) {
			throw ServerConfig.invalid("accesslog.file-date-format", "'" + fileDateFormat + "'",
					"a date-time pattern such as .yyyy-MM-dd (" + ex.getMessage() + ")");
		}
		if (sample.indexOf('/') >= 0 || sample.indexOf('\\') >= 0) {
			throw ServerConfig.invalid("accesslog.file-date-format", "'" + fileDateFormat + "'",
					"a date-time pattern that writes no path separator");
		}
	}

	/**
	 * Returns a builder with every default set: off, {@code combined}, {@code logs/access_log.<date>.log}.
	 * @return a new builder
	 */
	public static Builder builder() {
		return new Builder();
	}

	/**
	 * Returns a builder holding this configuration.
	 * @return a builder with every setting of this configuration
	 */
	public Builder toBuilder() {
		return new Builder().enabled(this.enabled)
			.format(this.format)
			.pattern(this.pattern)
			.console(this.console)
			.directory(this.directory)
			.prefix(this.prefix)
			.suffix(this.suffix)
			.fileDateFormat(this.fileDateFormat)
			.rotate(this.rotate)
			.maxDays(this.maxDays)
			.queueCapacity(this.queueCapacity);
	}

	/**
	 * Returns the compiled format of the lines: the pattern when set, else the named format.
	 * @return the format
	 */
	public AccessLogFormat lineFormat() {
		if (this.pattern != null) {
			return AccessLogFormat.pattern(this.pattern);
		}
		return switch (this.format) {
			case COMMON -> AccessLogFormat.common();
			case COMBINED -> AccessLogFormat.combined();
			case JSON -> AccessLogFormat.json();
		};
	}

	/**
	 * Builds an {@link AccessLogConfig}; every setting starts at its default.
	 */
	public static final class Builder {

		private boolean enabled;

		private Format format = Format.COMBINED;

		private String pattern;

		private boolean console;

		private Path directory = DEFAULT_DIRECTORY;

		private String prefix = DEFAULT_PREFIX;

		private String suffix = DEFAULT_SUFFIX;

		private String fileDateFormat = DEFAULT_FILE_DATE_FORMAT;

		private boolean rotate = true;

		private int maxDays = -1;

		private int queueCapacity = DEFAULT_QUEUE_CAPACITY;

		private Builder() {
		}

		/**
		 * Sets whether the listener logs its exchanges (default {@code false}).
		 * @param enabled whether on
		 * @return this builder
		 */
		public Builder enabled(boolean enabled) {
			this.enabled = enabled;
			return this;
		}

		/**
		 * Sets the named format (default {@code combined}).
		 * @param format the format
		 * @return this builder
		 */
		public Builder format(Format format) {
			this.format = format;
			return this;
		}

		/**
		 * Sets a pattern, which replaces the named format (default none).
		 * @param pattern the pattern, or {@code null}
		 * @return this builder
		 */
		public Builder pattern(String pattern) {
			this.pattern = pattern;
			return this;
		}

		/**
		 * Sets whether lines go to standard output instead of a file (default {@code false}).
		 * @param console whether to the console
		 * @return this builder
		 */
		public Builder console(boolean console) {
			this.console = console;
			return this;
		}

		/**
		 * Sets the directory of the files (default {@code logs}).
		 * @param directory the directory
		 * @return this builder
		 */
		public Builder directory(Path directory) {
			this.directory = directory;
			return this;
		}

		/**
		 * Sets the start of a file's name (default {@code access_log}).
		 * @param prefix the prefix
		 * @return this builder
		 */
		public Builder prefix(String prefix) {
			this.prefix = prefix;
			return this;
		}

		/**
		 * Sets the end of a file's name (default {@code .log}).
		 * @param suffix the suffix
		 * @return this builder
		 */
		public Builder suffix(String suffix) {
			this.suffix = suffix;
			return this;
		}

		/**
		 * Sets the date part of a file's name (default {@code .yyyy-MM-dd}).
		 * @param fileDateFormat a {@link DateTimeFormatter} pattern
		 * @return this builder
		 */
		public Builder fileDateFormat(String fileDateFormat) {
			this.fileDateFormat = fileDateFormat;
			return this;
		}

		/**
		 * Sets whether files are dated and begin anew (default {@code true}).
		 * @param rotate whether to rotate
		 * @return this builder
		 */
		public Builder rotate(boolean rotate) {
			this.rotate = rotate;
			return this;
		}

		/**
		 * Sets how many days of dated files are kept (default -1: every one).
		 * @param maxDays the days
		 * @return this builder
		 */
		public Builder maxDays(int maxDays) {
			this.maxDays = maxDays;
			return this;
		}

		/**
		 * Sets the most lines waiting for the writer (default 8,192).
		 * @param queueCapacity the capacity
		 * @return this builder
		 */
		public Builder queueCapacity(int queueCapacity) {
			this.queueCapacity = queueCapacity;
			return this;
		}

		/**
		 * Validates and builds the configuration.
		 * @return the configuration
		 * @throws IllegalArgumentException naming the first invalid setting
		 */
		public AccessLogConfig build() {
			return new AccessLogConfig(this.enabled, this.format, this.pattern, this.console, this.directory,
					this.prefix, this.suffix, this.fileDateFormat, this.rotate, this.maxDays, this.queueCapacity);
		}

	}

}
