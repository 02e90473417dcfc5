package dev.ariadne.it.mvc;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where the application's slow requests wait until a test lets them go: so that a test holds
 * workers, or keeps a request in flight, for exactly as long as it needs, without sleeping.
 * Requests never wait longer than 30 s, so a failed test cannot hang the suite.
 */
final class Gate {

	private volatile CountDownLatch latch = new CountDownLatch(1);

	private final AtomicInteger waiting = new AtomicInteger();

	/**
	 * Waits until the gate opens, at most 30 s.
	 * @return whether it opened
	 * @throws InterruptedException if the thread is interrupted
	 */
	boolean pass() throws InterruptedException {
		this.waiting.incrementAndGet();
		try {
			return this.latch.await(30, TimeUnit.SECONDS);
		}
		finally {
			this.waiting.decrementAndGet();
		}
	}

	/**
	 * Returns how many requests wait at the gate.
	 * @return the count
	 */
	int waiting() {
		return this.waiting.get();
	}

	/** Lets every waiting request, and every later one, through. */
	void open() {
		this.latch.countDown();
	}

	/** Closes the gate for requests that come from now on. */
	void close() {
		this.latch = new CountDownLatch(1);
	}

}
