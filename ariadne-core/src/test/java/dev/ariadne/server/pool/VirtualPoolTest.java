package dev.ariadne.server.pool;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import dev.ariadne.Await;
import dev.ariadne.server.internal.VirtualThreads;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Tests for {@link VirtualPool}: the limit on running tasks, the bounded queue, and both kinds
 * of shutdown, as {@link TaskPool} promises them.
 */
class VirtualPoolTest {

	private final CountDownLatch release = new CountDownLatch(1);

	/** Tasks of {@link #blocked} interrupted while they waited for {@link #release}. */
	private final AtomicInteger interrupted = new AtomicInteger();

	/** The pool under test: one per test. */
	private VirtualPool pool;

	@BeforeEach
	void needsVirtualThreads() {
		assumeTrue(VirtualThreads.available(), "virtual threads need Java 21 or later");
	}

	@AfterEach
	void stopThePool() throws InterruptedException {
		this.release.countDown();
		if (this.pool != null) {
			this.pool.shutdownNow();
			assertThat(this.pool.awaitTermination(5000)).as("the pool's threads ended").isTrue();
		}
	}

	@Test
	void runsAtMostItsMaximumAndQueuesUpToItsCapacity() throws Exception {
		VirtualPool pool = pool(2, 1);
		CountDownLatch started = new CountDownLatch(2);
		assertThat(pool.execute(blocked(started))).isTrue();
		assertThat(pool.execute(blocked(started))).isTrue();
		assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
		CountDownLatch third = new CountDownLatch(1);
		assertThat(pool.execute(third::countDown)).isTrue();
		assertThat(pool.busyWorkers()).isEqualTo(2);
		assertThat(pool.queued()).isEqualTo(1);
		assertThat(pool.execute(() -> {
		})).as("a task beyond a queue of 1").isFalse();
		this.release.countDown();
		assertThat(third.await(5, TimeUnit.SECONDS)).as("the queued task ran").isTrue();
		Await.until(() -> pool.busyWorkers() == 0 && pool.queued() == 0,
				() -> "busy " + pool.busyWorkers() + ", queued " + pool.queued());
	}

	@Test
	void shutdownNowInterruptsRunningTasksAndReturnsQueuedOnes() throws Exception {
		VirtualPool pool = pool(2, 5);
		CountDownLatch started = new CountDownLatch(2);
		assertThat(pool.execute(blocked(started))).isTrue();
		assertThat(pool.execute(blocked(started))).isTrue();
		assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
		Runnable queued = () -> {
		};
		assertThat(pool.execute(queued)).isTrue();
		assertThat(pool.shutdownNow()).containsExactly(queued);
		assertThat(pool.awaitTermination(5000)).as("both tasks ended").isTrue();
		assertThat(this.interrupted).hasValue(2);
		assertThat(pool.execute(() -> {
		})).as("no task after a shutdown").isFalse();
	}

	@Test
	void shutdownAndDrainQueueLetsRunningTasksFinish() throws Exception {
		VirtualPool pool = pool(1, 5);
		CountDownLatch started = new CountDownLatch(1);
		assertThat(pool.execute(blocked(started))).isTrue();
		assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
		Runnable queued = () -> {
		};
		assertThat(pool.execute(queued)).isTrue();
		assertThat(pool.shutdownAndDrainQueue()).containsExactly(queued);
		assertThat(pool.awaitTermination(100)).as("the running task goes on").isFalse();
		this.release.countDown();
		assertThat(pool.awaitTermination(5000)).isTrue();
		assertThat(this.interrupted).hasValue(0);
	}

	private VirtualPool pool(int max, int queueCapacity) {
		this.pool = new VirtualPool("test", max, queueCapacity, VirtualThreads.factory("test-virtual-", "test=virtual", "test=platform"));
		return this.pool;
	}

	/** A task that holds its thread until {@link #release} opens, counting an interrupt. */
	private Runnable blocked(CountDownLatch started) {
		return () -> {
			started.countDown();
			try {
				this.release.await();
			}
			catch (InterruptedException ex) {
				this.interrupted.incrementAndGet();
			}
		};
	}

}
