package dev.ariadne.server.internal;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link BufferBudget}.
 */
class BufferBudgetTest {

	private static final long LIMIT = 1024 * 1024;

	private final BufferBudget budget = new BufferBudget(LIMIT);

	@Test
	void inputBuffersMayTakeTheWholeBudgetBodiesAndOutputThreeQuarters() {
		assertThat(this.budget.tryReserve(LIMIT * 3 / 4 + 1)).isFalse();
		assertThat(this.budget.tryReserve(LIMIT * 3 / 4)).isTrue();
		assertThat(this.budget.exhausted()).isTrue();
		assertThat(this.budget.tryReserve(1)).isFalse();
		assertThat(this.budget.tryReserveInput(LIMIT / 4)).isTrue();
		assertThat(this.budget.tryReserveInput(1)).isFalse();
		assertThat(this.budget.used()).isEqualTo(LIMIT);
		this.budget.release(LIMIT);
		assertThat(this.budget.used()).isZero();
	}

	@Test
	void forcedBytesAreCountedBeyondTheLimit() {
		this.budget.force(LIMIT + 10);
		assertThat(this.budget.used()).isEqualTo(LIMIT + 10);
		assertThat(this.budget.tryReserveInput(1)).isFalse();
	}

	@Test
	void aWaitingReservationIsGrantedWhenBytesComeBack() throws Exception {
		assertThat(this.budget.tryReserve(LIMIT / 2)).isTrue();
		CompletableFuture<Boolean> waiting = CompletableFuture
			.supplyAsync(() -> reserve(LIMIT / 2, TimeUnit.SECONDS.toNanos(10)));
		// it cannot be granted until the first half comes back
		assertThat(this.budget.used()).isEqualTo(LIMIT / 2);
		this.budget.release(LIMIT / 2);
		assertThat(waiting.get(10, TimeUnit.SECONDS)).isTrue();
		assertThat(this.budget.used()).isEqualTo(LIMIT / 2);
	}

	@Test
	void aWaitingReservationFailsAtItsTimeoutAndTakesNothing() {
		assertThat(this.budget.tryReserve(LIMIT / 2)).isTrue();
		assertThat(reserve(LIMIT / 2, TimeUnit.MILLISECONDS.toNanos(50))).isFalse();
		assertThat(this.budget.used()).isEqualTo(LIMIT / 2);
	}

	@Test
	void aReservationLargerThanItsShareFailsAtOnce() {
		assertThat(reserve(LIMIT, TimeUnit.SECONDS.toNanos(10))).isFalse();
		assertThat(this.budget.used()).isZero();
	}

	@Test
	void runsAReleaseCallbackOnceAfterTheNextRelease() {
		AtomicInteger calls = new AtomicInteger();
		assertThat(this.budget.tryReserveInput(LIMIT)).isTrue();
		this.budget.whenReleased(16, calls::incrementAndGet);
		assertThat(calls).hasValue(0);
		this.budget.release(16);
		assertThat(calls).hasValue(1);
		this.budget.release(16);
		assertThat(calls).hasValue(1);
	}

	@Test
	void runsAReleaseCallbackAtOnceWhenTheBytesFitAlready() {
		AtomicInteger calls = new AtomicInteger();
		this.budget.whenReleased(16, calls::incrementAndGet);
		assertThat(calls).hasValue(1);
	}

	private boolean reserve(long bytes, long nanos) {
		try {
			return this.budget.reserve(bytes, nanos);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
