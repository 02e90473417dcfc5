package dev.ariadne.autoconfigure.actuate;

import java.time.Duration;
import java.util.Random;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.within;

/**
 * Tests for {@link SaturationShedding}, sampled with a time of the test's own: 100 ms steps, a
 * reaction time of 1 s, at most 4 s out, at least 10 s in.
 */
class SaturationSheddingTest {

	private static final long STEP = Duration.ofMillis(100).toNanos();

	private static final SaturationShedding.Settings SETTINGS = new SaturationShedding.Settings(Duration.ofSeconds(1),
			Duration.ofSeconds(4), Duration.ofSeconds(10), 0.05, true);

	private long now = 1_000_000_000L;

	@Test
	void reachesNinetyFivePercentPressureAfterOneReactionTimeOfStarvation() {
		SaturationShedding shedding = shedding(SETTINGS);
		run(shedding, true, Duration.ofSeconds(1));
		assertThat(shedding.pressure()).isCloseTo(0.95, within(0.01));
		assertThat(shedding.weight()).isCloseTo(Math.pow(0.05, 0.95), within(0.005));
	}

	@Test
	void neverAsksForLessThanTheMinimumWeight() {
		SaturationShedding shedding = shedding(SETTINGS);
		run(shedding, true, Duration.ofMinutes(1));
		assertThat(shedding.weight()).isGreaterThanOrEqualTo(0.05).isCloseTo(0.05, within(0.001));
	}

	@Test
	void dividesTheWeightByTheSameFactorForEveryTenthOfPressure() {
		SaturationShedding shedding = shedding(SETTINGS);
		double previous = shedding.weight();
		assertThat(previous).isEqualTo(1.0);
		for (int i = 0; i < 10; i++) {
			sample(shedding, true);
			assertThat(shedding.weight()).isLessThan(previous);
			assertThat(Math.log(shedding.weight()) / Math.log(0.05)).isCloseTo(shedding.pressure(), within(1e-9));
			previous = shedding.weight();
		}
	}

	@Test
	void asksForItsFullWeightAgainOnceNothingWaits() {
		SaturationShedding shedding = shedding(SETTINGS);
		run(shedding, true, Duration.ofSeconds(5));
		run(shedding, false, Duration.ofSeconds(1));
		assertThat(shedding.weight()).isGreaterThan(0.8);
		run(shedding, false, Duration.ofSeconds(5));
		assertThat(shedding.weight()).isCloseTo(1.0, within(0.001));
	}

	@Test
	void followsThePartOfTheTimeThePoolIsStarved() {
		SaturationShedding shedding = shedding(SETTINGS);
		for (int i = 0; i < 200; i++) {
			sample(shedding, i % 4 == 0);
		}
		assertThat(shedding.pressure()).isBetween(0.15, 0.4);
		assertThat(shedding.readinessOut()).isFalse();
	}

	@Test
	void takesReadinessOutOnlyOncePressureReachesTheUpperThreshold() {
		SaturationShedding shedding = shedding(SETTINGS);
		int samples = 0;
		while (!shedding.readinessOut()) {
			sample(shedding, true);
			samples++;
		}
		assertThat(shedding.pressure()).isGreaterThanOrEqualTo(SaturationShedding.OUT_THRESHOLD);
		// ln(4) time constants of a third of a second: about 0.46 s.
		assertThat(samples).isBetween(4, 6);
		assertThat(shedding.timesOut()).isEqualTo(1);
	}

	@Test
	void bringsReadinessBackOncePressureFallsToTheLowerThreshold() {
		SaturationShedding shedding = shedding(SETTINGS);
		run(shedding, true, Duration.ofSeconds(1));
		assertThat(shedding.readinessOut()).isTrue();
		while (shedding.readinessOut()) {
			sample(shedding, false);
			if (shedding.readinessOut()) {
				assertThat(shedding.pressure()).isGreaterThan(SaturationShedding.IN_THRESHOLD);
			}
		}
		assertThat(shedding.pressure()).isLessThanOrEqualTo(SaturationShedding.IN_THRESHOLD);
	}

	@Test
	void staysOutAtMostMaxOutAndAtLeastHalfOfItWhileStarved() {
		for (long seed = 0; seed < 20; seed++) {
			SaturationShedding shedding = started(new SaturationShedding(() -> null, SETTINGS, new Random(seed)));
			long out = timeUntil(shedding, true, true);
			long in = timeUntil(shedding, true, false);
			assertThat(Duration.ofNanos(in - out)).isBetween(Duration.ofSeconds(2), Duration.ofSeconds(4));
		}
	}

