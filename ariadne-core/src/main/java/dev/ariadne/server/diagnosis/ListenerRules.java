package dev.ariadne.server.diagnosis;

import java.util.ArrayList;
import java.util.List;

import dev.ariadne.server.IoModel;

/**
 * What {@link Rules} says of the listener before its pool: clients that wait before any worker
 * could help ({@code max-connections} reached with clients in the kernel's accept queue, the
 * accept queue overflowing) and HTTP/2 connections at their stream limit while workers are free.
 */
final class ListenerRules {

	private ListenerRules() {
	}

	/**
	 * Decides on the listener's limits, for the default pool.
	 * @param o the observation of the default pool
	 * @return the finding, or {@code null} when no limit of the listener holds clients back
	 */
	static Finding finding(Observation o) {
		int maxConnections = o.config().maxConnections();
		if (o.openConnections() >= maxConnections && Math.max(o.acceptQueueDepth(), o.acceptQueueDepthRecent()) > 0) {
			long waiting = Math.max(1, o.acceptQueueDepth());
			String evidence = o.openConnections() + " of " + maxConnections + " connections open (max-connections "
					+ "reached); " + Rules.count(waiting, "clients") + " waiting in the kernel's accept queue";
			List<Advice> advice = new ArrayList<>();
			long wanted = o.openConnections() + waiting;
			advice.add(new Advice(Rules.PREFIX + "max-connections", Long.toString(Rules.spare(wanted)),
					wanted + " clients wanted a connection (" + o.openConnections() + " open + " + waiting
							+ " in the accept queue), with a quarter to spare"));
			if (o.config().ioModel() == IoModel.BLOCKING) {
				advice.add(new Advice(Rules.PREFIX + "io-model", "event-loop", "in the blocking model each connection "
						+ "holds a worker; on event-loop an idle connection costs no thread, so max-connections can "
						+ "be far above threads.max"));
			}
			return new Finding(Cause.CONNECTION_LIMIT, evidence, advice);
		}
		long capacity = o.acceptQueueCapacity();
		if (o.overflows() > 0 && capacity > 0 && o.acceptQueueDepthRecent() * 10 >= capacity * 9) {
			String evidence = "the kernel dropped " + o.overflows() + " connections over the last "
					+ Diagnosis.INTERVAL.toSeconds() + " s on a full accept queue (ListenOverflows, whole network "
					+ "namespace); "
					+ "this listener's queue held up to " + o.acceptQueueDepthRecent() + " of " + capacity;
			long backlog = Rules.spare(capacity + o.overflows());
			List<Advice> advice = List.of(
					new Advice(Rules.PREFIX + "accept-backlog", Long.toString(backlog),
							"the queue holds " + capacity + " and " + o.overflows()
									+ " more connections arrived than it could hold"),
					new Advice(Advice.SOMAXCONN, Long.toString(backlog), "the kernel caps the backlog at "
							+ "somaxconn (sysctl); raise it at least as far as accept-backlog"));
			return new Finding(Cause.ACCEPT_BACKLOG, evidence, advice);
		}
		if (o.http2AtLimit() > 0 && o.busy() < o.max()) {
			return streamLimit(o);
		}
		return null;
	}

	/**
	 * HTTP/2 connections at their stream limit while workers are free: what their clients hold
	 * back waits in the clients, where no queue of the server shows it.
	 */
	private static Finding streamLimit(Observation o) {
		int limit = o.config().http2().maxConcurrentStreams();
		String evidence = Rules.count(o.http2AtLimit(), "HTTP/2 connections") + ((o.http2AtLimit() == 1) ? " has" : " have")
				+ " all " + limit + " of " + ((o.http2AtLimit() == 1) ? "its" : "their") + " streams open (http2.max-concurrent-streams reached) while " + (o.max() - o.busy()) + " of " + o.max()
				+ " workers are free: their clients hold further requests back, unseen by the server's queue";
		long raised = Math.min(2L * limit, Integer.MAX_VALUE);
		List<Advice> advice = List.of(new Advice(Rules.PREFIX + "http2.max-concurrent-streams", Long.toString(raised),
				"the limit, not the pool, holds those clients back (streams that stay open, such as event streams and "
						+ "long polls, or slow handlers); twice the limit gives each connection room for as many again, "
						+ "and the request content they may send stays within buffers.budget"));
		return new Finding(Cause.STREAM_LIMIT, evidence, advice);
	}

}
