package dev.ariadne.server.pool;

import java.util.List;

import dev.ariadne.server.stats.PoolStats;

/**
 * A bounded pool that runs tasks: platform workers ({@link WorkerPool}) or virtual threads
 * behind permits ({@link VirtualPool}).
 */
public interface TaskPool extends PoolStats {

	/**
	 * Runs a task, or queues it.
	 * @param task the task
	 * @return {@code false} when the queue is full or the pool is shut down; the task will not
	 * run and the caller must answer for it
	 */
	boolean execute(Runnable task);

	/**
	 * Stops taking tasks and removes the queued ones, which will never run; running tasks go
	 * on.
	 * @return the queued tasks
	 */
	List<Runnable> shutdownAndDrainQueue();

	/**
	 * Waits for running tasks to finish after a shutdown.
	 * @param millis the most time to wait
	 * @return whether every task finished
	 * @throws InterruptedException if interrupted while waiting
	 */
	boolean awaitTermination(long millis) throws InterruptedException;

	/**
	 * Stops now, interrupting running tasks.
	 * @return the queued tasks, which will never run
	 */
	List<Runnable> shutdownNow();

}
