package dev.ariadne.server.internal;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A bounded pool of platform worker threads with a bounded queue, that grows to its maximum
 * before it queues (unlike a plain {@link ThreadPoolExecutor}, which queues first), as Tomcat's
 * executor does.
 */
public final class WorkerPool implements TaskPool {

	private final String name;

	private final int maxWorkers;

	private final int queueCapacity;

	private final AtomicInteger busy = new AtomicInteger();

	/** Tasks accepted and not yet finished: running plus queued. */
	private final AtomicInteger submitted = new AtomicInteger();

	private final TaskQueue queue;

	private final Executor executor;

	/**
	 * Creates a pool; threads start on demand.
	 * @param name the pool name, reported in statistics
	 * @param minWorkers threads kept when idle
	 * @param maxWorkers most threads
	 * @param queueCapacity most tasks waiting
	 * @param threadFactory creates the worker threads
	 */
	public WorkerPool(String name, int minWorkers, int maxWorkers, int queueCapacity, ThreadFactory threadFactory) {
		this.name = name;
		this.maxWorkers = maxWorkers;
		this.queueCapacity = queueCapacity;
		this.queue = new TaskQueue(queueCapacity);
		this.executor = new Executor(minWorkers, maxWorkers, this.queue, threadFactory);
		this.queue.executor = this.executor;
	}

	@Override
	public boolean execute(Runnable task) {
		this.submitted.incrementAndGet();
		try {
			this.executor.execute(task);
			return true;
		}
		catch (RejectedExecutionException ex) {
			this.submitted.decrementAndGet();
			return false;
		}
	}

	@Override
	public List<Runnable> shutdownNow() {
		List<Runnable> pending = this.executor.shutdownNow();
		this.submitted.addAndGet(-pending.size());
		return pending;
	}

	@Override
	public List<Runnable> shutdownAndDrainQueue() {
		this.executor.shutdown();
		List<Runnable> pending = new ArrayList<>();
		this.queue.drainTo(pending);
		this.submitted.addAndGet(-pending.size());
		return pending;
	}

	@Override
	public boolean awaitTermination(long millis) throws InterruptedException {
		return this.executor.awaitTermination(millis, TimeUnit.MILLISECONDS);
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public int busyWorkers() {
		return this.busy.get();
	}

	@Override
	public int maxWorkers() {
		return this.maxWorkers;
	}

	@Override
	public int queued() {
		return this.queue.size();
	}

	@Override
	public int queueCapacity() {
		return this.queueCapacity;
	}

	private final class Executor extends ThreadPoolExecutor {

		Executor(int core, int max, TaskQueue queue, ThreadFactory threadFactory) {
			super(core, max, 60, TimeUnit.SECONDS, queue, threadFactory, (task, executor) -> {
				// the queue refused only to make the executor add a thread; queue it now if the
				// pool could not grow, within the queue's capacity
				if (executor.isShutdown() || !((TaskQueue) executor.getQueue()).force(task)) {
					throw new RejectedExecutionException("Worker pool queue is full");
				}
			});
		}

		@Override
		protected void beforeExecute(Thread thread, Runnable task) {
			WorkerPool.this.busy.incrementAndGet();
		}

		@Override
		protected void afterExecute(Runnable task, Throwable failure) {
			WorkerPool.this.busy.decrementAndGet();
			WorkerPool.this.submitted.decrementAndGet();
		}

	}

	/** Refuses offers while the pool can still grow, so that new tasks get new threads. */
	private final class TaskQueue extends LinkedBlockingQueue<Runnable> {

		private static final long serialVersionUID = 1L;

		transient ThreadPoolExecutor executor;

		TaskQueue(int capacity) {
			super(capacity);
		}

		@Override
		public boolean offer(Runnable task) {
			ThreadPoolExecutor pool = this.executor;
			int threads = pool.getPoolSize();
			if (threads < pool.getMaximumPoolSize() && WorkerPool.this.submitted.get() > threads) {
				return false;
			}
			return super.offer(task);
		}

		boolean force(Runnable task) {
			return super.offer(task);
		}

	}

}
