package dev.ariadne.server.diagnosis;

import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * A {@link Diagnosis}' current verdict on one pool of one listener.
 *
 * @param listener the listener's name ({@code app}, {@code management})
 * @param pool the pool's name ({@code default}, or a route pool's)
 * @param status whether clients wait because of this pool, and for how long
 * @param cause the primary cause when starved, {@code null} when ok
 * @param evidence the figures that decided the verdict, in a sentence
 * @param advice the changes advised, empty when ok
 * @param since when the verdict (its status and cause) began
 * @param last the pool's last starvation that has ended, {@code null} when it has had none
 */
public record Verdict(String listener, String pool, Status status, Cause cause, String evidence,
		List<Advice> advice, Instant since, Episode last) {

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
	 * A starvation that has ended.
	 *
	 * @param cause the cause named last
	 * @param began when the pool became starved
	 * @param ended when it was no longer starved
	 */
	public record Episode(Cause cause, Instant began, Instant ended) {

		/**
		 * Checks every component.
		 */
		public Episode {
			Objects.requireNonNull(cause, "cause");
			Objects.requireNonNull(began, "began");
			Objects.requireNonNull(ended, "ended");
		}

	}

	/**
	 * Whether clients wait because of a pool.
	 */
	public enum Status {

		/** Nothing waits for long, or what waits is not starved of workers. */
		OK("ok"),

		/**
		 * Every worker is busy and work waits, but every client is served in turn, briefly,
		 * while the CPU is near the cores' limit: more throughput needs cores or instances,
		 * not another setting. Not starvation.
		 */
		CPU_SATURATED("cpu-saturated"),

		/** Clients wait for a worker or a connection, for a named cause. */
		STARVED("starved");

		private final String value;

		Status(String value) {
			this.value = value;
		}

		/**
		 * Returns the status as endpoints spell it.
		 * @return {@code ok}, {@code cpu-saturated} or {@code starved}
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
