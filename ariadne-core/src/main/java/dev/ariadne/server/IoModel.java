package dev.ariadne.server;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * How the server spends threads on connections ({@code ariadne.server.io-model}).
 */
public enum IoModel {

	/**
	 * An acceptor thread hands each connection to a pool worker that owns it until it closes,
	 * idle keep-alive time included. Busy means workers owning a connection; queued means
	 * accepted connections waiting for a worker.
	 */
	BLOCKING("blocking"),

	/**
	 * Selector threads own every socket and hand only complete requests to the worker pool, so
	 * an idle connection costs no thread. Busy means workers running a handler; queued means
	 * parsed requests waiting for a worker.
	 */
	EVENT_LOOP("event-loop"),

	/**
	 * One virtual thread per connection (Java 21 or later), with at most {@code threads.max}
	 * requests in flight. Busy means requests in flight; queued means requests waiting for a
	 * permit.
	 */
	VIRTUAL_THREADS("virtual-threads");

	private final String value;

	IoModel(String value) {
		this.value = value;
	}

	/**
	 * Returns the value used in configuration and in the {@code io_model} metric tag.
	 * @return the property value, for example {@code event-loop}
	 */
	public String value() {
		return this.value;
	}

	/**
	 * Returns the model for a configuration value, ignoring case and accepting underscores for
	 * dashes.
	 * @param value the configured value
	 * @return the model
	 * @throws IllegalArgumentException naming the allowed values when none matches
	 */
	public static IoModel fromValue(String value) {
		String normalized = (value != null) ? value.trim().replace('_', '-') : "";
		for (IoModel model : values()) {
			if (model.value.equalsIgnoreCase(normalized)) {
				return model;
			}
		}
		throw new IllegalArgumentException("Unknown io-model '" + value + "'; expected one of "
				+ Arrays.stream(values()).map(IoModel::value).collect(Collectors.joining(", ")));
	}

	@Override
	public String toString() {
		return this.value;
	}

}
