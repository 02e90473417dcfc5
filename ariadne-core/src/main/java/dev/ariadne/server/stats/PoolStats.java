package dev.ariadne.server.stats;

import java.util.List;

/**
 * Live figures of one worker pool, read on demand (for example when metrics are scraped). Every
 * method is cheap, never blocks and may be called from any thread; figures read together are
 * each current but not a consistent snapshot.
 *
 * <p>What a worker and a queued item are depends on the I/O model:
 * <ul>
 * <li>{@code blocking}: busy = workers owning a connection (serving it or waiting on its idle
 * keep-alive); queued = accepted connections waiting for a worker;</li>
 * <li>{@code event-loop}: busy = workers running a handler; queued = complete requests waiting
 * for a worker;</li>
 * <li>{@code virtual-threads}: busy = requests in flight; queued = requests waiting for a
 * permit.</li>
 * </ul>
 */
public interface PoolStats {

	/**
	 * Returns the pool's name: {@code default} for the server's worker pool.
	 * @return the pool name
	 */
	String name();

	/**
	 * Returns the workers busy now, as defined per model above.
	 * @return the busy count, 0 to {@link #maxWorkers()}
	 */
	int busyWorkers();

	/**
	 * Returns the most workers the pool may use ({@code threads.max}).
	 * @return the maximum
	 */
	int maxWorkers();

	/**
	 * Returns the items waiting for a worker now, as defined per model above.
	 * @return the queue length
	 */
	int queued();

	/**
	 * Returns the most items that may wait; beyond it new work is rejected.
	 * @return the queue capacity
	 */
	int queueCapacity();

	/**
	 * Returns how many items that waited for a worker have got one since the pool started: the
	 * rate at which the queue moves. With {@link #queued()} it tells a pool that serves every
	 * client in turn (items wait, briefly) from a starved one (items wait and none gets
	 * through). Counted only when an item leaves the queue, never on the path of one that did
	 * not wait.
	 * @return the count, or -1 where the pool does not count it
	 */
	default long dequeued() {
		return -1;
	}

	/**
	 * Returns the threads doing the pool's work now, for a diagnosis that samples their states
	 * and stacks: {@code blocking}, the workers owning a connection; {@code event-loop} and
	 * route pools, the workers running a task; {@code virtual-threads}, the virtual threads of
	 * the connections that are not idle (a request in flight, or one being read or waiting for
	 * a permit). Walks the pool's threads, so call it at most about once a second, never on
	 * the request path; a thread may finish its work while the list is being read.
	 * @return the threads, empty when the pool cannot tell
	 */
	default List<Thread> workerThreads() {
		return List.of();
	}

	/**
	 * Returns the share of busy workers now.
	 * @return {@link #busyWorkers()} over {@link #maxWorkers()}, from 0 to 1
	 */
	default double saturation() {
		return saturation(busyWorkers(), maxWorkers());
	}

	/**
	 * Returns the share of busy workers from figures already read, so that they agree with it.
	 * @param busy the busy workers
	 * @param max the most workers
	 * @return busy over max, from 0 to 1; 0 when max is 0
	 */
	static double saturation(int busy, int max) {
		return (max > 0) ? Math.min(1.0, (double) busy / max) : 0.0;
	}

}
