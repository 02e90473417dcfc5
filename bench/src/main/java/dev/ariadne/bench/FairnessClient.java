package dev.ariadne.bench;

import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;

/**
 * W5: {@code conns} keep-alive connections, each on its own thread, send {@code GET /} in a
 * loop for {@code seconds} (reconnecting when the server closes). Prints one line: how many
 * connections got at least one response and how long, from the common start, the slowest
 * of them waited for its first. Aggregate req/s hides a server that answers only a few
 * connections; this does not.
 */
final class FairnessClient {

	private static final byte[] REQUEST = "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
		.getBytes(StandardCharsets.US_ASCII);

	private final InetSocketAddress address;

	private final long start;

	private final long end;

	private final long[] firstNanos;

	private final long[] responses;

	private FairnessClient(InetSocketAddress address, int conns, long start, long end) {
		this.address = address;
		this.start = start;
		this.end = end;
		this.firstNanos = new long[conns];
		this.responses = new long[conns];
		Arrays.fill(this.firstNanos, -1);
	}

	public static void main(String[] args) throws InterruptedException {
		int port = Integer.parseInt(args[0]);
		int conns = Integer.parseInt(args[1]);
		long seconds = Long.parseLong(args[2]);
		long start = System.nanoTime() + 200_000_000L;
		FairnessClient client = new FairnessClient(new InetSocketAddress("127.0.0.1", port), conns, start,
				start + seconds * 1_000_000_000L);
		CountDownLatch gate = new CountDownLatch(1);
		Thread[] threads = new Thread[conns];
		for (int i = 0; i < conns; i++) {
			int slot = i;
			threads[i] = new Thread(() -> client.loop(slot, gate), "fairness-" + i);
			threads[i].setDaemon(true);
			threads[i].start();
		}
		Thread.sleep(Math.max(0, (start - System.nanoTime()) / 1_000_000));
		gate.countDown();
		for (Thread thread : threads) {
			thread.join(Math.max(1, (client.end - System.nanoTime()) / 1_000_000 + 2000));
		}
		client.print(seconds);
	}

	private void loop(int slot, CountDownLatch gate) {
		try {
			gate.await();
		}
		catch (InterruptedException ex) {
			return;
		}
		while (remainingMillis() > 0) {
			try (Socket socket = new Socket()) {
				socket.setTcpNoDelay(true);
				socket.connect(this.address, timeoutMillis());
				exchange(slot, socket);
			}
			catch (IOException ex) {
				pause();
			}
		}
	}

	/** Sends requests on one connection until the deadline or until the server closes it. */
	private void exchange(int slot, Socket socket) throws IOException {
		OutputStream out = socket.getOutputStream();
		InputStream in = new BufferedInputStream(socket.getInputStream());
		boolean open = true;
		while (open && remainingMillis() > 0) {
			socket.setSoTimeout(timeoutMillis());
			out.write(REQUEST);
			out.flush();
			open = readResponse(in);
			long now = System.nanoTime();
			if (now > this.end) {
				// Clients closing at the deadline free a starved server's workers: not a response in time.
				return;
			}
			if (this.firstNanos[slot] < 0) {
				this.firstNanos[slot] = now - this.start;
			}
			this.responses[slot]++;
		}
	}

	/** Reads one response with a Content-Length body; returns whether the connection stays open. */
	private static boolean readResponse(InputStream in) throws IOException {
		int contentLength = 0;
		boolean close = false;
		String line;
		while (!(line = readLine(in)).isEmpty()) {
			String lower = line.toLowerCase(Locale.ROOT);
			if (lower.startsWith("content-length:")) {
				contentLength = Integer.parseInt(lower.substring(15).trim());
			}
			else if (lower.startsWith("connection:") && lower.contains("close")) {
				close = true;
			}
		}
		in.readNBytes(contentLength);
		return !close;
	}

	private static String readLine(InputStream in) throws IOException {
		StringBuilder line = new StringBuilder(64);
		int c;
		while ((c = in.read()) != '\n') {
			if (c < 0) {
				throw new EOFException();
			}
			if (c != '\r') {
				line.append((char) c);
			}
		}
		return line.toString();
	}

	private int remainingMillis() {
		return (int) Math.max(0, (this.end - System.nanoTime()) / 1_000_000);
	}

	/**
	 * The time left plus a margin, as a socket timeout: no socket may give up (and so free a
	 * starved server's worker for a waiting connection) before the deadline.
	 */
	private int timeoutMillis() {
		return remainingMillis() + 200;
	}

	private static void pause() {
		try {
			Thread.sleep(10);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private void print(long seconds) {
		long[] served = Arrays.stream(this.firstNanos).filter((first) -> first >= 0).sorted().toArray();
		long total = Arrays.stream(this.responses).sum();
		double p50 = (served.length > 0) ? served[served.length / 2] / 1e6 : -1;
		double max = (served.length > 0) ? served[served.length - 1] / 1e6 : -1;
		System.out.println(String.format(Locale.ROOT,
				"FAIRNESS conns=%d served=%d responses=%d rps=%.0f first_p50_ms=%.1f first_max_ms=%.1f",
				this.firstNanos.length, served.length, total, total / (double) seconds, p50, max));
	}

}
