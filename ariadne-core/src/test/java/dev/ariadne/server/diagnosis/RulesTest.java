package dev.ariadne.server.diagnosis;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.stats.RouteWork;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

/**
 * The rules on single observations: which cause each picture of a pool gets, the evidence's
 * figures and the advice's computed values.
 */
class RulesTest {

	private static final ServerConfig STARVED = ServerConfig.builder()
		.ioModel(IoModel.BLOCKING)
		.maxThreads(4)
		.keepAliveReleaseThreshold(1.0)
		.build();

	private static final ServerConfig EVENT_LOOP = ServerConfig.builder().ioModel(IoModel.EVENT_LOOP).maxThreads(4).build();

	@Test
	void fourBlockingWorkersOwningIdleConnectionsWhileNoneComeFreeAreThreadPerConnection() {
		Finding finding = Rules.decide(observation(STARVED, 4, 4, 16).idle(Duration.ofSeconds(18)).queue(16, 0)
			.samples(new Samples(4, 4, 0, 0, 0, 0, null, null, null, 0, null, 0))
			.build());
		assertThat(finding.cause()).isEqualTo(Cause.THREAD_PER_CONNECTION);
		assertThat(finding.evidence()).isEqualTo("4 of 4 workers each own a connection until it closes (sampled: 4 idle "
				+ "between requests, 18 s on average); 16 connections waiting for a worker, none of them given one over "
				+ "the last 5 s");
		assertThat(finding.advice()).extracting(Advice::property, Advice::value)
			.containsExactly(tuple("ariadne.server.io-model", "event-loop"), tuple("ariadne.server.threads.max", "25"),
					tuple("ariadne.server.keep-alive.release-threshold", "0.75"),
					tuple("ariadne.server.keep-alive.timeout", "5s"));
	}

	@Test
	void blockingWorkersServingClientsThatNeverPauseAreThreadPerConnectionWhateverTheyDo() {
		// what the owned workers do changes from one sample to the next; that connections own them does not
		for (Samples samples : List.of(new Samples(4, 1, 0, 1, 0, 2, null, null, null, 0, "com.example.Fib.compute", 2),
				new Samples(4, 0, 0, 0, 0, 4, null, null, null, 0, "com.example.Fib.compute", 4),
				new Samples(4, 0, 1, 1, 0, 2, null, null, null, 0, null, 0),
				new Samples(4, 0, 0, 0, 0, 0, null, null, null, 0, null, 0, 4))) {
			Finding finding = Rules.decide(observation(STARVED, 4, 4, 16).queue(16, 0).cpu(1.9, 0.97).samples(samples)
				.routes(new RouteWork("/api/compute", 400, 19_000_000_000L), new RouteWork("/", 400, 40_000_000L))
				.build());
			assertThat(finding.cause()).as("%s", samples).isEqualTo(Cause.THREAD_PER_CONNECTION);
			assertThat(finding.advice().get(0)).extracting(Advice::property, Advice::value)
				.containsExactly("ariadne.server.io-model", "event-loop");
		}
	}

	@Test
	void http2ConnectionsOwningBlockingWorkersAreNamedInTheEvidence() {
		Finding finding = Rules.decide(observation(STARVED, 4, 4, 30).queue(30, 0).http2Connections(4)
			.http2Streams(24, 0)
			.samples(new Samples(4, 4, 0, 0, 0, 0, null, null, null, 0, null, 0))
			.build());
		assertThat(finding.cause()).isEqualTo(Cause.THREAD_PER_CONNECTION);
		assertThat(finding.evidence()).startsWith("4 of 4 workers each own a connection until it closes (sampled: 4 "
				+ "idle between requests or waiting for HTTP/2 frames); 4 HTTP/2 connections among them, each owning a "
				+ "worker for its frames while its streams wait for others")
			.contains("; 6 connections and 24 HTTP/2 streams waiting for a worker");
		assertThat(finding.advice().get(0)).extracting(Advice::property, Advice::value, Advice::why)
			.containsExactly("ariadne.server.io-model", "event-loop", "a connection then holds a worker only while "
					+ "one of its requests runs, never between requests: the 4 workers serve the streams of every "
					+ "connection in turn");
		assertThat(finding.advice().get(1).why()).startsWith("if you keep the blocking model: 34 connections and "
				+ "streams wanted a worker (4 held + 30 waiting)");
	}

