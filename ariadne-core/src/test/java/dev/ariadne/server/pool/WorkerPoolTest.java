package dev.ariadne.server.pool;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.ariadne.Await;
import dev.ariadne.server.internal.Threads;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link WorkerPool}: growth before queuing, the bounded queue, the last-idle-first
 * hand-off, retirement of idle workers, and both kinds of shutdown.
 */
class WorkerPoolTest {

	private final List<WorkerPool> pools = new ArrayList<>();

	private final CountDownLatch release = new CountDownLatch(1);

	@AfterEach
	void stopPools() throws InterruptedException {
		this.release.countDown();
		for (WorkerPool pool : this.pools) {
			pool.shutdownNow();
			assertThat(pool.awaitTermination(5000)).isTrue();
		}
	}

	@Test
	void growsToItsMaximumBeforeItQueuesAndRefusesBeyondTheQueue() throws Exception {
		WorkerPool pool = pool(0, 3, 2, TimeUnit.SECONDS.toNanos(60));
		occupy(pool, 3);
		assertThat(pool.threads()).isEqualTo(3);
		assertThat(pool.busyWorkers()).isEqualTo(3);
		assertThat(pool.queued()).isZero();
		assertThat(pool.execute(blocked(new CountDownLatch(1)))).isTrue();
		assertThat(pool.execute(blocked(new CountDownLatch(1)))).isTrue();
		assertThat(pool.queued()).isEqualTo(2);
		assertThat(pool.execute(blocked(new CountDownLatch(1)))).as("a third task beyond a queue of 2").isFalse();
		assertThat(pool.threads()).isEqualTo(3);
	}

	@Test
	void runsQueuedTasksWhenWorkersFreeUp() throws Exception {
		WorkerPool pool = pool(0, 2, 10, TimeUnit.SECONDS.toNanos(60));
		occupy(pool, 2);
		CountDownLatch done = new CountDownLatch(10);
		for (int i = 0; i < 10; i++) {
			assertThat(pool.execute(done::countDown)).isTrue();
		}
		assertThat(pool.queued()).isEqualTo(10);
		this.release.countDown();
		assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
		Await.until(() -> pool.busyWorkers() == 0 && pool.queued() == 0, () -> describe(pool));
	}

	@Test
	void tellsATaskWhetherItWaitedForABusyWorker() throws Exception {
		WorkerPool pool = pool(0, 1, 5, TimeUnit.SECONDS.toNanos(60));
		List<Boolean> waited = new CopyOnWriteArrayList<>();
		CountDownLatch started = new CountDownLatch(1);
		CountDownLatch done = new CountDownLatch(2);
		pool.execute(aware(waited, () -> {
			started.countDown();
			await(this.release);
			done.countDown();
		}));
		assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
		pool.execute(aware(waited, done::countDown));
		assertThat(pool.queued()).isEqualTo(1);
		this.release.countDown();
		assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
		// the first had a worker started for it; the second waited for that worker to finish
		assertThat(waited).containsExactly(false, true);
	}

	private static WorkerPool.QueueAware aware(List<Boolean> waited, Runnable body) {
		return new WorkerPool.QueueAware() {

			@Override
			public void taken(boolean wasQueued) {
				waited.add(wasQueued);
			}

			@Override
			public void run() {
				body.run();
			}

		};
	}

	@Test
	void handsATaskToTheWorkerThatBecameIdleLast() throws Exception {
		WorkerPool pool = pool(0, 8, 8, TimeUnit.SECONDS.toNanos(60));
		// start five workers, then let them all go idle
		occupy(pool, 5);
		this.release.countDown();
		Await.until(() -> pool.busyWorkers() == 0, () -> describe(pool));
		// one task at a time: a first-in-first-out hand-off would rotate through all five
		Set<String> threads = ConcurrentHashMap.newKeySet();
		for (int i = 0; i < 50; i++) {
			CountDownLatch done = new CountDownLatch(1);
			pool.execute(() -> {
				threads.add(Thread.currentThread().getName());
				done.countDown();
			});
			assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
			Await.until(() -> pool.busyWorkers() == 0, () -> describe(pool));
		}
		assertThat(threads).hasSize(1);
		assertThat(pool.threads()).isEqualTo(5);
	}

