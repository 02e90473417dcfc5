package dev.ariadne.server.internal;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Named thread factories for the server's platform threads.
 */
public final class Threads {

	private Threads() {
	}

	/**
	 * Returns a factory of threads named {@code prefix-1}, {@code prefix-2}, ...
	 * @param prefix the name prefix, for example {@code ariadne-app-worker}
	 * @param daemon whether the threads are daemons
	 * @return the factory
	 */
	public static ThreadFactory named(String prefix, boolean daemon) {
		AtomicInteger counter = new AtomicInteger();
		return (task) -> {
			Thread thread = new Thread(task, prefix + "-" + counter.incrementAndGet());
			thread.setDaemon(daemon);
			return thread;
		};
	}

}
