package dev.ariadne.server.virtual;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The virtual threads of multiplexed streams (HTTP/2) in the {@code virtual-threads} model: no
 * more run at once than there are permits ({@code threads.max}), each taking the next waiting
 * stream when its own is done; the streams beyond wait here as tasks rather than as parked
 * threads, so that a waiting stream costs its exchange and not a thread's stack. Waiting streams
 * count as queued with the requests that wait for a permit, and beyond
 * {@code threads.queue-capacity} a stream is refused (503). A connection's own thread is not one
 * of these: it reads the connection's frames whatever its streams wait for.
 */
final class StreamThreads {

	private static final Logger logger = System.getLogger(StreamThreads.class.getName());

	private final ThreadFactory threads;

	private final VirtualThreadTransport.Permits permits;

	private final ConcurrentLinkedQueue<Runnable> pending = new ConcurrentLinkedQueue<>();

	private final AtomicInteger running = new AtomicInteger();

	StreamThreads(ThreadFactory threads, VirtualThreadTransport.Permits permits) {
		this.threads = threads;
		this.permits = permits;
	}

	/**
	 * Runs a stream's task on a virtual thread now, or once one is free.
	 * @param task the task
	 * @return whether it runs or waits; {@code false} when the queue is full
	 */
	boolean submit(Runnable task) {
		if (tryRun()) {
			start(task);
			return true;
		}
		if (!this.permits.queue()) {
			return false;
		}
		this.pending.add(task);
		// a thread may have ended between the test above and the add: nobody would take it
		startWaiting();
		return true;
	}

	private boolean tryRun() {
		int now;
		do {
			now = this.running.get();
			if (now >= this.permits.max()) {
				return false;
			}
		}
		while (!this.running.compareAndSet(now, now + 1));
		return true;
	}

	private Runnable next() {
		Runnable task = this.pending.poll();
		if (task != null) {
			this.permits.unqueue();
		}
		return task;
	}

	/** Starts a thread for a waiting task, if one waits and a thread may start. */
	private void startWaiting() {
		if (this.pending.isEmpty() || !tryRun()) {
			return;
		}
		Runnable task = next();
		if (task != null) {
			start(task);
		}
		else {
			this.running.decrementAndGet();
		}
	}

	private void start(Runnable first) {
		this.threads.newThread(() -> {
			Runnable task = first;
			while (task != null) {
				try {
					task.run();
				}
				catch (Throwable ex) {
					logger.log(Level.ERROR, "A stream's task failed", ex);
				}
				task = next();
			}
			this.running.decrementAndGet();
			startWaiting();
		}).start();
	}

}
