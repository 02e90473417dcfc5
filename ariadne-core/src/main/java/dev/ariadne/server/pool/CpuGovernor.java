package dev.ariadne.server.pool;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * Tells {@linkplain WorkerPool worker pools} whether the CPU has room for another thread, and
 * starts the threads they held back once it has, or in place of workers that are blocked.
 *
 * <p>A pool of short tasks that grows whenever every worker is busy grows to its maximum as soon
 * as there are more tasks in flight than cores: a worker waiting for a core looks as busy as one
 * waiting for a database. Two hundred runnable workers on two cores then share them in slices,
 * and the switching between them costs more CPU than the tasks. What separates the two cases is
 * whether the CPU is contended, which Linux measures as pressure stall information: the share of
 * time in which some runnable task waited for a core ({@code /proc/pressure/cpu}). While that
 * share is at least {@value #CONTENDED} a pool beyond its floor queues instead of growing, and
 * once it falls the governor starts the threads held back. Meanwhile, every five ticks, it looks
 * at the pool's busy workers: one still on the same task, having used no CPU time since the last
 * look, is blocked (on a database, a lock, a remote call), whatever the CPU does, and gets a
 * worker started in its place while tasks wait; when all of them are, every waiting task gets
 * one. Where the pressure or the threads' CPU time
 * cannot be read (another OS, a kernel without pressure information) pools grow as before.
 *
 * <p>The governor is one daemon thread, {@code ariadne-pool-governor}, that reads the pressure
 * every tick while some pool asks for it and parks otherwise; a reading older than five ticks is
 * stale, and a pool that finds it so holds its thread back until the next. Pools only read what
 * it published.
 */
final class CpuGovernor implements Runnable {

	private static final long TICK_MILLIS = 10;

	/** The share of time with a task waiting for a core at which the CPU counts as contended. */
	static final double CONTENDED = 0.5;

	/** How long the governor keeps reading after the last pool asked. */
	private static final long LINGER_NANOS = TimeUnit.SECONDS.toNanos(1);

	private static final Path PRESSURE = Path.of("/proc/pressure/cpu");

	private static final CpuGovernor SHARED = new CpuGovernor(CpuGovernor::readPressure, threadCpuTime(),
			"ariadne-pool-governor", TimeUnit.MILLISECONDS.toNanos(TICK_MILLIS));

	/** Microseconds a task waited for a core since some point, or -1 when that cannot be read. */
	private final LongSupplier stalledMicros;

	/** A thread's CPU time in nanoseconds, or -1 when that cannot be read. */
	private final ToLongFunction<Thread> cpuNanos;

	private final String threadName;

	private final long tickNanos;

	private final Set<WorkerPool> waiting = ConcurrentHashMap.newKeySet();

	private final boolean available;

	private volatile Thread thread;

	private volatile boolean contended;

	/** {@link System#nanoTime()} of the reading {@link #contended} comes from; 0 before one. */
	private volatile long readAt;

	/** {@link System#nanoTime()} of the last question or hold-back; keeps the governor reading. */
	private volatile long askedAt;

	private long lastStalled = -1;

	private long lastRead;

	/**
	 * Creates a governor.
	 * @param stalledMicros reads the microseconds some task waited for a core since a fixed point,
	 * or -1 where that cannot be read (the governor then lets every pool grow)
	 * @param cpuNanos reads a thread's CPU time, or {@code null} where that cannot be read (the
	 * governor then lets every pool grow)
	 * @param threadName the name of its thread
	 * @param tickNanos how often it reads while pools ask
	 */
	CpuGovernor(LongSupplier stalledMicros, ToLongFunction<Thread> cpuNanos, String threadName, long tickNanos) {
		this.stalledMicros = stalledMicros;
		this.cpuNanos = cpuNanos;
		this.threadName = threadName;
		this.tickNanos = tickNanos;
		this.available = cpuNanos != null && stalledMicros.getAsLong() >= 0;
	}

	/** Reads threads' CPU time through the JVM's thread bean, or {@code null} where it cannot. */
	@SuppressWarnings("deprecation") // Thread.getId(): threadId() is Java 19
	static ToLongFunction<Thread> threadCpuTime() {
		try {
			ThreadMXBean threads = ManagementFactory.getThreadMXBean();
			if (!threads.isThreadCpuTimeSupported() || !threads.isThreadCpuTimeEnabled()) {
				return null;
			}
			return (thread) -> threads.getThreadCpuTime(thread.getId());
		}
		catch (RuntimeException | LinkageError ex) {
			// no java.management in this runtime
			return null;
		}
	}

	/**
	 * Returns the governor of this JVM's pools.
	 * @return the shared governor
	 */
	static CpuGovernor shared() {
		return SHARED;
	}

	/**
	 * Whether the CPU had room at the last reading, which is recent. Called under a pool's lock,
	 * on the thread that hands it a task: reads two fields and the clock.
	 * @return {@code true} when a pool may start a thread beyond its floor now
	 */
	boolean cpuHasRoom() {
		if (!this.available) {
			return true;
		}
		long now = System.nanoTime();
		if (now - this.askedAt > this.tickNanos) {
			this.askedAt = now;
		}
		return this.readAt != 0 && now - this.readAt < staleNanos() && !this.contended;
	}

	/**
	 * How often the governor reads while pools ask.
	 * @return the tick, in nanoseconds
	 */
	long tickNanos() {
		return this.tickNanos;
	}

	/**
	 * How long a busy worker must stay on the same task without using CPU time to count as
	 * blocked: five ticks, so that a worker merely waiting for a core on a loaded machine gets a
	 * time slice in between.
	 * @return the time, in nanoseconds
	 */
	long blockedNanos() {
		return 5 * this.tickNanos;
	}

	/**
	 * Reads a thread's CPU time.
	 * @param thread the thread
	 * @return its CPU time in nanoseconds, or -1 when it cannot be read (the thread ended)
	 */
	long cpuNanos(Thread thread) {
		return this.cpuNanos.applyAsLong(thread);
	}

	private long staleNanos() {
		return 5 * this.tickNanos;
	}

	/**
	 * A pool held a thread back: the governor starts it when the CPU has room or the pool's
	 * workers stop taking tasks.
	 * @param pool the pool
	 */
	void heldBack(WorkerPool pool) {
		this.askedAt = System.nanoTime();
		this.waiting.add(pool);
		wake();
	}

	private void wake() {
		Thread current = this.thread;
		if (current == null) {
			synchronized (this) {
				if (this.thread == null) {
					Thread started = new Thread(this, this.threadName);
					started.setDaemon(true);
					this.thread = started;
					started.start();
				}
			}
		}
		else {
			LockSupport.unpark(current);
		}
	}

	@Override
	public void run() {
		while (true) {
			long now = System.nanoTime();
			if (this.waiting.isEmpty() && now - this.askedAt > LINGER_NANOS) {
				// nothing to do: readings go stale, and the first pool that asks wakes us up
				LockSupport.park(this);
				continue;
			}
			read(now);
			boolean room = this.readAt != 0 && now - this.readAt < staleNanos() && !this.contended;
			for (WorkerPool pool : this.waiting) {
				if (!pool.reconsider(room)) {
					this.waiting.remove(pool);
					if (pool.heldBack()) {
						// held back again between the two calls: its own add found it still here
						this.waiting.add(pool);
					}
				}
			}
			LockSupport.parkNanos(this, this.tickNanos);
		}
	}

	/**
	 * Reads the pressure and publishes whether the CPU was contended since the previous reading;
	 * a reading too old to compare with (the governor was parked) only starts a new window.
	 */
	private void read(long now) {
		long elapsed = now - this.lastRead;
		if (this.lastStalled >= 0 && elapsed < this.tickNanos / 2) {
			// woken early by a pool: too short a window to tell
			return;
		}
		long stalled = this.stalledMicros.getAsLong();
		if (stalled < 0) {
			// the pressure went away (it was there at start): let pools grow as before
			this.contended = false;
			this.readAt = now;
			return;
		}
		if (this.lastStalled >= 0 && elapsed < staleNanos()) {
			double share = (stalled - this.lastStalled) * 1000.0 / elapsed;
			this.contended = share >= CONTENDED;
			this.readAt = now;
		}
		this.lastStalled = stalled;
		this.lastRead = now;
	}

	/** The {@code total} of the {@code some} line of {@code /proc/pressure/cpu}, or -1. */
	static long readPressure() {
		try {
			String text = new String(Files.readAllBytes(PRESSURE), StandardCharsets.US_ASCII);
			int at = text.indexOf("total=");
			if (!text.startsWith("some") || at < 0) {
				return -1;
			}
			int end = at + 6;
			while (end < text.length() && Character.isDigit(text.charAt(end))) {
				end++;
			}
			return Long.parseLong(text, at + 6, end, 10);
		}
		catch (IOException | RuntimeException ex) {
			return -1;
		}
	}

}