	@Test
	void streamsWaitingInAnEventLoopPoolAreToldApartFromTheOtherRequests() {
		Finding finding = Rules.decide(observation(EVENT_LOOP, 4, 4, 10).queue(10, 0).http2Streams(7, 0)
			.samples(new Samples(4, 0, 0, 0, 4, 0, "Semaphore.acquire", "com.example.Repo.find", Thread.State.WAITING, 4, null, 0))
			.build());
		assertThat(finding.cause()).isEqualTo(Cause.BLOCKED_DOWNSTREAM);
		assertThat(finding.evidence()).endsWith("; 10 requests (7 of them HTTP/2 streams) waiting for a worker");
		assertThat(Rules.queued(observation(EVENT_LOOP, 4, 4, 3).http2Streams(3, 0).build()))
			.isEqualTo("3 requests (all HTTP/2 streams)");
	}

	@Test
	void http2ConnectionsAtTheirStreamLimitWhileWorkersAreFreeAreTheStreamLimit() {
		Finding finding = Rules.decide(observation(EVENT_LOOP, 1, 4, 0).http2Streams(0, 3).build());
		assertThat(finding.cause()).isEqualTo(Cause.STREAM_LIMIT);
		assertThat(finding.evidence()).isEqualTo("3 HTTP/2 connections have all 100 of their streams open "
				+ "(http2.max-concurrent-streams reached) while 3 of 4 workers are free: their clients hold further "
				+ "requests back, unseen by the server's queue");
		assertThat(finding.advice()).extracting(Advice::property, Advice::value)
			.containsExactly(tuple("ariadne.server.http2.max-concurrent-streams", "200"));
		// with every worker busy the pool is the limit: its own cause, whatever the connections
		Finding saturated = Rules.decide(observation(EVENT_LOOP, 4, 4, 5).http2Streams(5, 3)
			.samples(new Samples(4, 0, 0, 0, 4, 0, "Semaphore.acquire", "com.example.Repo.find", Thread.State.WAITING, 4, null, 0))
			.build());
		assertThat(saturated.cause()).isEqualTo(Cause.BLOCKED_DOWNSTREAM);
		assertThat(Rules.decide(observation(EVENT_LOOP, 1, 4, 0).build())).isNull();
	}

	@Test
	void http2StreamsWaitingForTheirClientsCreditAreSlowClientsWithTheStreamWriteTimeout() {
		Finding finding = Rules.decide(observation(EVENT_LOOP, 4, 4, 6).http2Connections(2).http2Streams(6, 0)
			.samples(new Samples(4, 0, 0, 4, 0, 0, null, null, null, 0, null, 0))
			.build());
		assertThat(finding.cause()).isEqualTo(Cause.SLOW_CLIENTS);
		assertThat(finding.evidence()).isEqualTo("4 of 4 workers are held by slow clients: 4 waiting for a client to "
				+ "read its response (over HTTP/2, a stream's writer waits for its client's flow-control credit; 2 "
				+ "HTTP/2 connections open), 0 for a client to send its request; 6 requests (all HTTP/2 streams) "
				+ "waiting for a worker");
		assertThat(finding.advice()).extracting(Advice::property, Advice::value)
			.contains(tuple("ariadne.server.http2.write-timeout", "5s"));
	}

	@Test
	void aBlockingWorkerWaitingForARoutePoolIsNotADownstream() {
		Finding finding = Rules.decide(observation(STARVED, 4, 4, 16).queue(16, 0)
			.samples(new Samples(4, 0, 0, 0, 0, 0, null, null, null, 0, null, 0, 4))
			.build());
		assertThat(finding.cause()).isEqualTo(Cause.THREAD_PER_CONNECTION);
		assertThat(finding.evidence()).contains("4 waiting for a route pool to run its handler");
	}

