package dev.ariadne.server.connection;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.ariadne.server.ServerConfig;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The limits of a body, counted over waiting time only: a pause, the minimum rate over each
 * period of waiting, and the stall of a starved pool.
 */
class BodyClockTest {

	private static final long SECOND = 1_000_000_000L;

	/** Pauses of 20 s at most; 1,000 bytes per second over periods of 10 s: 10,000 bytes each. */
	private final BodyClock clock = new BodyClock(ServerConfig.builder()
		.headerTimeout(Duration.ofSeconds(20))
		.minDataRate(1000)
		.minDataRateGrace(Duration.ofSeconds(10))
		.build());

	private long now = 1_000 * SECOND;

	@Test
	void aWaitWithinThePauseAndThePeriodIsFine() {
		assertThat(this.clock.startWait(this.now)).isEqualTo(this.now + 10 * SECOND);
		assertThat(this.clock.expiry(this.now + 9 * SECOND, Long.MAX_VALUE)).isEqualTo(BodyClock.Expiry.NONE);
	}

	@Test
	void aTrickleEndsWhenThePeriodOfWaitingBroughtTooFewBytes() {
		// a byte every two seconds: each wait is short, the period's waiting adds up
		for (int i = 0; i < 4; i++) {
			this.clock.startWait(this.now);
			this.now += 2 * SECOND;
			assertThat(this.clock.expiry(this.now, Long.MAX_VALUE)).isEqualTo(BodyClock.Expiry.NONE);
			this.clock.endWait(this.now, 1);
		}
		long deadline = this.clock.startWait(this.now);
		assertThat(deadline - this.now).as("what is left of the period").isEqualTo(2 * SECOND);
		assertThat(this.clock.expiry(this.now + 2 * SECOND, Long.MAX_VALUE)).isEqualTo(BodyClock.Expiry.RATE);
	}

	@Test
	void aPeriodThatBringsEnoughStartsTheNextWithNothingInHand() {
		this.clock.startWait(this.now);
		this.now += 9 * SECOND;
		this.clock.endWait(this.now, 1_000_000);
		// the million bytes buy no time: the next period asks its 10,000 again
		this.clock.startWait(this.now);
		assertThat(this.clock.expiry(this.now + 9 * SECOND, Long.MAX_VALUE)).isEqualTo(BodyClock.Expiry.NONE);
		assertThat(this.clock.expiry(this.now + 10 * SECOND, Long.MAX_VALUE)).isEqualTo(BodyClock.Expiry.RATE);
	}

	@Test
	void timeNotSpentWaitingDoesNotCount() {
		this.clock.startWait(this.now);
		this.now += 6 * SECOND;
		this.clock.endWait(this.now, 10);
		// the handler is busy for a minute: no wait, nothing counts
		this.now += 60 * SECOND;
		this.clock.startWait(this.now);
		assertThat(this.clock.expiry(this.now + 3 * SECOND, Long.MAX_VALUE)).isEqualTo(BodyClock.Expiry.NONE);
		assertThat(this.clock.expiry(this.now + 4 * SECOND, Long.MAX_VALUE)).isEqualTo(BodyClock.Expiry.RATE);
	}

	@Test
	void aPauseLongerThanTheHeaderTimeoutEndsTheBodyWithoutARate() {
		BodyClock noRate = new BodyClock(ServerConfig.builder().headerTimeout(Duration.ofSeconds(20)).minDataRate(0)
			.build());
		assertThat(noRate.startWait(this.now)).isEqualTo(this.now + 20 * SECOND);
		assertThat(noRate.expiry(this.now + 19 * SECOND, Long.MAX_VALUE)).isEqualTo(BodyClock.Expiry.NONE);
		assertThat(noRate.expiry(this.now + 20 * SECOND, Long.MAX_VALUE)).isEqualTo(BodyClock.Expiry.PAUSE);
	}

	@Test
	void aStarvedPoolEndsAWaitAtItsStallTimeout() {
		this.clock.startWait(this.now);
		assertThat(this.clock.expiry(this.now + SECOND / 2, SECOND)).isEqualTo(BodyClock.Expiry.NONE);
		assertThat(this.clock.expiry(this.now + SECOND + 1, SECOND)).isEqualTo(BodyClock.Expiry.STALL);
	}

	@Test
	void nothingExpiresWhileTheServerDoesNotWait() {
		this.clock.startWait(this.now);
		this.clock.endWait(this.now + SECOND, 0);
		assertThat(this.clock.waiting()).isFalse();
		assertThat(this.clock.expiry(this.now + 100 * SECOND, 1)).isEqualTo(BodyClock.Expiry.NONE);
	}

	@Test
	void aNewBodyStartsAFreshPeriod() {
		this.clock.startWait(this.now);
		this.clock.endWait(this.now + 9 * SECOND, 0);
		this.clock.reset();
		this.clock.startWait(this.now);
		assertThat(this.clock.expiry(this.now + 9 * SECOND, Long.MAX_VALUE)).isEqualTo(BodyClock.Expiry.NONE);
	}

}
