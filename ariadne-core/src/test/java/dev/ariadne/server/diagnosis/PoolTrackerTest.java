package dev.ariadne.server.diagnosis;

import java.time.Instant;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ariadne.server.stats.RouteWork;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A verdict needs a cause found twice in a row to be named and nothing found three times in a
 * row to clear, and it changes (and is logged) only then.
 */
class PoolTrackerTest {

	private static final Finding IDLE = new Finding(Cause.IDLE_KEEP_ALIVE, "idle", List.of());

	private static final Finding CPU = new Finding(Cause.CPU_BOUND, "cpu", List.of());

	private final PoolTracker tracker = new PoolTracker("app", "default", 5, Instant.EPOCH);

	@Test
	void namesACauseFoundTwiceInARowAndKeepsItsStartTime() {
		assertThat(update(IDLE)).isNull();
		assertThat(this.tracker.verdict().starved()).isFalse();
		assertThat(update(IDLE)).isNotNull();
		Verdict starved = this.tracker.verdict();
		assertThat(starved.cause()).isEqualTo(Cause.IDLE_KEEP_ALIVE);
		assertThat(update(IDLE)).isNull();
		assertThat(this.tracker.verdict().since()).isEqualTo(starved.since());
	}

	@Test
	void aSingleBurstMakesNoVerdict() {
		update(IDLE);
		update(null);
		update(IDLE);
		assertThat(this.tracker.verdict().starved()).isFalse();
	}

	@Test
	void clearsAfterThreeQuietEvaluationsOnly() {
		update(IDLE);
		update(IDLE);
		assertThat(update(null)).isNull();
		assertThat(update(null)).isNull();
		assertThat(this.tracker.verdict().starved()).isTrue();
		Verdict previous = update(null);
		assertThat(previous.cause()).isEqualTo(Cause.IDLE_KEEP_ALIVE);
		assertThat(this.tracker.verdict().starved()).isFalse();
		assertThat(this.tracker.verdict().evidence()).isEqualTo("ok");
	}

	@Test
	void switchesCauseOnlyWhenTheNewOneHolds() {
		update(IDLE);
		update(IDLE);
		assertThat(update(CPU)).isNull();
		assertThat(this.tracker.verdict().cause()).isEqualTo(Cause.IDLE_KEEP_ALIVE);
		assertThat(update(CPU).cause()).isEqualTo(Cause.IDLE_KEEP_ALIVE);
		assertThat(this.tracker.verdict().cause()).isEqualTo(Cause.CPU_BOUND);
	}

	@Test
	void routeWindowIsTheWorkDoneSinceTheOldestReadingKept() {
		PoolTracker tracker = new PoolTracker("app", "default", 2, Instant.EPOCH);
		assertThat(tracker.routeWindow(List.of(new RouteWork("/", 10, 100)))).isEmpty();
		assertThat(tracker.routeWindow(List.of(new RouteWork("/", 15, 150), new RouteWork("/a", 1, 5))))
			.containsExactly(new RouteWork("/", 5, 50), new RouteWork("/a", 1, 5));
		assertThat(tracker.routeWindow(List.of(new RouteWork("/", 20, 200), new RouteWork("/a", 1, 5))))
			.containsExactly(new RouteWork("/", 10, 100), new RouteWork("/a", 1, 5));
		assertThat(tracker.routeWindow(List.of(new RouteWork("/", 21, 210), new RouteWork("/a", 1, 5))))
			.containsExactly(new RouteWork("/", 6, 60));
		assertThat(tracker.windowSeconds(1)).isEqualTo(2);
	}

	private Verdict update(Finding finding) {
		return this.tracker.update(finding, "ok", Instant.now());
	}

}