	@Test
	void idleWorkersAboveTheMinimumRetire() throws Exception {
		WorkerPool pool = pool(2, 6, 6, TimeUnit.MILLISECONDS.toNanos(100));
		occupy(pool, 6);
		assertThat(pool.threads()).isEqualTo(6);
		this.release.countDown();
		Await.until(() -> pool.threads() == 2, () -> describe(pool));
		// the four above the minimum retired on their first expiry; the two left stay through
		// expiries of their own (four at least between them) without retiring
		Await.until(() -> pool.keepAliveExpiries() >= 4 + 2 * 2, () -> describe(pool));
		assertThat(pool.threads()).as("the minimum stays").isEqualTo(2);
		CountDownLatch done = new CountDownLatch(1);
		assertThat(pool.execute(done::countDown)).isTrue();
		assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void aFailingTaskDoesNotCostAWorker() throws Exception {
		AtomicInteger reported = new AtomicInteger();
		WorkerPool pool = new WorkerPool("test", 0, 1, 10, (task) -> {
			Thread thread = new Thread(task, "test-worker");
			thread.setDaemon(true);
			thread.setUncaughtExceptionHandler((t, ex) -> reported.incrementAndGet());
			return thread;
		});
		this.pools.add(pool);
		pool.execute(() -> {
			throw new IllegalStateException("boom");
		});
		CountDownLatch done = new CountDownLatch(1);
		pool.execute(done::countDown);
		assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(reported).hasValue(1);
		assertThat(pool.threads()).isEqualTo(1);
	}

	@Test
	void shutdownAndDrainQueueReturnsQueuedTasksAndLetsRunningOnesFinish() throws Exception {
		WorkerPool pool = pool(0, 1, 5, TimeUnit.SECONDS.toNanos(60));
		CountDownLatch started = new CountDownLatch(1);
		AtomicInteger finished = new AtomicInteger();
		pool.execute(() -> {
			started.countDown();
			await(this.release);
			finished.incrementAndGet();
		});
		assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
		Runnable queued = finished::incrementAndGet;
		pool.execute(queued);
		assertThat(pool.shutdownAndDrainQueue()).containsExactly(queued);
		assertThat(pool.execute(finished::incrementAndGet)).as("refused after shutdown").isFalse();
		assertThat(pool.awaitTermination(100)).isFalse();
		this.release.countDown();
		assertThat(pool.awaitTermination(5000)).isTrue();
		assertThat(finished).hasValue(1);
		assertThat(pool.threads()).isZero();
	}

	@Test
	void shutdownNowInterruptsRunningTasks() throws Exception {
		WorkerPool pool = pool(0, 2, 5, TimeUnit.SECONDS.toNanos(60));
		CountDownLatch started = new CountDownLatch(2);
		AtomicInteger interrupted = new AtomicInteger();
		for (int i = 0; i < 2; i++) {
			pool.execute(() -> {
				started.countDown();
				try {
					Thread.sleep(60_000);
				}
				catch (InterruptedException ex) {
					interrupted.incrementAndGet();
				}
			});
		}
		assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(pool.shutdownNow()).isEmpty();
		assertThat(pool.awaitTermination(5000)).isTrue();
		assertThat(interrupted).hasValue(2);
	}

	@Test
	void manyProducersLoseNoTask() throws Exception {
		WorkerPool pool = pool(0, 4, 100_000, TimeUnit.MILLISECONDS.toNanos(20));
		int producers = 4;
		int perProducer = 20_000;
		CountDownLatch done = new CountDownLatch(producers * perProducer);
		List<Thread> threads = new ArrayList<>();
		for (int p = 0; p < producers; p++) {
			Thread producer = new Thread(() -> {
				for (int i = 0; i < perProducer; i++) {
					if (!pool.execute(done::countDown)) {
						throw new AssertionError("refused");
					}
					if (i % 1000 == 0) {
						// let workers go idle and retire now and then
						Thread.onSpinWait();
					}
				}
			});
			threads.add(producer);
			producer.start();
		}
		for (Thread producer : threads) {
			producer.join();
		}
		assertThat(done.await(10, TimeUnit.SECONDS)).as("every task ran").isTrue();
		Await.until(() -> pool.busyWorkers() == 0 && pool.queued() == 0, () -> describe(pool));
	}

	private WorkerPool pool(int min, int max, int queueCapacity, long keepAliveNanos) {
		WorkerPool pool = new WorkerPool("test", min, max, queueCapacity, Threads.named("test-worker", true),
				keepAliveNanos);
		this.pools.add(pool);
		return pool;
	}

	/** Starts tasks that hold their workers until {@link #release} opens, and waits for them. */
	private void occupy(WorkerPool pool, int workers) throws InterruptedException {
		CountDownLatch started = new CountDownLatch(workers);
		for (int i = 0; i < workers; i++) {
			assertThat(pool.execute(blocked(started))).isTrue();
		}
		assertThat(started.await(5, TimeUnit.SECONDS)).isTrue();
	}

	private Runnable blocked(CountDownLatch started) {
		return () -> {
			started.countDown();
			await(this.release);
		};
	}

	private static void await(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static String describe(WorkerPool pool) {
		return "threads " + pool.threads() + ", busy " + pool.busyWorkers() + ", queued " + pool.queued()
				+ ", keep-alive expiries " + pool.keepAliveExpiries();
	}

}
