package dev.ariadne.server.diagnosis;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the sampled workers of one pool were doing, tallied: how many of each kind, and where
 * most of the waiting and running ones were.
 *
 * @param total workers sampled that were doing the pool's work
 * @param idle owning an idle connection
 * @param reading reading from a slow client
 * @param writing writing to a slow client
 * @param waiting waiting in application code
 * @param running running
 * @param waitFrame the JDK frame most waiting workers waited in, or {@code null}
 * @param waitCaller the application frame that called it, or {@code null}
 * @param waitState the state of the first worker found there
 * @param waitCount how many workers waited there
 * @param runCaller the application frame most running workers ran in, or {@code null}
 * @param runCount how many workers ran there
 * @param handedOff waiting for a route pool to run their request's handler
 */
record Samples(int total, int idle, int reading, int writing, int waiting, int running, String waitFrame,
		String waitCaller, Thread.State waitState, int waitCount, String runCaller, int runCount, int handedOff) {

	/** Nothing sampled. */
	static final Samples NONE = new Samples(0, 0, 0, 0, 0, 0, null, null, null, 0, null, 0, 0);

	/**
	 * Creates a tally in which no worker waits for a route pool.
	 */
	Samples(int total, int idle, int reading, int writing, int waiting, int running, String waitFrame,
			String waitCaller, Thread.State waitState, int waitCount, String runCaller, int runCount) {
		this(total, idle, reading, writing, waiting, running, waitFrame, waitCaller, waitState, waitCount, runCaller,
				runCount, 0);
	}

	/**
	 * Tallies classified workers.
	 * @param activities what each was doing
	 * @return the tally
	 */
	static Samples of(List<Activity> activities) {
		int[] counts = new int[Activity.Kind.values().length];
		Map<String, Integer> waits = new HashMap<>();
		Map<String, Activity> waitExample = new HashMap<>();
		Map<String, Integer> runs = new HashMap<>();
		for (Activity activity : activities) {
			counts[activity.kind().ordinal()]++;
			if (activity.kind() == Activity.Kind.WAITING) {
				String key = activity.frame() + " " + activity.caller();
				waits.merge(key, 1, Integer::sum);
				waitExample.putIfAbsent(key, activity);
			}
			else if (activity.kind() == Activity.Kind.RUNNING && activity.caller() != null) {
				runs.merge(activity.caller(), 1, Integer::sum);
			}
		}
		String topWait = top(waits);
		String topRun = top(runs);
		Activity wait = (topWait != null) ? waitExample.get(topWait) : null;
		int total = activities.size() - counts[Activity.Kind.NOT_BUSY.ordinal()];
		return new Samples(total, counts[Activity.Kind.IDLE_CONNECTION.ordinal()],
				counts[Activity.Kind.CLIENT_READ.ordinal()], counts[Activity.Kind.CLIENT_WRITE.ordinal()],
				counts[Activity.Kind.WAITING.ordinal()], counts[Activity.Kind.RUNNING.ordinal()],
				(wait != null) ? wait.frame() : null, (wait != null) ? wait.caller() : null,
				(wait != null) ? wait.state() : null, (topWait != null) ? waits.get(topWait) : 0, topRun,
				(topRun != null) ? runs.get(topRun) : 0, counts[Activity.Kind.HANDED_OFF.ordinal()]);
	}

	private static String top(Map<String, Integer> counts) {
		String top = null;
		int most = 0;
		for (Map.Entry<String, Integer> entry : counts.entrySet()) {
			boolean tieBrokenByName = entry.getValue() == most && top != null && entry.getKey().compareTo(top) < 0;
			if (entry.getValue() > most || tieBrokenByName) {
				top = entry.getKey();
				most = entry.getValue();
			}
		}
		return top;
	}

	/**
	 * Returns the workers held by slow clients.
	 * @return readers and writers
	 */
	int slowClients() {
		return this.reading + this.writing;
	}

}
