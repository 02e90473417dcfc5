package com.example.shop;

import java.util.concurrent.Semaphore;

/**
 * An application's downstream for the diagnosis scenarios: reserving stock waits for a permit
 * of a semaphore the test holds, as a handler waits for a JDBC connection from an exhausted
 * pool. It lives outside {@code dev.ariadne} so that its frames are the application's.
 */
public final class Inventory {

	private final Semaphore permits = new Semaphore(0);

	/**
	 * Reserves an item, waiting for a permit first.
	 * @return the reservation's text
	 * @throws InterruptedException if interrupted while waiting
	 */
	public String reserve() throws InterruptedException {
		this.permits.acquire();
		try {
			return "reserved";
		}
		finally {
			this.permits.release();
		}
	}

	/**
	 * Lets every waiting and future reservation through.
	 */
	public void open() {
		this.permits.release(10_000);
	}

}