	@Test
	void aQueueThatMovesIsNotStarvationAndWithTheCoresBusyIsCpuSaturated() {
		// 12 requests waiting on average, 300 of them given a worker in 5 s: each waits about 200 ms
		Builder served = observation(EVENT_LOOP, 4, 4, 12).queue(12, 300)
			.samples(new Samples(4, 0, 0, 0, 0, 4, null, null, null, 0, "com.example.Fib.compute", 4))
			.routes(new RouteWork("/api/compute", 300, 19_000_000_000L), new RouteWork("/", 300, 40_000_000L));
		assertThat(Rules.decide(served.build())).isNull();
		Finding finding = Rules.decide(served.cpu(1.9, 0.97).build());
		assertThat(finding.status()).isEqualTo(Verdict.Status.CPU_SATURATED);
		assertThat(finding.cause()).isNull();
		assertThat(finding.evidence()).isEqualTo("every client is served in turn: 12 requests waiting for a worker, "
				+ "each waiting about 200 ms for one; 4 of 4 workers busy and the process used 1.9 of 2 cores: the CPU "
				+ "is the limit, not a setting");
		assertThat(finding.advice()).extracting(Advice::property, Advice::value)
			.containsExactly(tuple("instances", "8"), tuple("cores", "4"));
	}

	@Test
	void aQueueWhoseItemsWaitOverASecondIsStarvedAndAStarvedOneRecoversBelowHalfASecond() {
		Builder slow = observation(EVENT_LOOP, 4, 4, 12).queue(12, 40).cpu(1.9, 0.97)
			.samples(new Samples(4, 0, 0, 0, 0, 4, null, null, null, 0, "com.example.Fib.compute", 4));
		assertThat(Rules.decide(slow.build()).cause()).isEqualTo(Cause.CPU_BOUND);
		// 0.75 s each: served for a pool that is not starved, still starved for one that is
		Builder between = observation(EVENT_LOOP, 4, 4, 12).queue(12, 80).cpu(1.9, 0.97)
			.samples(new Samples(4, 0, 0, 0, 0, 4, null, null, null, 0, "com.example.Fib.compute", 4));
		assertThat(Rules.decide(between.build()).starved()).isFalse();
		assertThat(Rules.decide(between.starvedNow().build()).cause()).isEqualTo(Cause.CPU_BOUND);
	}

	@Test
	void saturatedWithNothingWaitingIsNotStarved() {
		assertThat(Rules.decide(observation(STARVED, 4, 4, 0)
			.samples(new Samples(4, 4, 0, 0, 0, 0, null, null, null, 0, null, 0))
			.build())).isNull();
		assertThat(Rules.decide(observation(STARVED, 3, 4, 5).build())).isNull();
	}

	@Test
	void workersComputingWithTheCoresBusyAreCpuBoundAndGetNoThreadAdvice() {
		Finding finding = Rules.decide(observation(EVENT_LOOP, 4, 4, 12).cpu(1.9, 0.97)
			.samples(new Samples(4, 0, 0, 0, 0, 4, null, null, null, 0, "com.example.Fib.compute", 4))
			.routes(new RouteWork("/api/compute", 40, 19_000_000_000L))
			.build());
		assertThat(finding.cause()).isEqualTo(Cause.CPU_BOUND);
		assertThat(finding.evidence()).contains("4 of 4 workers run handler code (RUNNABLE, mostly in com.example.Fib.compute)")
			.contains("the process used 1.9 of 2 cores").contains("12 requests waiting");
		assertThat(finding.advice()).extracting(Advice::property)
			.contains("ariadne.server.pools.compute.threads", "ariadne.server.routes[/api/compute].pool", "instances")
			.doesNotContain("ariadne.server.threads.max");
		assertThat(finding.advice()).filteredOn((advice) -> advice.property().equals("instances"))
			.extracting(Advice::value)
			.containsExactly("8");
	}

