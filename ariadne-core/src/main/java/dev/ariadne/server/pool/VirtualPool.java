package dev.ariadne.server.pool;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.ariadne.server.RateLimitedLogger;

/**
 * A pool that runs each task on a new virtual thread, at most {@code maxWorkers} at once, with
 * at most {@code queueCapacity} tasks waiting for a turn.
 */
public final class VirtualPool implements TaskPool {

	private static final Logger logger = System.getLogger(VirtualPool.class.getName());

	private static final RateLimitedLogger taskFailures = RateLimitedLogger.of(logger, Level.ERROR,
			"Pool task failed", RateLimitedLogger.DEFAULT_INTERVAL);

	private final String name;

	private final int maxWorkers;

	private final int queueCapacity;

	private final ThreadFactory threadFactory;

	private final Queue<Runnable> waiting = new ConcurrentLinkedQueue<>();

	private final AtomicInteger running = new AtomicInteger();

	private final AtomicInteger queued = new AtomicInteger();

	private final AtomicLong dequeued = new AtomicLong();

	/** The threads running a task now, so that {@link #shutdownNow()} can interrupt them. */
	private final Set<Thread> threads = ConcurrentHashMap.newKeySet();

	private volatile boolean shutdown;

	private volatile boolean interrupting;

	/**
	 * Creates a pool.
	 * @param name the pool name
	 * @param maxWorkers most tasks running at once
	 * @param queueCapacity most tasks waiting
	 * @param threadFactory creates the virtual threads
	 */
	public VirtualPool(String name, int maxWorkers, int queueCapacity, ThreadFactory threadFactory) {
		this.name = name;
		this.maxWorkers = maxWorkers;
		this.queueCapacity = queueCapacity;
		this.threadFactory = threadFactory;
	}

	@Override
	public boolean execute(Runnable task) {
		if (this.shutdown) {
			return false;
		}
		if (tryStart()) {
			start(task);
			return true;
		}
		if (this.queued.incrementAndGet() > this.queueCapacity) {
			this.queued.decrementAndGet();
			return false;
		}
		this.waiting.add(task);
		// a task may have finished between the failed start and the enqueue: run what waits
		startWaiting();
		return true;
	}

	private boolean tryStart() {
		while (true) {
			int current = this.running.get();
			if (current >= this.maxWorkers) {
				return false;
			}
			if (this.running.compareAndSet(current, current + 1)) {
				return true;
			}
		}
	}

	private void start(Runnable task) {
		this.threadFactory.newThread(() -> {
			Thread current = Thread.currentThread();
			this.threads.add(current);
			if (this.interrupting) {
				// started just as shutdownNow() walked the running threads
				current.interrupt();
			}
			try {
				task.run();
			}
			catch (Throwable ex) {
				// the server's own tasks handle their failures; anything else is logged, not
				// printed for every task by the default uncaught-exception handler
				taskFailures.log(() -> "A task of pool '" + this.name + "' failed", ex);
			}
			finally {
				this.threads.remove(current);
				this.running.decrementAndGet();
				startWaiting();
			}
		}).start();
	}

	private void startWaiting() {
		while (!this.waiting.isEmpty() && tryStart()) {
			Runnable next = this.waiting.poll();
			if (next == null) {
				this.running.decrementAndGet();
				return;
			}
			this.queued.decrementAndGet();
			this.dequeued.incrementAndGet();
			start(next);
		}
	}

	@Override
	public List<Runnable> shutdownAndDrainQueue() {
		this.shutdown = true;
		List<Runnable> pending = new ArrayList<>();
		Runnable task;
		while ((task = this.waiting.poll()) != null) {
			this.queued.decrementAndGet();
			pending.add(task);
		}
		return pending;
	}

	@Override
	public boolean awaitTermination(long millis) throws InterruptedException {
		long deadline = System.nanoTime() + millis * 1_000_000;
		while (this.running.get() > 0) {
			if (System.nanoTime() - deadline >= 0) {
				return false;
			}
			Thread.sleep(5);
		}
		return true;
	}

	@Override
	public List<Runnable> shutdownNow() {
		List<Runnable> pending = shutdownAndDrainQueue();
		this.interrupting = true;
		for (Thread thread : this.threads) {
			thread.interrupt();
		}
		return pending;
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public int busyWorkers() {
		return this.running.get();
	}

	@Override
	public List<Thread> workerThreads() {
		return List.copyOf(this.threads);
	}

	@Override
	public int maxWorkers() {
		return this.maxWorkers;
	}

	@Override
	public int queued() {
		return this.queued.get();
	}

	@Override
	public long dequeued() {
		return this.dequeued.get();
	}

	@Override
	public int queueCapacity() {
		return this.queueCapacity;
	}

}
