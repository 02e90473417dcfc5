package dev.ariadne.server.diagnosis;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import dev.ariadne.server.stats.RouteWork;

/**
 * One pool's verdict over time, held steady while the load is:
 * <ul>
 * <li>a pool becomes starved after {@value #TO_STARVED} starved findings in a row, and ok (or
 * cpu-saturated) again after {@value #TO_OK} findings in a row that are not starved;</li>
 * <li>the cause named is the one found most often over the last {@value #CAUSE_WINDOW}
 * evaluations, ties going to the cause declared first in {@link Cause} (the structural one);</li>
 * <li>while a starvation is younger than that window, the cause follows the window's leader,
 * so that a transient at the start of a load is corrected; after that, the cause changes only
 * when another has led the window for {@value #HOLD} evaluations in a row, so that a cause
 * found now and then, or two taking turns, never switch the verdict back and forth.</li>
 * </ul>
 * Also keeps the pool's route-work and queue readings of the last evaluations, for the window
 * {@link Rules} reads. Used by the diagnosis' thread only.
 */
final class PoolTracker {

	/** Starved findings in a row before a pool is starved. */
	static final int TO_STARVED = 2;

	/** Findings in a row that are not starved before a starved pool is ok again. */
	static final int TO_OK = 3;

	/** Evaluations whose causes are counted to pick the leading one. */
	static final int CAUSE_WINDOW = 10;

	/** Evaluations in a row another cause must lead before it replaces a starved pool's cause. */
	static final int HOLD = 15;

	private final String listener;

	private final String pool;

	private final int window;

	private final ArrayDeque<List<RouteWork>> readings = new ArrayDeque<>();

	private final ArrayDeque<long[]> queueReadings = new ArrayDeque<>();

	/** The causes of the last evaluations, {@code null} where the pool was not starved; a ring. */
	private final Cause[] causes = new Cause[CAUSE_WINDOW];

	private int evaluations;

	private final Map<Cause, Finding> latest = new EnumMap<>(Cause.class);

	private Verdict verdict;

	private Instant episodeBegan;

	/** The evaluation at which the current starvation began. */
	private int episodeStart;

	private Verdict.Episode last;

	private int starvedRun;

	private int notStarvedRun;

	private Cause challenger;

	private int challengerRun;

