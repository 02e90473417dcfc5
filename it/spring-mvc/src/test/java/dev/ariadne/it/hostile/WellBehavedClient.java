package dev.ariadne.it.hostile;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;

/**
 * The client an attack must not hurt: one plain socket (a new one after a failure or a close),
 * {@code GET /} every 50 to 100 ms, each answer awaited for at most 5 s. Records every request:
 * when it was sent, how long its answer took, and whether it was answered 200.
 */
final class WellBehavedClient implements AutoCloseable {

	private static final Duration READ_TIMEOUT = Duration.ofSeconds(5);

	private static final String REQUEST = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: well-behaved\r\n\r\n";

	private final int port;

	private final long started = System.nanoTime();

	private final List<Exchange> exchanges = new ArrayList<>();

	private final Thread thread;

	private volatile boolean stopped;

	/**
	 * One request.
	 *
	 * @param sentMillis when it was sent, after the client started
	 * @param millis how long it took to be answered, or to fail
	 * @param status the answer's status, or 0 when it failed
	 * @param failure why it failed, or {@code null}
	 */
	record Exchange(long sentMillis, long millis, int status, String failure) {

		boolean ok() {
			return this.status == 200;
		}

	}

	private WellBehavedClient(int port) {
		this.port = port;
		this.thread = new Thread(this::run, "well-behaved-client");
		this.thread.setDaemon(true);
	}

	/**
	 * Starts the client.
	 * @param port the application's port
	 * @return the running client
	 */
	static WellBehavedClient start(int port) {
		WellBehavedClient client = new WellBehavedClient(port);
		client.thread.start();
		return client;
	}

	private void run() {
		RawClient client = null;
		while (!this.stopped) {
			long sent = System.nanoTime();
			int status = 0;
			String failure = null;
			try {
				if (client == null) {
					client = RawClient.connect(this.port, READ_TIMEOUT);
				}
				RawResponse response = client.exchange(REQUEST);
				status = response.status();
				if (response.announcesClose()) {
					client.close();
					client = null;
				}
			}
			catch (IOException | RuntimeException ex) {
				failure = ex.toString();
				if (client != null) {
					client.close();
					client = null;
				}
			}
			long now = System.nanoTime();
			synchronized (this.exchanges) {
				this.exchanges.add(new Exchange(TimeUnit.NANOSECONDS.toMillis(sent - this.started),
						TimeUnit.NANOSECONDS.toMillis(now - sent), status, failure));
			}
			if (!this.stopped) {
				// the client's pace, not a wait for a condition
				sleep(ThreadLocalRandom.current().nextLong(50, 101));
			}
		}
		if (client != null) {
			client.close();
		}
	}

	private static void sleep(long millis) {
		try {
			Thread.sleep(millis);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Stops sending, waits for the request in flight, and returns what happened.
	 * @return the figures
	 */
	Figures stop() {
		this.stopped = true;
		try {
			this.thread.join(READ_TIMEOUT.toMillis() + 5000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		return figures();
	}

	/** What happened so far. */
	Figures figures() {
		synchronized (this.exchanges) {
			return new Figures(List.copyOf(this.exchanges));
		}
	}

	@Override
	public void close() {
		this.stopped = true;
	}

	/**
	 * The client's requests.
	 *
	 * @param exchanges every request, in order
	 */
	record Figures(List<Exchange> exchanges) {

		long sent() {
			return this.exchanges.size();
		}

		long answered() {
			return this.exchanges.stream().filter(Exchange::ok).count();
		}

		long failed() {
			return sent() - answered();
		}

		double answeredShare() {
			return this.exchanges.isEmpty() ? 0 : (double) answered() / sent();
		}

		/**
		 * The latency at a percentile over every request; a failed one counts with the time it
		 * took to fail.
		 * @param percentile from 0 to 100
		 * @return milliseconds
		 */
		long percentile(double percentile) {
			if (this.exchanges.isEmpty()) {
				return -1;
			}
			long[] millis = this.exchanges.stream().mapToLong(Exchange::millis).sorted().toArray();
			int index = (int) Math.ceil(percentile / 100 * millis.length) - 1;
			return millis[Math.max(0, Math.min(millis.length - 1, index))];
		}

		/** When the first 200 arrived after the client started, or -1. */
		long firstAnsweredMillis() {
			return this.exchanges.stream().filter(Exchange::ok).mapToLong((e) -> e.sentMillis() + e.millis()).min()
				.orElse(-1);
		}

		/** The statuses other than 200 and the failures, for messages. */
		List<String> problems() {
			return this.exchanges.stream().filter((e) -> !e.ok())
				.map((e) -> "at " + e.sentMillis() + " ms: " + ((e.failure() != null) ? e.failure() : e.status())
						+ " after " + e.millis() + " ms")
				.limit(10)
				.toList();
		}

		String summary() {
			return "well-behaved " + answered() + "/" + sent() + " answered, p50 " + percentile(50) + " ms, p99 "
					+ percentile(99) + " ms, max " + percentile(100) + " ms";
		}

	}

}
