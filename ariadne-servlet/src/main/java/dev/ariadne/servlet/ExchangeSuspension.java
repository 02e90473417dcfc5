package dev.ariadne.servlet;

import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * How an exchange waits while its request is in async mode: the one place that decides what a
 * suspended exchange holds. For now it keeps its worker: after the servlet returns, the
 * exchange's thread waits here for work (async dispatches, completion, timeouts, I/O
 * callbacks, {@code AsyncContext.start} tasks) submitted from any thread, and runs it. When
 * the core can suspend an exchange and resume it on a worker of its pool, this class becomes
 * a thin adapter over that, and nothing else changes.
 *
 * <p>Timeouts run on one shared daemon scheduler thread, which only hands the timeout task to
 * the exchange's own thread.
 */
final class ExchangeSuspension {

	private static final ScheduledThreadPoolExecutor TIMER = timer();

	private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();

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
	 * Submits work to run on the exchange's thread, in submission order. Any thread may call it.
	 * @param task the work
	 */
	void execute(Runnable task) {
		this.tasks.add(task);
	}

	/**
	 * Wakes the exchange's thread so that it checks its state again.
	 */
	void wake() {
		this.tasks.add(() -> {
		});
	}

	/**
	 * Submits work to run on the exchange's thread after a delay.
	 * @param task the work
	 * @param millis the delay
	 * @return the handle that cancels it
	 */
	ScheduledFuture<?> schedule(Runnable task, long millis) {
		return TIMER.schedule(() -> execute(task), millis, TimeUnit.MILLISECONDS);
	}

	/**
	 * Runs submitted work on the calling thread (the exchange's) until the exchange is done.
	 * @param done whether the exchange needs no more work; checked before each wait
	 * @throws InterruptedException if the thread is interrupted while waiting (the server is
	 * stopping)
	 */
	void runUntil(BooleanSupplier done) throws InterruptedException {
		while (true) {
			Runnable task = this.tasks.poll();
			if (task == null) {
				if (done.getAsBoolean()) {
					return;
				}
				task = this.tasks.take();
			}
			task.run();
		}
	}

	/**
	 * Runs the work already submitted, without waiting.
	 */
	void runPending() {
		Runnable task;
		while ((task = this.tasks.poll()) != null) {
			task.run();
		}
	}

}
