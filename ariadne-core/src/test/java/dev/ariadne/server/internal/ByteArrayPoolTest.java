package dev.ariadne.server.internal;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ByteArrayPool}.
 */
class ByteArrayPoolTest {

	@Test
	void reusesAnArrayGivenBack() {
		ByteArrayPool pool = new ByteArrayPool(16, 2);
		byte[] first = pool.borrow();
		assertThat(first).hasSize(16);
		pool.release(first);
		assertThat(pool.borrow()).isSameAs(first);
		assertThat(pool.borrow()).isNotSameAs(first).hasSize(16);
	}

	@Test
	void neverTakesBackAnArrayOfAnotherSize() {
		ByteArrayPool pool = new ByteArrayPool(16, 2);
		byte[] grown = new byte[32];
		pool.release(grown);
		assertThat(pool.borrow()).isNotSameAs(grown).hasSize(16);
	}

	@Test
	void keepsAtMostTheRetainedNumberOfFreeArrays() {
		ByteArrayPool pool = new ByteArrayPool(16, 2);
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

}
