package dev.ariadne.server.diagnosis;

import java.util.List;
import java.util.OptionalLong;

import org.junit.jupiter.api.Test;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.stats.AcceptError;
import dev.ariadne.server.stats.PoolStats;
import dev.ariadne.server.stats.RejectReason;
import dev.ariadne.server.stats.ServerStats;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The evaluation loop on statistics set by the test, for what no socket test can induce at
 * will: a kernel accept queue that overflows while the connection limit is far away.
 */
class DiagnosisTest {

	private final FakeStats stats = new FakeStats();

	private final Diagnosis diagnosis = new Diagnosis(this.stats,
			ServerConfig.builder().ioModel(IoModel.EVENT_LOOP).maxThreads(4).acceptBacklog(100).build());

	@Test
	void overflowingAcceptQueueIsAcceptBacklogAfterTwoEvaluations() {
		this.stats.depth = 100;
		this.stats.overflows = 1000;
		this.diagnosis.evaluate();
		this.stats.overflows = 1040;
		this.diagnosis.evaluate();
		assertThat(this.diagnosis.verdict("default")).hasValueSatisfying((verdict) -> assertThat(verdict.starved()).isFalse());
		this.stats.overflows = 1100;
		this.diagnosis.evaluate();
		Verdict verdict = this.diagnosis.verdict("default").orElseThrow();
		assertThat(verdict.cause()).isEqualTo(Cause.ACCEPT_BACKLOG);
		assertThat(verdict.evidence()).startsWith("the kernel dropped 60 connections over the last 1 s")
			.endsWith("this listener's queue held up to 100 of 100");
		assertThat(verdict.advice()).extracting(Advice::property)
			.containsExactly("ariadne.server.accept-backlog", "net.core.somaxconn");
	}

	@Test
	void overflowsWhileThisQueueIsEmptyAreSomeoneElses() {
		this.stats.overflows = 1000;
		for (int i = 1; i <= 5; i++) {
			this.stats.overflows += 50;
			this.diagnosis.evaluate();
		}
		assertThat(this.diagnosis.verdicts()).singleElement().satisfies((verdict) -> {
			assertThat(verdict.starved()).isFalse();
			assertThat(verdict.evidence()).isEqualTo("1 of 4 workers busy, 0 requests waiting for a worker; "
					+ "3 connections open, 0 in the kernel's accept queue");
		});
	}

	@Test
	void keepsOneHistorySamplePerEvaluation() {
		for (int i = 0; i < 3; i++) {
			this.stats.open = 3 + i;
			this.diagnosis.evaluate();
		}
		History history = this.diagnosis.history();
		assertThat(history.listener()).isEqualTo("app");
		assertThat(history.intervalMillis()).isEqualTo(1000);
		assertThat(history.samples()).extracting(History.Sample::openConnections).containsExactly(3, 4, 5);
		assertThat(history.samples().get(2).pools()).singleElement().satisfies((pool) -> {
			assertThat(pool.pool()).isEqualTo("default");
			assertThat(pool.saturation()).isEqualTo(0.25);
			assertThat(pool.starved()).isFalse();
		});
	}

	/** One listener with one pool; every figure set by the test. */
	private static final class FakeStats implements ServerStats, PoolStats {

		int open = 3;

		long depth;

		long overflows;

		@Override
		public String listener() {
			return "app";
		}

		@Override
		public String ioModel() {
			return "event-loop";
		}

		@Override
		public PoolStats pool() {
			return this;
		}

		@Override
		public List<PoolStats> pools() {
			return List.of(this);
		}

		@Override
		public int openConnections() {
			return this.open;
		}

		@Override
		public int idleConnections() {
			return 0;
		}

		@Override
		public int maxConnections() {
			return 10_000;
		}

		@Override
		public long acceptedConnections() {
			return 0;
		}

		@Override
		public long rejected(RejectReason reason) {
			return 0;
		}

		@Override
		public OptionalLong acceptQueueDepth() {
			return OptionalLong.of(this.depth);
		}

		@Override
		public OptionalLong acceptQueueCapacity() {
			return OptionalLong.of(100);
		}

		@Override
		public OptionalLong acceptQueueOverflows() {
			return OptionalLong.of(this.overflows);
		}

		@Override
		public long acceptErrors(AcceptError error) {
			return 0;
		}

		@Override
		public long fatalErrors() {
			return 0;
		}

		@Override
		public String name() {
			return "default";
		}

		@Override
		public int busyWorkers() {
			return 1;
		}

		@Override
		public int maxWorkers() {
			return 4;
		}

		@Override
		public int queued() {
			return 0;
		}

		@Override
		public int queueCapacity() {
			return 100;
		}

	}

}
