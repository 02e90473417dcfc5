package dev.ariadne.server.diagnosis;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A {@link Diagnosis}' current verdict on one pool of one listener.
 *
 * @param listener the listener's name ({@code app}, {@code management})
 * @param pool the pool's name ({@code default}, or a route pool's)
 * @param status whether clients wait because of this pool
 * @param cause the primary cause when starved, {@code null} when ok
 * @param evidence the figures that decided the verdict, in a sentence
 * @param advice the changes advised, empty when ok
 * @param since when the verdict (its status and cause) began
 */
public record Verdict(String listener, String pool, Status status, Cause cause, String evidence,
		List<Advice> advice, Instant since) {

	/**
	 * Checks the components and copies the advice.
	 */
	public Verdict {
		Objects.requireNonNull(listener, "listener");
		Objects.requireNonNull(pool, "pool");
		Objects.requireNonNull(status, "status");
		Objects.requireNonNull(evidence, "evidence");
		Objects.requireNonNull(since, "since");
		advice = List.copyOf(advice);
		if ((status == Status.STARVED) != (cause != null)) {
			throw new IllegalArgumentException("A starved verdict has a cause and an ok one has none");
		}
	}

	/**
	 * Returns whether the pool is starved.
	 * @return whether the status is {@link Status#STARVED}
	 */
	public boolean starved() {
		return this.status == Status.STARVED;
	}

	/**
	 * Whether clients wait because of a pool.
	 */
	public enum Status {

		/** Nothing waits for long, or what waits is not starved of workers. */
		OK("ok"),

		/** Clients wait for a worker or a connection, for a named cause. */
		STARVED("starved");

		private final String value;

		Status(String value) {
			this.value = value;
		}

		/**
		 * Returns the status as endpoints spell it.
		 * @return {@code ok} or {@code starved}
		 */
		public String value() {
			return this.value;
		}

		@Override
		public String toString() {
			return this.value;
		}

	}

}
