package dev.ariadne.server.diagnosis;

import java.util.List;
import java.util.Objects;

/**
 * What {@link Rules} concluded from one observation of a pool whose workers were all busy
 * while work waited: starved for a cause, or saturated CPU with every client served.
 *
 * @param status {@link Verdict.Status#STARVED} or {@link Verdict.Status#CPU_SATURATED}
 * @param cause the primary cause when starved, else {@code null}
 * @param evidence the figures, in a sentence
 * @param advice the changes advised
 */
record Finding(Verdict.Status status, Cause cause, String evidence, List<Advice> advice) {

	/**
	 * Checks that a starved finding, and only it, has a cause.
	 */
	Finding {
		Objects.requireNonNull(status, "status");
		if (status == Verdict.Status.OK || (status == Verdict.Status.STARVED) != (cause != null)) {
			throw new IllegalArgumentException("A finding is starved with a cause or CPU saturated without one");
		}
		advice = List.copyOf(advice);
	}

	/**
	 * Creates a starved finding.
	 * @param cause the primary cause
	 * @param evidence the figures
	 * @param advice the changes advised
	 */
	Finding(Cause cause, String evidence, List<Advice> advice) {
		this(Verdict.Status.STARVED, cause, evidence, advice);
	}

	/**
	 * Returns whether the pool was starved.
	 * @return whether the status is {@link Verdict.Status#STARVED}
	 */
	boolean starved() {
		return this.status == Verdict.Status.STARVED;
	}

}