	@Test
	void staysInForMinInBetweenTwoTimesOutWhileStarved() {
		SaturationShedding shedding = shedding(SETTINGS);
		timeUntil(shedding, true, true);
		for (int cycle = 0; cycle < 5; cycle++) {
			long backIn = timeUntil(shedding, true, false);
			long nextOut = timeUntil(shedding, true, true);
			assertThat(Duration.ofNanos(nextOut - backIn)).isBetween(Duration.ofSeconds(10),
					Duration.ofMillis(10_100));
		}
		assertThat(shedding.timesOut()).isEqualTo(6);
	}

	@Test
	void isInServiceForMostOfTheTimeWhenStarvedForever() {
		SaturationShedding shedding = shedding(SETTINGS);
		long out = 0;
		long total = Duration.ofMinutes(10).toNanos() / STEP;
		for (long i = 0; i < total; i++) {
			sample(shedding, true);
			if (shedding.readinessOut()) {
				out++;
			}
		}
		// At most 4 s out for every 10 s in.
		assertThat((double) out / total).isLessThanOrEqualTo(4.0 / 14 + 0.01);
	}

	@Test
	void neverTakesReadinessOutWhenSaturationReadinessIsOff() {
		SaturationShedding shedding = shedding(new SaturationShedding.Settings(Duration.ofSeconds(1),
				Duration.ofSeconds(4), Duration.ofSeconds(10), 0.05, false));
		run(shedding, true, Duration.ofSeconds(30));
		assertThat(shedding.readinessOut()).isFalse();
		assertThat(shedding.timesOut()).isZero();
		assertThat(shedding.weight()).isCloseTo(0.05, within(0.001));
	}

	@Test
	void rejectsAZeroMinimumWeightNamingTheProperty() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new SaturationShedding.Settings(Duration.ofSeconds(1), Duration.ofSeconds(4),
					Duration.ofSeconds(10), 0, false))
			.withMessageStartingWith("ariadne.server.health.shedding.min-weight must be above 0 and at most 1");
	}

	@Test
	void rejectsANonPositiveDurationNamingTheProperty() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new SaturationShedding.Settings(Duration.ofSeconds(1), Duration.ZERO,
					Duration.ofSeconds(10), 0.05, false))
			.withMessage("ariadne.server.health.shedding.max-out must be positive, but was PT0S");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new SaturationShedding.Settings(Duration.ofSeconds(-1), Duration.ofSeconds(4),
					Duration.ofSeconds(10), 0.05, false))
			.withMessageStartingWith("ariadne.server.health.shedding.reaction-time must be positive");
	}

	@Test
	void samplesEveryTenthOfTheReactionTimeAndAtLeastEvery100Milliseconds() {
		assertThat(shedding(SETTINGS).periodNanos()).isEqualTo(STEP);
		SaturationShedding fast = shedding(new SaturationShedding.Settings(Duration.ofMillis(200),
				Duration.ofSeconds(4), Duration.ofSeconds(10), 0.05, true));
		assertThat(fast.periodNanos()).isEqualTo(Duration.ofMillis(20).toNanos());
	}

	/** Returns a shedding that has taken its first sample, as the sampler does when it starts. */
	private SaturationShedding shedding(SaturationShedding.Settings settings) {
		return started(new SaturationShedding(() -> null, settings, new Random(42)));
	}

	private SaturationShedding started(SaturationShedding shedding) {
		shedding.sample(this.now, false);
		return shedding;
	}

	private void sample(SaturationShedding shedding, boolean starved) {
		this.now += STEP;
		shedding.sample(this.now, starved);
	}

	private void run(SaturationShedding shedding, boolean starved, Duration duration) {
		for (long i = 0; i < duration.toNanos() / STEP; i++) {
			sample(shedding, starved);
		}
	}

	/** Samples until readiness is out (or in), at most ten minutes; returns the time it changed. */
	private long timeUntil(SaturationShedding shedding, boolean starved, boolean out) {
		long deadline = this.now + Duration.ofMinutes(10).toNanos();
		while (shedding.readinessOut() != out) {
			assertThat(this.now).isLessThan(deadline);
			sample(shedding, starved);
		}
		return this.now;
	}

}
