package dev.ariadne.server.diagnosis;

import org.junit.jupiter.api.Test;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.WebSocketConfig;

import static dev.ariadne.server.diagnosis.RulesTest.observation;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * What the rules say of WebSocket sessions: owning most of a blocking pool's workers they are
 * the cause, with the event loop, the threads they need and a session limit as advice; fewer of
 * them are named among thread-per-connection's connections; and an ok verdict says what the open
 * ones hold in each model.
 */
class SessionRulesTest {

	private static final ServerConfig STARVED = ServerConfig.builder()
		.ioModel(IoModel.BLOCKING)
		.maxThreads(4)
		.keepAliveReleaseThreshold(1.0)
		.build();

	private static final Samples FOUR_QUIET = new Samples(4, 4, 0, 0, 0, 0, null, null, null, 0, null, 0);

	@Test
	void fourSessionsOwningTheFourBlockingWorkersWhileARequestWaitsAreTheCause() {
		Finding finding = Rules.decide(observation(STARVED, 4, 4, 1).queue(1, 0).webSocketSessions(4)
			.samples(FOUR_QUIET)
			.build());
		assertThat(finding.cause()).isEqualTo(Cause.WEBSOCKET_SESSIONS);
		assertThat(finding.evidence()).isEqualTo("4 of 4 workers held by 4 WebSocket sessions, each until it closes "
				+ "(sampled: 4 waiting for their clients' next message); 1 connection waiting for a worker, none of "
				+ "them given one over the last 5 s");
		assertThat(finding.advice()).extracting(Advice::property, Advice::value)
			.containsExactly(tuple("ariadne.server.io-model", "event-loop"), tuple("ariadne.server.threads.max", "7"),
					tuple("ariadne.server.websocket.max-sessions", "3"));
		assertThat(finding.advice().get(2).why()).startsWith("at most 3 sessions at once leave 1 worker of 4 for "
				+ "requests");
	}

	@Test
	void sessionsAreTheCauseWhateverTheirListenersDoMeanwhile() {
		// listeners waiting in application code: still the sessions that own the workers
		Samples waiting = new Samples(4, 0, 0, 0, 4, 0, "Thread.sleep", "com.example.Ticker.tick",
				Thread.State.TIMED_WAITING, 4, null, 0);
		Finding finding = Rules.decide(observation(STARVED, 4, 4, 2).queue(2, 0).webSocketSessions(3)
			.samples(waiting)
			.build());
		assertThat(finding.cause()).isEqualTo(Cause.WEBSOCKET_SESSIONS);
		assertThat(finding.evidence()).startsWith("3 of 4 workers held by 3 WebSocket sessions, each until it closes; "
				+ "1 worker owned by other connections; 2 connections waiting for a worker");
	}

	@Test
	void theThreadsAdvisedMakeRoomForAsManySessionsAsTheLimitAllowsAndALimitOnlyBelowTheCurrentOne() {
		ServerConfig limited = STARVED.toBuilder().webSocket(WebSocketConfig.DEFAULTS.withMaxSessions(2)).build();
		Finding finding = Rules.decide(observation(limited, 4, 4, 3).queue(3, 0).webSocketSessions(2).build());
		assertThat(finding.cause()).isEqualTo(Cause.WEBSOCKET_SESSIONS);
		// 2 sessions + 2 other connections held + 3 waiting, a quarter to spare; 5 others want the 4
		// workers, so 1 session at most leaves them 3
		assertThat(finding.advice()).extracting(Advice::property, Advice::value)
			.containsExactly(tuple("ariadne.server.io-model", "event-loop"), tuple("ariadne.server.threads.max", "9"),
					tuple("ariadne.server.websocket.max-sessions", "1"));
		ServerConfig generous = STARVED.toBuilder().webSocket(WebSocketConfig.DEFAULTS.withMaxSessions(50)).build();
		Finding room = Rules.decide(observation(generous, 4, 4, 1).queue(1, 0).webSocketSessions(4).build());
		assertThat(room.advice().get(1)).extracting(Advice::property, Advice::value)
			.containsExactly("ariadne.server.threads.max", "64");
		assertThat(room.advice().get(1).why()).contains("50 sessions (websocket.max-sessions allows 50) + 1 other connection "
				+ "wanting a worker");
		assertThat(room.advice().get(2)).extracting(Advice::property, Advice::value)
			.containsExactly("ariadne.server.websocket.max-sessions", "3");
	}

	@Test
	void aMinorityOfWorkersOwnedBySessionsIsThreadPerConnectionNamingThem() {
		Finding finding = Rules.decide(observation(STARVED, 4, 4, 6).queue(6, 0).webSocketSessions(1)
			.samples(FOUR_QUIET)
			.build());
		assertThat(finding.cause()).isEqualTo(Cause.THREAD_PER_CONNECTION);
		assertThat(finding.evidence()).contains("; 1 of them a WebSocket session, each session owning its worker for "
				+ "as long as it is open; 6 connections waiting");
	}

	@Test
	void sessionsOnAnEventLoopHoldNoWorkerAndAreNeverTheCause() {
		ServerConfig eventLoop = ServerConfig.builder().ioModel(IoModel.EVENT_LOOP).maxThreads(4).build();
		Observation quiet = observation(eventLoop, 0, 4, 0).connections(1000, 0).webSocketSessions(1000).build();
		assertThat(Rules.decide(quiet)).isNull();
		assertThat(Rules.okEvidence(quiet)).isEqualTo("0 of 4 workers busy, 0 requests waiting for a worker; 1000 "
				+ "connections open, 0 in the kernel's accept queue; 1000 WebSocket sessions open, holding no thread "
				+ "while quiet");
		ServerConfig virtual = eventLoop.toBuilder().ioModel(IoModel.VIRTUAL_THREADS).build();
		assertThat(Rules.okEvidence(observation(virtual, 0, 4, 0).webSocketSessions(1).build()))
			.endsWith("; 1 WebSocket session open, each on a virtual thread of its own, holding no permit while quiet");
		assertThat(Rules.okEvidence(observation(STARVED, 2, 4, 0).webSocketSessions(2).build()))
			.endsWith("; 2 WebSocket sessions open, each owning a worker");
	}

}