	@Test
	void workersWaitingOnASemaphoreAreBlockedDownstreamNamingTheFrame() {
		Finding finding = Rules.decide(observation(EVENT_LOOP, 4, 4, 4)
			.samples(new Samples(4, 0, 0, 0, 4, 0, "Semaphore.acquire", "com.example.Repo.find", Thread.State.WAITING, 4,
					null, 0))
			.build());
		assertThat(finding.cause()).isEqualTo(Cause.BLOCKED_DOWNSTREAM);
		assertThat(finding.evidence()).isEqualTo("4 of 4 workers wait (WAITING) in Semaphore.acquire called from "
				+ "com.example.Repo.find; 4 requests waiting for a worker");
		// no exchange finished in the window: the handler is named by its frame
		assertThat(finding.advice()).extracting(Advice::property, Advice::value)
			.containsExactly(tuple("handler", "com.example.Repo.find"), tuple("ariadne.server.threads.max", "10"));
	}

	@Test
	void blockingWorkersWaitingDownstreamAreBlockedDownstreamNamingTheHandlerByItsRoute() {
		Finding finding = Rules.decide(observation(STARVED, 4, 4, 16).queue(16, 0)
			.samples(new Samples(4, 0, 0, 0, 3, 1, "HikariPool.getConnection", "com.example.Repo.find",
					Thread.State.TIMED_WAITING, 3, null, 0))
			.routes(new RouteWork("/api/orders", 40, 19_000_000_000L))
			.build());
		assertThat(finding.cause()).isEqualTo(Cause.BLOCKED_DOWNSTREAM);
		assertThat(finding.evidence()).contains("(/api/orders took most of the worker time)");
		assertThat(finding.advice()).extracting(Advice::property, Advice::value)
			.containsExactly(tuple("handler", "/api/orders"), tuple("ariadne.server.threads.max", "25"));
	}

	@Test
	void workersHeldWritingToSlowClientsAreSlowClientsWithoutAdvisingAnotherModel() {
		// every model's handler thread writes its response: the event loop would not free them
		Finding finding = Rules.decide(observation(STARVED, 4, 4, 2)
			.samples(new Samples(4, 0, 0, 4, 0, 0, null, null, null, 0, null, 0))
			.build());
		assertThat(finding.cause()).isEqualTo(Cause.SLOW_CLIENTS);
		assertThat(finding.evidence()).startsWith("4 of 4 workers are held by slow clients: 4 waiting for a client to "
				+ "read its response, 0 for a client to send its request");
		assertThat(finding.advice()).extracting(Advice::property, Advice::value)
			.containsExactly(tuple("ariadne.server.keep-alive.timeout", "5s"));
	}

	@Test
	void workersHeldReadingSlowUploadsInBlockingAreAdvisedTheEventLoopAndAShorterRateGrace() {
		Finding finding = Rules.decide(observation(STARVED, 4, 4, 16)
			.samples(new Samples(4, 0, 4, 0, 0, 0, null, null, null, 0, null, 0))
			.build());
		assertThat(finding.cause()).isEqualTo(Cause.SLOW_CLIENTS);
		assertThat(finding.evidence()).isEqualTo("4 of 4 workers are held by slow clients: 0 waiting for a client to "
				+ "read its response, 4 for a client to send its request; 16 connections waiting for a worker");
		assertThat(finding.advice()).extracting(Advice::property, Advice::value)
			.containsExactly(tuple("ariadne.server.io-model", "event-loop"),
					tuple("ariadne.server.request.min-data-rate-grace", "5s"),
					tuple("ariadne.server.request.header-timeout", "5s"));
	}

	@Test
	void aMinorityOfBlockingWorkersHeldBySlowClientsIsThreadPerConnectionWithTheirTimeouts() {
		Finding finding = Rules.decide(observation(STARVED, 4, 4, 16)
			.samples(new Samples(4, 2, 1, 0, 0, 1, null, null, null, 0, null, 0))
			.build());
		assertThat(finding.cause()).isEqualTo(Cause.THREAD_PER_CONNECTION);
		assertThat(finding.evidence()).startsWith("4 of 4 workers each own a connection until it closes (sampled: 2 "
				+ "idle between requests; 1 running a handler; 1 reading from or writing to its client); "
				+ "16 connections waiting for a worker, how long they wait is not counted");
		assertThat(finding.advice()).extracting(Advice::property, Advice::value)
			.containsExactly(tuple("ariadne.server.io-model", "event-loop"), tuple("ariadne.server.threads.max", "25"),
					tuple("ariadne.server.keep-alive.release-threshold", "0.75"),
					tuple("ariadne.server.request.min-data-rate-grace", "5s"),
					tuple("ariadne.server.request.header-timeout", "5s"));
	}

