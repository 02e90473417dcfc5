package dev.ariadne.server.diagnosis;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.ariadne.server.stats.RouteWork;

/**
 * One pool's verdict over time: a cause must be found in {@value #TO_STARVED} evaluations in a
 * row to be named, and none in {@value #TO_OK} in a row to return to ok, so that a burst does
 * not make a verdict and a verdict does not flap. Also keeps the pool's route-work readings
 * of the last evaluations, for the window {@link Rules} reads. Used by the diagnosis' thread
 * only.
 */
final class PoolTracker {

	/** Evaluations in a row that must find the same cause before it is named. */
	static final int TO_STARVED = 2;

	/** Evaluations in a row that must find nothing before a starved pool is ok again. */
	static final int TO_OK = 3;

	private final String listener;

	private final String pool;

	private final int window;

	private final ArrayDeque<List<RouteWork>> readings = new ArrayDeque<>();

	private Verdict verdict;

	private Cause pending;

	private int pendingCount;

	private int okCount;

	/**
	 * Creates a tracker, ok until told otherwise.
	 * @param listener the listener's name
	 * @param pool the pool's name
	 * @param window how many evaluations the route-work window spans
	 * @param now the first evaluation's time
	 */
	PoolTracker(String listener, String pool, int window, Instant now) {
		this.listener = listener;
		this.pool = pool;
		this.window = window;
		this.verdict = new Verdict(listener, pool, Verdict.Status.OK, null, "not evaluated yet", List.of(), now);
	}

	/**
	 * Records this evaluation's cumulative route work and returns the work done over the window.
	 * @param cumulative the route work since start
	 * @return the work per route since the oldest reading kept
	 */
	List<RouteWork> routeWindow(List<RouteWork> cumulative) {
		this.readings.addLast(cumulative);
		while (this.readings.size() > this.window + 1) {
			this.readings.removeFirst();
		}
		Map<String, RouteWork> before = new HashMap<>();
		for (RouteWork route : this.readings.peekFirst()) {
			before.put(route.route(), route);
		}
		List<RouteWork> delta = new ArrayList<>(cumulative.size());
		for (RouteWork route : cumulative) {
			RouteWork old = (this.readings.size() > 1) ? before.get(route.route()) : route;
			long exchanges = route.exchanges() - ((old != null) ? old.exchanges() : 0);
			long nanos = route.workerNanos() - ((old != null) ? old.workerNanos() : 0);
			if (exchanges > 0 || nanos > 0) {
				delta.add(new RouteWork(route.route(), exchanges, nanos));
			}
		}
		return delta;
	}

	/**
	 * Returns the seconds the route window spans now.
	 * @param intervalSeconds the seconds between two evaluations
	 * @return the window's length
	 */
	int windowSeconds(int intervalSeconds) {
		return Math.max(1, (this.readings.size() - 1) * intervalSeconds);
	}

	/**
	 * Takes one evaluation's finding.
	 * @param finding the finding, {@code null} when the pool was not starved
	 * @param okEvidence the evidence of an ok verdict, used when there is no finding
	 * @param now the evaluation's time
	 * @return the previous verdict when the status or cause changed, else {@code null}
	 */
	Verdict update(Finding finding, String okEvidence, Instant now) {
		Verdict previous = this.verdict;
		if (finding == null) {
			this.pendingCount = 0;
			this.pending = null;
			this.okCount++;
			if (!previous.starved()) {
				this.verdict = new Verdict(this.listener, this.pool, Verdict.Status.OK, null, okEvidence, List.of(),
						previous.since());
				return null;
			}
			if (this.okCount < TO_OK) {
				return null;
			}
			this.verdict = new Verdict(this.listener, this.pool, Verdict.Status.OK, null, okEvidence, List.of(), now);
			return previous;
		}
		this.okCount = 0;
		if (finding.cause() == this.pending) {
			this.pendingCount++;
		}
		else {
			this.pending = finding.cause();
			this.pendingCount = 1;
		}
		if (previous.starved() && previous.cause() == finding.cause()) {
			this.verdict = new Verdict(this.listener, this.pool, Verdict.Status.STARVED, finding.cause(),
					finding.evidence(), finding.advice(), previous.since());
			return null;
		}
		if (this.pendingCount < TO_STARVED) {
			return null;
		}
		this.verdict = new Verdict(this.listener, this.pool, Verdict.Status.STARVED, finding.cause(),
				finding.evidence(), finding.advice(), now);
		return previous;
	}

	/**
	 * Returns the current verdict.
	 * @return the verdict
	 */
	Verdict verdict() {
		return this.verdict;
	}

}
