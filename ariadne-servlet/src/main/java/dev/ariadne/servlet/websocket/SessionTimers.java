package dev.ariadne.servlet.websocket;

import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The scheduler Tyrus's sessions use (idle timeouts, heartbeats, send timeouts): one daemon
 * thread, made when first needed, whose cancelled tasks leave its queue at once.
 *
 * <p>Tyrus restarts a session's idle timeout at every message in or out by scheduling a task
 * after {@code maxIdleTimeout}, also when that is 0 (no timeout): a task to run at once, on the
 * scheduler's thread, that does nothing. That was an eighth of the server's CPU in an echo of
 * small messages; such a task is answered here with a future already done, without a thread.
 */
final class SessionTimers implements ScheduledExecutorService {

	/** Tyrus's idle-timeout task, which does nothing when the session has no timeout. */
	private static final String IDLE_TIMEOUT = "org.glassfish.tyrus.core.TyrusSession$IdleTimeoutCommand";

	private volatile ScheduledThreadPoolExecutor executor;

	private ScheduledThreadPoolExecutor executor() {
		ScheduledThreadPoolExecutor executor = this.executor;
		if (executor == null) {
			synchronized (this) {
				executor = this.executor;
				if (executor == null) {
					executor = new ScheduledThreadPoolExecutor(1, (task) -> {
						Thread thread = new Thread(task, "ariadne-websocket-timers");
						thread.setDaemon(true);
						return thread;
					});
					executor.setRemoveOnCancelPolicy(true);
					this.executor = executor;
				}
			}
		}
		return executor;
	}

	@Override
	public ScheduledFuture<?> schedule(Runnable command, long delay, TimeUnit unit) {
		if (delay <= 0 && command.getClass().getName().equals(IDLE_TIMEOUT)) {
			return Done.INSTANCE;
		}
		return executor().schedule(command, delay, unit);
	}

	@Override
	public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
		return executor().schedule(callable, delay, unit);
	}

	@Override
	public ScheduledFuture<?> scheduleAtFixedRate(Runnable command, long initialDelay, long period, TimeUnit unit) {
		return executor().scheduleAtFixedRate(command, initialDelay, period, unit);
	}

	@Override
	public ScheduledFuture<?> scheduleWithFixedDelay(Runnable command, long initialDelay, long delay, TimeUnit unit) {
		return executor().scheduleWithFixedDelay(command, initialDelay, delay, unit);
	}

	@Override
	public void execute(Runnable command) {
		executor().execute(command);
	}

	@Override
	public Future<?> submit(Runnable task) {
		return executor().submit(task);
	}

	@Override
	public <T> Future<T> submit(Runnable task, T result) {
		return executor().submit(task, result);
	}

	@Override
	public <T> Future<T> submit(Callable<T> task) {
		return executor().submit(task);
	}

	@Override
	public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks) throws InterruptedException {
		return executor().invokeAll(tasks);
	}

	@Override
	public <T> List<Future<T>> invokeAll(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
			throws InterruptedException {
		return executor().invokeAll(tasks, timeout, unit);
	}

	@Override
	public <T> T invokeAny(Collection<? extends Callable<T>> tasks) throws InterruptedException, ExecutionException {
		return executor().invokeAny(tasks);
	}

	@Override
	public <T> T invokeAny(Collection<? extends Callable<T>> tasks, long timeout, TimeUnit unit)
			throws InterruptedException, ExecutionException, TimeoutException {
		return executor().invokeAny(tasks, timeout, unit);
	}

	/** Stops the thread, if one was made; what was scheduled does not run. */
	@Override
	public void shutdown() {
		ScheduledThreadPoolExecutor executor = this.executor;
		if (executor != null) {
			executor.shutdownNow();
		}
	}

	@Override
	public List<Runnable> shutdownNow() {
		ScheduledThreadPoolExecutor executor = this.executor;
		return (executor != null) ? executor.shutdownNow() : List.of();
	}

	@Override
	public boolean isShutdown() {
		ScheduledThreadPoolExecutor executor = this.executor;
		return executor != null && executor.isShutdown();
	}

	@Override
	public boolean isTerminated() {
		ScheduledThreadPoolExecutor executor = this.executor;
		return executor != null && executor.isTerminated();
	}

	@Override
	public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
		ScheduledThreadPoolExecutor executor = this.executor;
		return executor == null || executor.awaitTermination(timeout, unit);
	}

	/** A task that had nothing to do: done, never cancelled. */
	private static final class Done implements ScheduledFuture<Object> {

		static final Done INSTANCE = new Done();

		@Override
		public long getDelay(TimeUnit unit) {
			return 0;
		}

		@Override
		public int compareTo(Delayed other) {
			return Long.compare(0, other.getDelay(TimeUnit.NANOSECONDS));
		}

		@Override
		public boolean cancel(boolean mayInterruptIfRunning) {
			return false;
		}

		@Override
		public boolean isCancelled() {
			return false;
		}

		@Override
		public boolean isDone() {
			return true;
		}

		@Override
		public Object get() {
			return null;
		}

		@Override
		public Object get(long timeout, TimeUnit unit) {
			return null;
		}

	}

}