	@Test
	void slowClientsOnAnEventLoopWithTheLowResourcesModeOffAreAdvisedToTurnItOn() {
		ServerConfig config = EVENT_LOOP.toBuilder().lowResourcesEnabled(false).keepAliveTimeout(Duration.ofSeconds(5))
			.build();
		Finding finding = Rules.decide(observation(config, 4, 4, 3)
			.samples(new Samples(4, 0, 0, 4, 0, 0, null, null, null, 0, null, 0))
			.build());
		assertThat(finding.advice()).extracting(Advice::property, Advice::value)
			.containsExactly(tuple("ariadne.server.low-resources.enabled", "true"));
	}

	@Test
	void oneRouteComputingMostOfTheWorkerTimeWhileOthersGetThroughIsAHotRouteWithAPoolOfAtMostTheCores() {
		Finding finding = Rules.decide(observation(EVENT_LOOP, 4, 4, 6).cpu(1.9, 0.97)
			.samples(new Samples(4, 0, 0, 0, 0, 4, null, null, null, 0, "com.example.Reports.build", 4))
			.routes(new RouteWork("/api/report", 190, 19_000_000_000L), new RouteWork("/", 400, 40_000_000L))
			.build());
		assertThat(finding.cause()).isEqualTo(Cause.HOT_ROUTE);
		assertThat(finding.evidence()).startsWith("/api/report took 100% of the worker time of pool 'default' over the last 5 s");
		assertThat(finding.advice()).extracting(Advice::property, Advice::value)
			.containsExactly(tuple("ariadne.server.pools.report.threads", "2"),
					tuple("ariadne.server.routes[/api/report].pool", "report"));
	}

	@Test
	void oneRouteWaitingDownstreamWhileOthersGetThroughIsADownstreamWithAPoolForTheOthers() {
		// the wait is what to fix; the pool keeps the other routes served meanwhile
		Finding finding = Rules.decide(observation(EVENT_LOOP, 4, 4, 6)
			.samples(new Samples(4, 0, 0, 0, 4, 0, "Thread.sleep", "com.example.Reports.build", Thread.State.TIMED_WAITING,
					4, null, 0))
			.routes(new RouteWork("/api/report", 190, 19_000_000_000L), new RouteWork("/", 400, 40_000_000L))
			.build());
		assertThat(finding.cause()).isEqualTo(Cause.BLOCKED_DOWNSTREAM);
		assertThat(finding.advice()).extracting(Advice::property, Advice::value)
			.containsExactly(tuple("handler", "/api/report"), tuple("ariadne.server.pools.report.threads", "2"),
					tuple("ariadne.server.routes[/api/report].pool", "report"), tuple("ariadne.server.threads.max", "13"));
	}

	@Test
	void aSingleBusyRouteIsNotAHotRoute() {
		Finding finding = Rules.decide(observation(EVENT_LOOP, 4, 4, 6)
			.samples(new Samples(4, 0, 0, 0, 4, 0, "Thread.sleep", "com.example.Reports.build", Thread.State.TIMED_WAITING,
					4, null, 0))
			.routes(new RouteWork("/api/report", 190, 19_000_000_000L))
			.build());
		assertThat(finding.cause()).isEqualTo(Cause.BLOCKED_DOWNSTREAM);
	}

	@Test
	void clientsInTheAcceptQueueAtMaxConnectionsAreConnectionLimit() {
		ServerConfig config = EVENT_LOOP.toBuilder().maxConnections(8).build();
		Finding finding = Rules.decide(observation(config, 0, 4, 0).connections(8, 4).build());
		assertThat(finding.cause()).isEqualTo(Cause.CONNECTION_LIMIT);
		assertThat(finding.evidence()).isEqualTo("8 of 8 connections open (max-connections reached); 4 clients "
				+ "waiting in the kernel's accept queue");
		assertThat(finding.advice()).extracting(Advice::property, Advice::value)
			.containsExactly(tuple("ariadne.server.max-connections", "15"));
	}

