package dev.ariadne.sample;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The verdict holds while the load does: the packaged sample application in {@code starved}
 * (4 blocking workers) under three steady loads of 20 keep-alive clients, the shapes that made
 * earlier verdicts cycle through four causes:
 * <ol>
 * <li>clients that never pause, on {@code /api/compute};</li>
 * <li>clients that pause 100 ms between requests;</li>
 * <li>clients alternating {@code /api/compute} and {@code /}, as {@code wrk} with a script does.</li>
 * </ol>
 * In each, once starved, the app's default pool keeps one cause, {@code thread-per-connection}
 * (the structural one), to the end of the run, with one {@code WARN} line, and no other pool
 * has more than one. Then the first advice of that verdict is applied to a new start, as a user
 * would in {@code application.yml}, and the same loads run with every client served and no
 * starvation verdict.
 *
 * <p>The same loads on the {@code event-loop} and {@code virtual} profiles (4 workers, or 4
 * requests in flight on a virtual thread per connection) serve every client with no starvation
 * verdict either: a connection holds a worker (or a permit) only while one of its requests runs,
 * so the waiting requests take turns, each waiting well under a second, and with the cores busy
 * the pool is at most {@code cpu-saturated}. In {@code virtual} on fewer cores than permits the
 * carrier threads, one per core, are the limit before the permits: the requests beyond them wait
 * as runnable virtual threads before their request is read, where the pool does not see them
 * (as many busy as cores, none waiting, the other connections idle), and the verdict is
 * {@code ok}.
 *
 * <p>Each load runs {@code ARIADNE_VERDICT_SECONDS} (20 by default, to keep the suite short; the
 * issue's 60 s with {@code ARIADNE_VERDICT_SECONDS=60}) in {@code starved}, half as long (at
 * least 10 s) where every client is served.
 */
@Timeout(value = 20, unit = TimeUnit.MINUTES)
class SampleVerdictStabilityIT {

	private static final int CLIENTS = 20;

	private static final Duration WITHIN = Duration.ofSeconds(10);

	private static final int SECONDS = Integer.parseInt(System.getenv().getOrDefault("ARIADNE_VERDICT_SECONDS", "20"));

	private static final String APP_POOL = "Pool 'default' of listener 'app'";

	private static final Pattern STARVED_WARNING = Pattern.compile("(Pool '[^']+' of listener '[^']+') is starved:");

	private static final List<Shape> SHAPES = List.of(new Shape("never pausing", 0, "/api/compute"),
			new Shape("pausing 100 ms", 100, "/api/compute"), new Shape("alternating", 0, "/api/compute", "/"));

	@Test
	void eachSteadyLoadKeepsOneStructuralCauseAndItsFirstAdviceEndsTheStarvation() throws Exception {
		String advised;
		try (SampleProcess app = SampleProcess.start("starved")) {
			advised = null;
			for (Shape shape : SHAPES) {
				String first = starvedRun(app, shape);
				assertThat(advised == null || advised.equals(first)).as("the same first advice for every shape: %s, %s",
						advised, first).isTrue();
				advised = first;
			}
		}
		assertThat(advised).isEqualTo("--ariadne.server.io-model=event-loop");
		try (SampleProcess app = SampleProcess.start("starved", advised)) {
			for (Shape shape : SHAPES) {
				servedRun(app, shape, true);
			}
		}
	}

	@Test
	void theEventLoopProfileServesEveryClientOfEachLoadWithoutAStarvationVerdict() throws Exception {
		try (SampleProcess app = SampleProcess.start("event-loop")) {
			for (Shape shape : SHAPES) {
				servedRun(app, shape, true);
			}
		}
	}

	@Test
	void theVirtualProfileServesEveryClientOfEachLoadWithoutAStarvationVerdict() throws Exception {
		assumeTrue(Runtime.version().feature() >= 21, "the virtual profile needs Java 21");
		try (SampleProcess app = SampleProcess.start("virtual")) {
			for (Shape shape : SHAPES) {
				servedRun(app, shape, false);
			}
		}
	}

	/** Runs a shape on a starved app; returns its verdict's first advice as a command-line property. */
	private static String starvedRun(SampleProcess app, Shape shape) throws Exception {
		int warningsBefore = app.logLines().size();
		List<String> seen = new ArrayList<>();
		Map<String, Object> first;
		try (Load load = new Load(app.appPort(), shape)) {
			first = app.awaitPool((p) -> "starved".equals(p.get("status")), "starved under " + shape, WITHIN);
			long until = System.nanoTime() + Duration.ofSeconds(SECONDS).toNanos();
			while (System.nanoTime() - until < 0) {
				Map<String, Object> pool = app.defaultPool();
				seen.add(pool.get("status") + "/" + pool.get("cause"));
				Thread.sleep(500);
			}
			assertThat(load.servedClients()).as("%s: clients served in the blocking model", shape).isLessThan(CLIENTS);
		}
		assertThat(first).as(shape.toString()).containsEntry("cause", "thread-per-connection");
		assertThat(seen).as("%s: the verdict over %d s", shape, SECONDS).containsOnly("starved/thread-per-connection");
		app.awaitPool((p) -> !"starved".equals(p.get("status")), "recovered after " + shape, WITHIN);
		Map<String, Integer> warnings = starvedWarnings(app, warningsBefore);
		assertThat(warnings).as("%s: WARN lines per pool", shape).containsEntry(APP_POOL, 1);
		assertThat(warnings.values()).as("%s: WARN lines per pool: %s", shape, warnings).allMatch((n) -> n <= 1);
		@SuppressWarnings("unchecked")
		Map<String, String> advice = ((List<Map<String, String>>) first.get("advice")).get(0);
		return "--" + advice.get("property") + "=" + advice.get("value");
	}

