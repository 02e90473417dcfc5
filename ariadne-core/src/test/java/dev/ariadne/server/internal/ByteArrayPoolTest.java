package dev.ariadne.server.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ByteArrayPool}.
 */
class ByteArrayPoolTest {

	@Test
	void reusesAnArrayGivenBack() {
		ByteArrayPool pool = new ByteArrayPool(16, 2, new BufferBudget(1 << 20));
		byte[] first = pool.borrow();
		assertThat(first).hasSize(16);
		pool.release(first);
		assertThat(pool.borrow()).isSameAs(first);
		assertThat(pool.borrow()).isNotSameAs(first).hasSize(16);
	}

	@Test
	void neverTakesBackAnArrayOfAnotherSize() {
		ByteArrayPool pool = new ByteArrayPool(16, 2, new BufferBudget(1 << 20));
		byte[] grown = new byte[32];
		pool.release(grown);
		assertThat(pool.borrow()).isNotSameAs(grown).hasSize(16);
	}

	@Test
	void keepsAtMostTheRetainedNumberOfFreeArrays() {
		ByteArrayPool pool = new ByteArrayPool(16, 2, new BufferBudget(1 << 20));
		byte[] a = pool.borrow();
		byte[] b = pool.borrow();
		byte[] c = pool.borrow();
		pool.release(a);
		pool.release(b);
		pool.release(c);
		assertThat(pool.borrow()).isSameAs(b);
		assertThat(pool.borrow()).isSameAs(a);
		assertThat(pool.borrow()).isNotSameAs(c);
	}

	@Test
	void countsItsArraysInTheBudgetFromAllocationUntilDropped() {
		BufferBudget budget = new BufferBudget(1 << 20);
		ByteArrayPool pool = new ByteArrayPool(16, 1, budget);
		byte[] a = pool.borrow();
		byte[] b = pool.borrow();
		assertThat(budget.used()).isEqualTo(32);
		pool.release(a);
		assertThat(budget.used()).as("a retained free array stays counted").isEqualTo(32);
		pool.release(b);
		assertThat(budget.used()).as("an array beyond the retained one is dropped").isEqualTo(16);
		pool.borrow();
		assertThat(budget.used()).as("a reused array is counted once").isEqualTo(16);
	}

}