	@Test
	void overflowsWithThisListenersQueueFullAreAcceptBacklog() {
		Finding finding = Rules.decide(observation(EVENT_LOOP, 1, 4, 0).connections(100, 100).acceptQueue(100, 40).build());
		assertThat(finding.cause()).isEqualTo(Cause.ACCEPT_BACKLOG);
		assertThat(finding.advice()).extracting(Advice::property, Advice::value)
			.containsExactly(tuple("ariadne.server.accept-backlog", "175"),
					tuple("net.core.somaxconn", "175"));
	}

	@Test
	void overflowsElsewhereInTheNamespaceAreNotThisListenersProblem() {
		assertThat(Rules.decide(observation(EVENT_LOOP, 1, 4, 0).connections(100, 3).acceptQueue(100, 40).build()))
			.isNull();
	}

	@Test
	void namesRoutePoolsAfterTheRoutesLastLiteralSegment() {
		assertThat(Rules.poolName("/api/compute")).isEqualTo("compute");
		assertThat(Rules.poolName("/api/user/{id}")).isEqualTo("user");
		assertThat(Rules.poolName("/")).isEqualTo("root");
		assertThat(Rules.poolName("/Reports_2024")).isEqualTo("reports-2024");
	}

	static Builder observation(ServerConfig config, int busy, int max, int queued) {
		return new Builder(config, busy, max, queued);
	}

	/** Builds observations of the default pool; what is not set is quiet. */
	static final class Builder {

		private final ServerConfig config;

		private final int busy;

		private final int max;

		private final int queued;

		private int open;

		private long depth;

		private long capacity = 100;

		private long overflows;

		private Duration idle = Duration.ZERO;

		private Samples samples = Samples.NONE;

		private List<RouteWork> routes = List.of();

		private double processCores = 0.5;

		private double machineBusy = 0.3;

		private double averageQueued = -1;

		private long dequeued = -1;

		private boolean starvedNow;

		private int http2Connections;

		private int http2QueuedStreams;

		private int http2AtLimit;

		private int webSocketSessions;

		Builder(ServerConfig config, int busy, int max, int queued) {
			this.config = config;
			this.busy = busy;
			this.max = max;
			this.queued = queued;
		}

		Builder idle(Duration idle) {
			this.idle = idle;
			return this;
		}

		Builder samples(Samples samples) {
			this.samples = samples;
			return this;
		}

		Builder routes(RouteWork... routes) {
			this.routes = List.of(routes);
			return this;
		}

		Builder cpu(double processCores, double machineBusy) {
			this.processCores = processCores;
			this.machineBusy = machineBusy;
			return this;
		}

		/** The queue over a 5 s window: on average this many waited, and this many got a worker. */
		Builder queue(double averageQueued, long dequeued) {
			this.averageQueued = averageQueued;
			this.dequeued = dequeued;
			return this;
		}

		Builder http2Connections(int connections) {
			this.http2Connections = connections;
			return this;
		}

		Builder http2Streams(int queued, int connectionsAtLimit) {
			this.http2QueuedStreams = queued;
			this.http2AtLimit = connectionsAtLimit;
			return this;
		}

		Builder webSocketSessions(int sessions) {
			this.webSocketSessions = sessions;
			return this;
		}

		Builder starvedNow() {
			this.starvedNow = true;
			return this;
		}

		Builder connections(int open, long depth) {
			this.open = open;
			this.depth = depth;
			return this;
		}

		Builder acceptQueue(long capacity, long overflows) {
			this.capacity = capacity;
			this.overflows = overflows;
			return this;
		}

		Observation build() {
			return new Observation("default", true, this.config, this.busy, this.max, this.queued, this.open,
					this.depth, this.depth, this.capacity, this.overflows, this.idle, this.samples, this.routes, 5,
					this.processCores, this.machineBusy, 2, (this.averageQueued >= 0) ? this.averageQueued : this.queued,
					this.dequeued, this.starvedNow, this.http2Connections, this.http2QueuedStreams, this.http2AtLimit,
					this.webSocketSessions);
		}

	}

}
