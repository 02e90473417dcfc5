package dev.ariadne.servlet;

import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.util.ArrayDeque;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.ariadne.server.AsyncResponse;

/**
 * The container's work for one request in async mode, one task at a time, on the core's
 * workers: async dispatches, the completion, timeouts, listener events and I/O callbacks. It
 * runs on the workers of the suspended core exchange ({@link AsyncResponse#execute}), so in
 * {@code event-loop} and {@code virtual-threads} no worker waits for a suspended request, and
 * the tasks of one request never run at the same time, each one seeing what the previous did.
 *
 * <p>The request's own dispatch holds the line until it has returned ({@link #release()}):
 * what the application asks for meanwhile, from its thread or others, waits for it, as the
 * specification requires, and then runs on the dispatch's thread. Timeouts run on one shared
 * daemon scheduler thread, which only hands the timeout task over.
 */
final class ExchangeTasks {

	private static final Logger logger = System.getLogger(ExchangeTasks.class.getName());

	private static final ScheduledThreadPoolExecutor TIMER = timer();

	private final AsyncResponse core;

	private final ArrayDeque<Runnable> queue = new ArrayDeque<>();

	/** Whether a task runs, or the request's dispatch still holds the line; guarded by this. */
	private boolean running = true;

	/**
	 * Creates the tasks of a request that the request's dispatch suspended.
	 * @param core the suspended core exchange
	 */
	ExchangeTasks(AsyncResponse core) {
		this.core = core;
	}

	private static ScheduledThreadPoolExecutor timer() {
		ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "ariadne-servlet-async-timeouts");
			thread.setDaemon(true);
			return thread;
		});
		timer.setRemoveOnCancelPolicy(true);
		return timer;
	}

	/**
	 * Returns the suspended core exchange.
	 * @return the core's async response
	 */
	AsyncResponse core() {
		return this.core;
	}

	/**
	 * Runs a task after the ones already given, on a worker of the request's pool. Any thread.
	 * @param task the task; what it throws is logged
	 */
	void execute(Runnable task) {
		synchronized (this) {
			this.queue.addLast(task);
			if (this.running) {
				return;
			}
			this.running = true;
		}
		submit();
	}

	/**
	 * Runs a task on the calling thread, a worker of the request's pool, if no other task runs;
	 * otherwise after the ones already given. For the core's callbacks, which run on a worker
	 * already.
	 * @param task the task
	 */
	void run(Runnable task) {
		synchronized (this) {
			this.queue.addLast(task);
			if (this.running) {
				return;
			}
			this.running = true;
		}
		drain();
	}

	/**
	 * The request's own dispatch has returned: the tasks given meanwhile run now, on the
	 * request's thread, which is a worker of the request's pool already. Handing them to
	 * another worker would cost a wake-up and a context switch for nothing, twice for a
	 * response written and completed at once (a reactive handler's usual case): the exchange's
	 * end, asked for while its handler still runs, is then the same thread's work too.
	 */
	void release() {
		synchronized (this) {
			if (this.queue.isEmpty()) {
				this.running = false;
				return;
			}
		}
		drain();
	}

	/**
	 * Runs a task after a delay, in line with the others.
	 * @param task the task
	 * @param millis the delay
	 * @return the handle that cancels it
	 */
	ScheduledFuture<?> schedule(Runnable task, long millis) {
		return TIMER.schedule(() -> execute(task), millis, TimeUnit.MILLISECONDS);
	}

	private void submit() {
		try {
			this.core.execute(this::drain);
		}
		catch (IllegalStateException ex) {
			// the exchange has ended, or its pool is stopping: nothing is left to do for it
			logger.log(Level.DEBUG, "An async task of an ended exchange was dropped", ex);
			synchronized (this) {
				this.queue.clear();
				this.running = false;
			}
		}
	}

	private void drain() {
		while (true) {
			Runnable task;
			synchronized (this) {
				task = this.queue.pollFirst();
				if (task == null) {
					this.running = false;
					return;
				}
			}
			try {
				task.run();
			}
			catch (Throwable ex) {
				logger.log(Level.WARNING, "An async task of the servlet container failed", ex);
			}
		}
	}

}
