package dev.ariadne.server.diagnosis;

import java.util.ArrayList;
import java.util.List;

import dev.ariadne.server.IoModel;

/**
 * What {@link Rules} says of WebSocket sessions: in {@code blocking} each session owns its
 * connection's worker for as long as it is open, so sessions holding most of a starved pool's
 * workers are the cause ({@link Cause#WEBSOCKET_SESSIONS}); fewer of them are named in the
 * evidence of thread-per-connection; and an ok verdict says how many are open and what they hold
 * in the listener's model.
 */
final class SessionRules {

	private SessionRules() {
	}

	/**
	 * Returns whether the sessions own at least half of a starved blocking pool's busy workers.
	 * @param o the observation of a pool whose workers are all busy while work waits
	 * @return whether the sessions are the cause
	 */
	static boolean ownWorkers(Observation o) {
		return o.defaultPool() && o.config().ioModel() == IoModel.BLOCKING && o.webSocketSessions() > 0
				&& 2 * held(o) >= o.busy();
	}

	/**
	 * The blocking pool's workers are owned by WebSocket sessions.
	 * @param o the observation
	 * @return the finding
	 */
	static Finding finding(Observation o) {
		int held = held(o);
		int others = o.demand() - held;
		Samples s = o.samples();
		String sampled = (s.idle() > 0) ? " (sampled: " + s.idle() + " waiting for their clients' next message)" : "";
		String rest = (o.busy() > held) ? "; " + Rules.count(o.busy() - held, "workers") + " owned by other connections"
				: "";
		String evidence = held + " of " + o.max() + " workers held by " + Rules.count(o.webSocketSessions(),
				"WebSocket sessions") + ", each until it closes" + sampled + rest + "; " + Rules.queued(o)
				+ " waiting for a worker, " + Rules.movement(o);
		List<Advice> advice = new ArrayList<>();
		advice.add(new Advice(Rules.PREFIX + "io-model", "event-loop", "a quiet session then holds no thread, and a worker "
				+ "only while its listener handles a message: the " + o.max() + " workers serve the sessions' messages "
				+ "and the other clients' requests in turn"));
		int limit = o.config().webSocket().maxSessions();
		int sessions = Math.max(held, limit);
		String allowed = (limit > held) ? " (websocket.max-sessions allows " + limit + ")" : "";
		advice.add(new Advice(Rules.PREFIX + "threads.max", Integer.toString(Rules.spare(sessions + others)),
				"if you keep the blocking model: one thread per session for as long as it is open, " + sessions
						+ " sessions" + allowed + " + " + Rules.count(others, "other connections") + " wanting a "
						+ "worker, and a quarter to spare"));
		int reserved = Math.min(o.max() - 1, Math.max(1, others));
		int fewer = o.max() - reserved;
		if (fewer > 0 && (limit == 0 || limit > fewer)) {
			advice.add(new Advice(Rules.PREFIX + "websocket.max-sessions", Integer.toString(fewer), "at most " + fewer
					+ " sessions at once leave " + Rules.count(reserved, "workers") + " of " + o.max() + " for "
					+ "requests; a handshake beyond it is answered 503 (connections_rejected, reason "
					+ "websocket-sessions)"));
		}
		return new Finding(Cause.WEBSOCKET_SESSIONS, evidence, advice);
	}

	/**
	 * Names the sessions among the connections that own workers, for thread-per-connection's
	 * evidence.
	 * @param o the observation
	 * @return {@code ; 1 of them a WebSocket session, ...}, or empty without sessions
	 */
	static String amongConnections(Observation o) {
		if (o.webSocketSessions() == 0) {
			return "";
		}
		return "; " + held(o) + " of them " + ((held(o) == 1) ? "a WebSocket session" : "WebSocket sessions")
				+ ", each session owning its worker for as long as it is open";
	}

	/**
	 * Says what the open sessions hold, for an ok verdict's evidence.
	 * @param o the observation
	 * @return {@code ; 1000 WebSocket sessions open, holding no thread while quiet}, or empty
	 */
	static String okEvidence(Observation o) {
		int sessions = o.webSocketSessions();
		if (sessions == 0) {
			return "";
		}
		String hold = switch (o.config().ioModel()) {
			case BLOCKING -> "each owning a worker";
			case VIRTUAL_THREADS -> "each on a virtual thread of its own, holding no permit while quiet";
			default -> "holding no thread while quiet";
		};
		return "; " + Rules.count(sessions, "WebSocket sessions") + " open, " + hold;
	}

	/** The workers the sessions own: each session one, in the blocking model. */
	private static int held(Observation o) {
		return Math.min(o.webSocketSessions(), o.busy());
	}

}
