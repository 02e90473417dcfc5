package dev.ariadne.server.stats;

/**
 * What ran out when {@code accept()} failed on the listening socket, as the {@code reason} tag
 * of accept failures.
 */
public enum AcceptError {

	/** The process or the system had no file descriptor left ({@code EMFILE}, {@code ENFILE}). */
	DESCRIPTORS("descriptors"),

	/** The kernel had no socket buffer space left ({@code ENOBUFS}). */
	BUFFERS("buffers"),

	/** The kernel or the JVM had no memory left ({@code ENOMEM}, an {@link OutOfMemoryError}). */
	MEMORY("memory"),

	/** Any other failure of {@code accept()}. */
	OTHER("other");

	private final String tag;

	AcceptError(String tag) {
		this.tag = tag;
	}

	/**
	 * Returns the value of the {@code reason} tag.
	 * @return the tag value
	 */
	public String tag() {
		return this.tag;
	}

	/**
	 * Tells what a failure of {@code accept()} ran out of, from its message: the JDK reports
	 * the operating system's error text ("Too many open files", "No buffer space available",
	 * "Cannot allocate memory").
	 * @param failure what {@code accept()} threw
	 * @return the cause, {@link #OTHER} when it names none of the above
	 */
	public static AcceptError of(Throwable failure) {
		if (failure instanceof OutOfMemoryError) {
			return MEMORY;
		}
		String message = (failure.getMessage() != null) ? failure.getMessage() : "";
		if (message.contains("Too many open files")) {
			return DESCRIPTORS;
		}
		if (message.contains("No buffer space")) {
			return BUFFERS;
		}
		if (message.contains("Cannot allocate memory")) {
			return MEMORY;
		}
		return OTHER;
	}

}
