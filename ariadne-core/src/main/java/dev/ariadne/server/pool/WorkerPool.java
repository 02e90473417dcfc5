package dev.ariadne.server.pool;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import dev.ariadne.server.RateLimitedLogger;

/**
 * A bounded pool of platform worker threads with a bounded queue. It grows to its maximum
 * before it queues (as Tomcat's executor does; a plain {@code ThreadPoolExecutor} queues
 * first), and it wakes the worker that became idle last.
 *
 * <p>Both choices matter under a steady load of short tasks (the event loop's requests). Waking
 * the last idle worker keeps the same few threads, with warm caches, doing the work while the
 * others stay parked and retire after {@value #KEEP_ALIVE_SECONDS} s; an executor whose idle
 * workers wait on a queue's condition wakes the one that has waited longest and keeps every
 * thread it ever started in rotation (two hundred of them, on two cores, in the W1 benchmark).
 * And only one worker is woken at a time: tasks that arrive while it is on its way queue behind
 * it, busy workers that finish meanwhile take them without parking, and the woken worker wakes
 * the next one only if more than one task is waiting when it arrives.
 */
public final class WorkerPool implements TaskPool {

	private static final Logger logger = System.getLogger(WorkerPool.class.getName());

	private static final RateLimitedLogger taskFailures = RateLimitedLogger.of(logger, Level.ERROR,
			"Pool task failed", RateLimitedLogger.DEFAULT_INTERVAL);

	static final long KEEP_ALIVE_SECONDS = 60;

	private final String name;

	private final int minWorkers;

	private final int maxWorkers;

	private final int queueCapacity;

	private final ThreadFactory threadFactory;

	private final long keepAliveNanos;

	private final ReentrantLock lock = new ReentrantLock();

	private final Condition terminated = this.lock.newCondition();

	// ---- guarded by lock

	/** Parked workers; the last one became idle last and is the one woken next. */
	private final ArrayDeque<Worker> idle = new ArrayDeque<>();

	private final ArrayDeque<Runnable> queue = new ArrayDeque<>();

	private final Set<Worker> workers = new HashSet<>();

	// ---- written under lock, read by anyone

	private volatile boolean shutdown;

	private volatile int threads;

	/** {@link #threads} less the idle ones, as last counted by {@link #recount()}. */
	private volatile int busyThreads;

	/** As last counted by {@link #recount()}. */
	private volatile int queuedTasks;

	/** How often an idle worker's keep-alive time ran out, whether it retired or stayed. */
	private volatile int keepAliveExpiries;

	/** Tasks that waited in the queue and were taken by a worker; written under the lock. */
	private volatile long dequeued;

	/**
	 * Workers woken (or created) to take a queued task that have not taken one yet; under lock.
	 * While one is on its way, new tasks only queue: the worker that takes one wakes the next
	 * if more are left, so a burst costs one wake-up at a time and busy workers that finish in
	 * the meantime take the rest without parking.
	 */
	private int waking;

	/**
	 * Creates a pool; threads start on demand.
	 * @param name the pool name, reported in statistics
	 * @param minWorkers threads kept when idle
	 * @param maxWorkers most threads
	 * @param queueCapacity most tasks waiting
	 * @param threadFactory creates the worker threads
	 */
	public WorkerPool(String name, int minWorkers, int maxWorkers, int queueCapacity, ThreadFactory threadFactory) {
		this(name, minWorkers, maxWorkers, queueCapacity, threadFactory, TimeUnit.SECONDS.toNanos(KEEP_ALIVE_SECONDS));
	}

	WorkerPool(String name, int minWorkers, int maxWorkers, int queueCapacity, ThreadFactory threadFactory,
			long keepAliveNanos) {
		if (maxWorkers <= 0 || minWorkers < 0 || minWorkers > maxWorkers || queueCapacity < 0) {
			throw new IllegalArgumentException("Invalid pool sizes: min " + minWorkers + ", max " + maxWorkers
					+ ", queue capacity " + queueCapacity);
		}
		this.name = name;
		this.minWorkers = minWorkers;
		this.maxWorkers = maxWorkers;
		this.queueCapacity = queueCapacity;
		this.threadFactory = threadFactory;
		this.keepAliveNanos = keepAliveNanos;
	}

