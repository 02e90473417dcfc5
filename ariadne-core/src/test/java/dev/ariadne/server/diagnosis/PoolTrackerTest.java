package dev.ariadne.server.diagnosis;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.Test;

import dev.ariadne.server.stats.RouteWork;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A verdict needs starved findings twice in a row to be named and none three times in a row to
 * clear; its cause is the one found most over the last evaluations, and changes only when
 * another has led them for a while; a change (and so a log line) happens only then.
 */
class PoolTrackerTest {

	private static final Finding CONNECTIONS = new Finding(Cause.THREAD_PER_CONNECTION, "connections", List.of());

	private static final Finding CPU = new Finding(Cause.CPU_BOUND, "cpu", List.of());

	private static final Finding HOT = new Finding(Cause.HOT_ROUTE, "hot", List.of());

	private static final Finding SLOW = new Finding(Cause.SLOW_CLIENTS, "slow", List.of());

	private static final Finding SATURATED = new Finding(Verdict.Status.CPU_SATURATED, null, "saturated", List.of());

	private final PoolTracker tracker = new PoolTracker("app", "default", 5, Instant.EPOCH);

	private Instant clock = Instant.EPOCH;

	@Test
	void namesACauseFoundTwiceInARowAndKeepsItsStartTime() {
		assertThat(update(CONNECTIONS)).isNull();
		assertThat(this.tracker.verdict().starved()).isFalse();
		assertThat(update(CONNECTIONS)).isNotNull();
		Verdict starved = this.tracker.verdict();
		assertThat(starved.cause()).isEqualTo(Cause.THREAD_PER_CONNECTION);
		assertThat(update(CONNECTIONS)).isNull();
		assertThat(this.tracker.verdict().since()).isEqualTo(starved.since());
	}

	@Test
	void aSingleBurstMakesNoVerdict() {
		update(CONNECTIONS);
		update(null);
		update(CONNECTIONS);
		assertThat(this.tracker.verdict().starved()).isFalse();
	}

	@Test
	void clearsAfterThreeQuietEvaluationsOnlyAndKeepsTheEpisode() {
		update(CONNECTIONS);
		update(CONNECTIONS);
		Instant began = this.clock;
		assertThat(update(null)).isNull();
		assertThat(update(null)).isNull();
		assertThat(this.tracker.verdict().starved()).isTrue();
		Verdict previous = update(null);
		assertThat(previous.cause()).isEqualTo(Cause.THREAD_PER_CONNECTION);
		Verdict ok = this.tracker.verdict();
		assertThat(ok.starved()).isFalse();
		assertThat(ok.evidence()).isEqualTo("ok");
		assertThat(ok.last()).isEqualTo(new Verdict.Episode(Cause.THREAD_PER_CONNECTION, began, this.clock));
		assertThat(update(null)).isNull();
		assertThat(this.tracker.verdict().last()).as("kept after recovery").isEqualTo(ok.last());
	}

	@Test
	void causesTakingTurnsKeepTheOneFoundMostAndLogNothing() {
		// the load of the issue: a cause per evaluation, cycling, with the structural one most often
		List<Finding> cycle = List.of(CONNECTIONS, CPU, CONNECTIONS, SLOW, CONNECTIONS, HOT);
		List<Verdict> changes = new ArrayList<>();
		for (int i = 0; i < 120; i++) {
			Verdict change = update(cycle.get(i % cycle.size()));
			if (change != null) {
				changes.add(change);
			}
		}
		assertThat(changes).as("only the first verdict").hasSize(1);
		assertThat(this.tracker.verdict().cause()).isEqualTo(Cause.THREAD_PER_CONNECTION);
	}

	@Test
	void twoCausesAlternatingEquallyKeepTheFirstNamedAndNeverSwitch() {
		List<Verdict> changes = new ArrayList<>();
		for (int i = 0; i < 100; i++) {
			Verdict change = update((i % 2 == 0) ? HOT : CPU);
			if (change != null) {
				changes.add(change);
			}
		}
		assertThat(changes).hasSize(1);
		assertThat(this.tracker.verdict().cause()).isEqualTo(Cause.HOT_ROUTE);
	}

	@Test
	void aYoungStarvationFollowsTheWindowsLeadSoThatATransientAtTheStartIsCorrected() {
		update(CONNECTIONS);
		update(CONNECTIONS);
		assertThat(update(SLOW)).isNull();
		assertThat(update(SLOW)).as("a tie goes to the cause declared first").isNull();
		Verdict change = update(SLOW);
		assertThat(change.cause()).isEqualTo(Cause.THREAD_PER_CONNECTION);
		assertThat(this.tracker.verdict().cause()).isEqualTo(Cause.SLOW_CLIENTS);
	}

	@Test
	void anOlderStarvationSwitchesCauseOnlyWhenTheNewOneHasLedTheWindowForTheHoldTime() {
		for (int i = 0; i < PoolTracker.CAUSE_WINDOW + 2; i++) {
			update(CONNECTIONS);
		}
		int evaluations = 0;
		Verdict change = null;
		while (change == null && evaluations < 60) {
			change = update(CPU);
			evaluations++;
		}
		assertThat(change).isNotNull();
		assertThat(change.cause()).isEqualTo(Cause.THREAD_PER_CONNECTION);
		assertThat(this.tracker.verdict().cause()).isEqualTo(Cause.CPU_BOUND);
		// CPU leads the 10-evaluation window from its 6th finding on (5 to 5 is a tie the older
		// cause wins), then must lead 15 in a row
		assertThat(evaluations).isEqualTo(5 + PoolTracker.HOLD);
	}

	@Test
	void aCpuSaturatedPoolIsNotStarvedAndEndsAStarvationAsOkDoes() {
		assertThat(update(SATURATED)).isNull();
		assertThat(this.tracker.verdict().status()).isEqualTo(Verdict.Status.CPU_SATURATED);
		assertThat(this.tracker.verdict().evidence()).isEqualTo("saturated");
		update(CONNECTIONS);
		update(CONNECTIONS);
		update(SATURATED);
		update(SATURATED);
		assertThat(update(SATURATED)).isNotNull();
		assertThat(this.tracker.verdict().status()).isEqualTo(Verdict.Status.CPU_SATURATED);
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

	@Test
	void queueWindowIsTheAverageLengthAndTheItemsDequeuedSinceTheOldestReading() {
		PoolTracker tracker = new PoolTracker("app", "default", 2, Instant.EPOCH);
		assertThat(tracker.queueWindow(4, 100)).isEqualTo(new PoolTracker.QueueWindow(4, -1));
		assertThat(tracker.queueWindow(6, 110)).isEqualTo(new PoolTracker.QueueWindow(6, 10));
		assertThat(tracker.queueWindow(8, 110)).isEqualTo(new PoolTracker.QueueWindow(7, 10));
		assertThat(tracker.queueWindow(2, 130)).isEqualTo(new PoolTracker.QueueWindow(5, 20));
		assertThat(tracker.queueWindow(2, -1)).isEqualTo(new PoolTracker.QueueWindow(2, -1));
	}

	private Verdict update(Finding finding) {
		this.clock = this.clock.plusSeconds(1);
		return this.tracker.update(finding, "ok", this.clock);
	}

}
