package dev.ariadne;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A client that sends as fast as the server reads, on a thread of its own, until it has sent a
 * total or stops making progress: how a test shows that a server stops reading a client whose
 * messages its application does not take, rather than buffer them.
 */
public final class Flood {

	/** Sends one piece, waiting while the peer does not read. */
	@FunctionalInterface
	public interface Send {

		void send() throws Exception;

	}

	private final AtomicLong sent = new AtomicLong();

	private final Thread thread;

	private Flood(int piece, long total, Send send) {
		this.thread = new Thread(() -> {
			try {
				while (this.sent.get() < total) {
					send.send();
					this.sent.addAndGet(piece);
				}
			}
			catch (Exception ex) {
				// the connection closed at the end of the test
			}
		}, "ws-flood");
		this.thread.setDaemon(true);
	}

	/**
	 * Starts sending and returns once the sender stalled (no progress for a second) or sent the
	 * total, within 30 seconds.
	 * @param piece the bytes each call of {@code send} sends
	 * @param total the most bytes to send
	 * @param send sends one piece
	 * @return the flood, whose thread ends once its connection is closed
	 */
	public static Flood untilStalled(int piece, long total, Send send) throws InterruptedException {
		Flood flood = new Flood(piece, total, send);
		flood.thread.start();
		long last = -1;
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
		while (System.nanoTime() < deadline) {
			long now = flood.sent.get();
			if (now == last || now >= total) {
				break;
			}
			last = now;
			Thread.sleep(1000);
		}
		return flood;
	}

	/**
	 * Returns the bytes sent so far.
	 * @return the count
	 */
	public long sent() {
		return this.sent.get();
	}

	/**
	 * Waits for the sending thread to end, once the test closed its connection.
	 */
	public void join() throws InterruptedException {
		this.thread.join(10_000);
	}

}