	@Override
	public boolean execute(Runnable task) {
		Worker created;
		this.lock.lock();
		try {
			if (this.shutdown || this.queuedTasks >= this.queueCapacity) {
				return false;
			}
			this.queue.addLast(task);
			// while a worker is on its way to the queue, it takes this task, or wakes another
			// worker if it finds more than one waiting
			created = (this.waking == 0) ? wakeOne() : null;
			recount();
		}
		finally {
			this.lock.unlock();
		}
		start(created);
		return true;
	}

	/**
	 * Wakes the worker that became idle last, or creates one when none is idle and the pool may
	 * grow; the caller starts a created one outside the lock.
	 * @return a created worker to start, or {@code null}
	 */
	private Worker wakeOne() {
		// caller holds lock
		Worker worker = this.idle.pollLast();
		if (worker != null) {
			this.waking++;
			worker.woken = true;
			LockSupport.unpark(worker.thread);
			return null;
		}
		if (this.threads < this.maxWorkers) {
			worker = new Worker();
			this.workers.add(worker);
			this.threads++;
			this.waking++;
			worker.woken = true;
			return worker;
		}
		return null;
	}

	private void start(Worker worker) {
		if (worker == null) {
			return;
		}
		try {
			worker.thread.start();
		}
		catch (OutOfMemoryError | IllegalThreadStateException ex) {
			// no thread could be started ("unable to create native thread"): the busy workers
			// still take the queued task
			this.lock.lock();
			try {
				this.waking--;
				removeWorker(worker);
			}
			finally {
				this.lock.unlock();
			}
		}
	}

	/**
	 * Returns the next task for a worker: the oldest queued one, waiting idle for one when
	 * there is none, or {@code null} when the worker should exit.
	 */
	private Runnable next(Worker worker) {
		boolean timedOut = false;
		while (true) {
			Runnable task;
			Worker created = null;
			boolean waited = false;
			this.lock.lock();
			try {
				if (worker.woken) {
					worker.woken = false;
					this.waking--;
				}
				task = this.queue.pollFirst();
				if (task != null) {
					if (!this.queue.isEmpty() && this.waking == 0) {
						// more are waiting than this worker takes: pass the wake-up on
						created = wakeOne();
					}
					int before = this.queuedTasks;
					recount();
					waited = this.queuedTasks < before;
					if (waited) {
						this.dequeued++;
					}
				}
				else if (this.shutdown || timedOut && this.threads > this.minWorkers) {
					// counted out here, under the lock, so that two workers timing out together
					// cannot both leave and take the pool below its minimum
					removeWorker(worker);
					return null;
				}
				else {
					this.idle.addLast(worker);
					recount();
				}
			}
			finally {
				this.lock.unlock();
			}
			if (task != null) {
				start(created);
				if (task instanceof QueueAware aware) {
					aware.taken(waited);
				}
				return task;
			}
			timedOut = park(worker);
		}
	}

	/**
	 * Parks an idle worker until it is woken or its keep-alive time is over.
	 * @return whether the time ran out (the worker is then no longer idle)
	 */
	private boolean park(Worker worker) {
		// a task's interrupt must not turn the park into a spin
		Thread.interrupted();
		long deadline = System.nanoTime() + this.keepAliveNanos;
		while (true) {
			if (worker.woken) {
				return false;
			}
			long left = deadline - System.nanoTime();
			if (left <= 0 || this.shutdown) {
				this.lock.lock();
				try {
					if (worker.woken) {
						return false;
					}
					this.idle.removeFirstOccurrence(worker);
					recount();
					this.keepAliveExpiries++;
					return true;
				}
				finally {
					this.lock.unlock();
				}
			}
			LockSupport.parkNanos(this, left);
		}
	}

	/**
	 * Publishes the statistics after a change of the guarded state: the busy workers (every
	 * thread that is not idle), and the tasks waiting for a worker to finish: those in the
	 * queue beyond the workers on their way to it, the idle ones and the ones the pool may still
	 * start (which is what a queued task means in an executor that grows before it queues).
	 */
	private void recount() {
		// caller holds lock
		this.busyThreads = this.threads - this.idle.size();
		this.queuedTasks = Math.max(0, this.queue.size() - this.waking - this.idle.size()
				- (this.maxWorkers - this.threads));
	}