	/**
	 * Creates a tracker, ok until told otherwise.
	 * @param listener the listener's name
	 * @param pool the pool's name
	 * @param window how many evaluations the route-work and queue window spans
	 * @param now the first evaluation's time
	 */
	PoolTracker(String listener, String pool, int window, Instant now) {
		this.listener = listener;
		this.pool = pool;
		this.window = window;
		this.verdict = new Verdict(listener, pool, Verdict.Status.OK, null, "not evaluated yet", List.of(), now,
				null);
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
	 * Records this evaluation's queue length and dequeue count, and returns the window's.
	 * @param queued the items waiting now
	 * @param dequeued the items that got a worker after waiting, since the pool started; -1
	 * where not counted
	 * @return the queue over the window: the readings after the oldest one kept, which opens it
	 */
	QueueWindow queueWindow(int queued, long dequeued) {
		this.queueReadings.addLast(new long[] { queued, dequeued });
		while (this.queueReadings.size() > this.window + 1) {
			this.queueReadings.removeFirst();
		}
		long[] oldest = this.queueReadings.peekFirst();
		if (this.queueReadings.size() == 1) {
			return new QueueWindow(queued, -1);
		}
		long sum = -oldest[0];
		for (long[] reading : this.queueReadings) {
			sum += reading[0];
		}
		double average = (double) sum / (this.queueReadings.size() - 1);
		return new QueueWindow(average, (dequeued >= 0 && oldest[1] >= 0) ? dequeued - oldest[1] : -1);
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
	 * @param finding the finding, {@code null} when the pool was neither starved nor saturated
	 * @param okEvidence the evidence of an ok verdict, used when there is no finding
	 * @param now the evaluation's time
	 * @return the previous verdict when the pool became starved, changed cause, or stopped
	 * being starved; else {@code null}
	 */
	Verdict update(Finding finding, String okEvidence, Instant now) {
		Verdict previous = this.verdict;
		boolean starved = finding != null && finding.starved();
		this.causes[this.evaluations++ % CAUSE_WINDOW] = starved ? finding.cause() : null;
		if (starved) {
			this.latest.put(finding.cause(), finding);
			this.starvedRun++;
			this.notStarvedRun = 0;
		}
		else {
			this.notStarvedRun++;
			this.starvedRun = 0;
		}
		Cause leader = leader();
		if (previous.starved()) {
			if (this.notStarvedRun >= TO_OK) {
				this.last = new Verdict.Episode(previous.cause(), this.episodeBegan, now);
				this.verdict = notStarved(finding, okEvidence, previous, now);
				resetChallenger();
				return previous;
			}
			if (leader != null && leader != previous.cause()) {
				this.challengerRun = (leader == this.challenger) ? this.challengerRun + 1 : 1;
				this.challenger = leader;
			}
			else {
				resetChallenger();
			}
			boolean young = this.evaluations - this.episodeStart <= CAUSE_WINDOW;
			if (young && leader != null && leader != previous.cause() || this.challengerRun >= HOLD) {
				// while the starvation is younger than the window, its first findings (a transient
				// at the start of a load) may be outvoted at once; later only a cause that holds
				this.verdict = starved(this.latest.get(leader), now);
				resetChallenger();
				return previous;
			}
			this.verdict = starved(this.latest.get(previous.cause()), previous.since());
			return null;
		}
		if (this.starvedRun >= TO_STARVED) {
			this.episodeBegan = now;
			this.episodeStart = this.evaluations;
			this.verdict = starved(this.latest.get(leader), now);
			return previous;
		}
		this.verdict = notStarved(finding, okEvidence, previous, now);
		return null;
	}

	/** The cause found most often over the window, the first declared on a tie; null if none. */
	private Cause leader() {
		int[] counts = new int[Cause.values().length];
		for (Cause cause : this.causes) {
			if (cause != null) {
				counts[cause.ordinal()]++;
			}
		}
		Cause leader = null;
		for (Cause cause : Cause.values()) {
			if (counts[cause.ordinal()] > 0 && (leader == null || counts[cause.ordinal()] > counts[leader.ordinal()])) {
				leader = cause;
			}
		}
		return leader;
	}

	private Verdict starved(Finding finding, Instant since) {
		return new Verdict(this.listener, this.pool, Verdict.Status.STARVED, finding.cause(), finding.evidence(),
				finding.advice(), since, this.last);
	}

	/** Ok, or cpu-saturated when the finding says so; the time kept while the status is. */
	private Verdict notStarved(Finding finding, String okEvidence, Verdict previous, Instant now) {
		Verdict.Status status = (finding != null && !finding.starved()) ? finding.status() : Verdict.Status.OK;
		Instant since = (previous.status() == status) ? previous.since() : now;
		if (status == Verdict.Status.OK) {
			return new Verdict(this.listener, this.pool, status, null, okEvidence, List.of(), since, this.last);
		}
		return new Verdict(this.listener, this.pool, status, null, finding.evidence(), finding.advice(), since,
				this.last);
	}

	private void resetChallenger() {
		this.challenger = null;
		this.challengerRun = 0;
	}

	/**
	 * Returns the current verdict.
	 * @return the verdict
	 */
	Verdict verdict() {
		return this.verdict;
	}

	/**
	 * A pool's queue over the window.
	 *
	 * @param averageQueued the items waiting, on average
	 * @param dequeued the items that got a worker after waiting, -1 where not counted
	 */
	record QueueWindow(double averageQueued, long dequeued) {
	}

}