	/**
	 * Runs a shape on an app that should serve it: every client answered in each half of the
	 * run, never a starvation verdict; where the pool holds the requests that wait (the event
	 * loop queues every parsed request), under clients that never pause, the pool full with work
	 * waiting at some point, so that the verdict had something to judge.
	 */
	private static void servedRun(SampleProcess app, Shape shape, boolean poolHoldsTheWaiting) throws Exception {
		Map<String, Integer> seen = new TreeMap<>();
		double mostBusy = 0;
		double mostWaiting = 0;
		long[] half;
		long[] end;
		try (Load load = new Load(app.appPort(), shape)) {
			long seconds = Math.max(10, SECONDS / 2);
			long started = System.nanoTime();
			long until = started + Duration.ofSeconds(seconds).toNanos();
			half = null;
			while (System.nanoTime() - until < 0) {
				Map<String, Object> pool = app.defaultPool();
				if (pool != null) {
					seen.merge(String.valueOf(pool.get("status")), 1, Integer::sum);
				}
				Map<String, Double> gauges = app.appPoolGauges();
				mostBusy = Math.max(mostBusy, gauges.get("ariadne_pool_threads_busy"));
				if (gauges.get("ariadne_pool_threads_busy") >= gauges.get("ariadne_pool_threads_max")) {
					mostWaiting = Math.max(mostWaiting, gauges.get("ariadne_pool_queue_size"));
				}
				if (half == null && System.nanoTime() - started > Duration.ofSeconds(seconds / 2).toNanos()) {
					half = load.exchanges();
				}
				Thread.sleep(500);
			}
			end = load.exchanges();
		}
		System.out.printf("%s on %s: statuses %s, most busy %.0f, most waiting with every worker busy %.0f, "
				+ "exchanges %s%n", shape, app, seen, mostBusy, mostWaiting, Arrays.toString(end));
		for (int i = 0; i < CLIENTS; i++) {
			assertThat(half[i]).as("%s on %s: answers to client %d in the first half", shape, app, i).isPositive();
			assertThat(end[i]).as("%s on %s: answers to client %d in the second half", shape, app, i)
				.isGreaterThan(half[i]);
		}
		assertThat(seen.keySet()).as("%s on %s: statuses", shape, app).isNotEmpty().doesNotContain("starved");
		if (poolHoldsTheWaiting && shape.pauseMillis() == 0 && shape.paths().length == 1) {
			assertThat(mostWaiting).as("%s on %s: requests waiting while every worker was busy", shape, app).isPositive();
		}
	}

	/** Counts the starvation WARN lines per pool in the log after its first lines. */
	private static Map<String, Integer> starvedWarnings(SampleProcess app, int skipped) throws IOException {
		Map<String, Integer> warnings = new TreeMap<>();
		List<String> lines = app.logLines();
		for (String line : lines.subList(skipped, lines.size())) {
			Matcher warning = STARVED_WARNING.matcher(line);
			if (line.contains("WARN") && warning.find()) {
				warnings.merge(warning.group(1), 1, Integer::sum);
			}
		}
		return warnings;
	}

	/**
	 * A load shape: what each client asks for in turn, and how long it pauses after each answer.
	 */
	record Shape(String name, long pauseMillis, String... paths) {

		@Override
		public String toString() {
			return CLIENTS + " keep-alive clients " + this.name;
		}

	}

	/**
	 * {@link #CLIENTS} keep-alive clients, each on a connection and a thread of its own, sending
	 * a request, reading its answer in full, pausing, and so on until closed.
	 */
	static final class Load implements AutoCloseable {

		private final List<RawClient> clients = new ArrayList<>();

		private final List<Thread> threads = new ArrayList<>();

		private final AtomicLongArray exchanges = new AtomicLongArray(CLIENTS);

		private volatile boolean running = true;

		Load(int port, Shape shape) throws IOException {
			for (int i = 0; i < CLIENTS; i++) {
				RawClient client = RawClient.connect(port, Duration.ofSeconds(SECONDS + 60));
				this.clients.add(client);
				int index = i;
				Thread thread = new Thread(() -> run(client, index, shape), "load-" + i);
				thread.setDaemon(true);
				this.threads.add(thread);
				thread.start();
			}
		}

		private void run(RawClient client, int index, Shape shape) {
			try {
				for (int n = 0; this.running; n++) {
					String path = shape.paths()[n % shape.paths().length];
					RawResponse response = client.exchange("GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
					if (response.status() != 200) {
						throw new IOException("Unexpected answer: " + response.statusLine());
					}
					this.exchanges.incrementAndGet(index);
					if (shape.pauseMillis() > 0) {
						Thread.sleep(shape.pauseMillis());
					}
				}
			}
			catch (IOException | InterruptedException ex) {
				// closed at the end of the run
			}
		}

		/** The answers each client has had so far. */
		long[] exchanges() {
			long[] counts = new long[CLIENTS];
			for (int i = 0; i < CLIENTS; i++) {
				counts[i] = this.exchanges.get(i);
			}
			return counts;
		}

		/** The clients that have had at least one answer. */
		int servedClients() {
			int served = 0;
			for (int i = 0; i < CLIENTS; i++) {
				served += (this.exchanges.get(i) > 0) ? 1 : 0;
			}
			return served;
		}

		@Override
		public void close() throws InterruptedException {
			this.running = false;
			this.clients.forEach(RawClient::close);
			for (Thread thread : this.threads) {
				thread.join(5000);
			}
		}

	}

}