	private void exited(Worker worker) {
		this.lock.lock();
		try {
			removeWorker(worker);
		}
		finally {
			this.lock.unlock();
		}
	}

	private void removeWorker(Worker worker) {
		// caller holds lock
		if (this.workers.remove(worker)) {
			this.threads--;
			recount();
			if (this.threads == 0) {
				this.terminated.signalAll();
			}
		}
	}

	@Override
	public List<Runnable> shutdownNow() {
		this.lock.lock();
		try {
			List<Runnable> pending = stopTaking();
			for (Worker worker : this.workers) {
				worker.thread.interrupt();
			}
			return pending;
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public List<Runnable> shutdownAndDrainQueue() {
		this.lock.lock();
		try {
			List<Runnable> pending = stopTaking();
			for (Worker worker : this.idle) {
				LockSupport.unpark(worker.thread);
			}
			return pending;
		}
		finally {
			this.lock.unlock();
		}
	}

	private List<Runnable> stopTaking() {
		// caller holds lock
		this.shutdown = true;
		List<Runnable> pending = new ArrayList<>(this.queue);
		this.queue.clear();
		recount();
		return pending;
	}

	@Override
	public boolean awaitTermination(long millis) throws InterruptedException {
		long left = TimeUnit.MILLISECONDS.toNanos(millis);
		this.lock.lock();
		try {
			while (this.threads > 0) {
				if (left <= 0) {
					return false;
				}
				left = this.terminated.awaitNanos(left);
			}
			return true;
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public String name() {
		return this.name;
	}

	@Override
	public int busyWorkers() {
		return this.busyThreads;
	}

	@Override
	public int maxWorkers() {
		return this.maxWorkers;
	}

	@Override
	public int queued() {
		return this.queuedTasks;
	}

	@Override
	public long dequeued() {
		return this.dequeued;
	}

	@Override
	public int queueCapacity() {
		return this.queueCapacity;
	}

	@Override
	public List<Thread> workerThreads() {
		this.lock.lock();
		try {
			List<Thread> busy = new ArrayList<>(this.workers.size());
			Set<Worker> idle = new HashSet<>(this.idle);
			for (Worker worker : this.workers) {
				if (!idle.contains(worker)) {
					busy.add(worker.thread);
				}
			}
			return busy;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Returns the threads the pool has now, busy or idle.
	 * @return the thread count
	 */
	public int threads() {
		return this.threads;
	}

	/**
	 * Returns how often an idle worker's keep-alive time ran out: each time, the worker retired
	 * or, at the minimum, went back to waiting. Written under the lock.
	 * @return the count
	 */
	int keepAliveExpiries() {
		return this.keepAliveExpiries;
	}

	/**
	 * A task told, as a worker takes it, whether it was one of the {@linkplain #queued() queued}
	 * tasks: whether it waited for a busy worker to finish, rather than for a worker being
	 * woken or started for it.
	 */
	public interface QueueAware extends Runnable {

		/**
		 * Called on the worker, just before {@link #run()}.
		 * @param waited whether the task was counted as queued
		 */
		void taken(boolean waited);

	}

	private final class Worker implements Runnable {

		final Thread thread;

		/** Set under the pool's lock when the worker is woken (or created) to take a task. */
		volatile boolean woken;

		Worker() {
			this.thread = WorkerPool.this.threadFactory.newThread(this);
		}

		@Override
		public void run() {
			try {
				Runnable task;
				while ((task = next(this)) != null) {
					try {
						task.run();
					}
					catch (Throwable ex) {
						failed(ex);
					}
				}
			}
			finally {
				exited(this);
			}
		}

		/**
		 * A task let a failure escape (the server's own tasks handle theirs): the worker lives
		 * on. The failure goes to the thread's own uncaught-exception handler if it has one,
		 * else to the log, rate-limited, since it may repeat for every task.
		 */
		private void failed(Throwable failure) {
			Thread.UncaughtExceptionHandler handler = this.thread.getUncaughtExceptionHandler();
			try {
				if (handler != this.thread.getThreadGroup()) {
					handler.uncaughtException(this.thread, failure);
				}
				else {
					taskFailures.log(() -> "A task of pool '" + WorkerPool.this.name + "' failed", failure);
				}
			}
			catch (Throwable ex) {
				// out of memory while reporting it: the worker still lives on
			}
		}

	}

}
