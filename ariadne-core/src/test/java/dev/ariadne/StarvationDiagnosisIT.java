package dev.ariadne;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import com.example.shop.Inventory;
import com.example.shop.Pricing;
import com.example.shop.Reports;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.Http2Config;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.diagnosis.Advice;
import dev.ariadne.server.diagnosis.Cause;
import dev.ariadne.server.diagnosis.Diagnosis;
import dev.ariadne.server.diagnosis.Verdict;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.websocket.WebSocketHandler;
import dev.ariadne.server.websocket.WebSocketListener;
import dev.ariadne.server.websocket.WebSocketSession;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Each cause of starvation, induced over real sockets: the diagnosis names it, with its evidence
 * and advice, within 10 s, and says {@code ok} within 10 s of its removal. The application's
 * code lives in {@code com.example.shop}, so that its frames are an application's. A waiting
 * handler is diagnosed in every model, virtual threads included.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StarvationDiagnosisIT {

	private static final Duration WITHIN = Duration.ofSeconds(10);

	private final List<AutoCloseable> resources = new ArrayList<>();

	private AriadneServer server;

	@AfterEach
	void cleanUp() throws Exception {
		for (AutoCloseable resource : this.resources) {
			resource.close();
		}
		if (this.server != null) {
			this.server.stop();
		}
	}

	@Test
	void idleKeepAliveConnectionsOwningBlockingWorkersAreThreadPerConnectionAdvisingTheEventLoop() throws IOException {
		start(IoModel.BLOCKING, (config) -> config.maxThreads(4).keepAliveReleaseThreshold(1.0),
				Route.get("/", (request, response) -> response.send("Hello")));
		List<RawClient> clients = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			RawClient client = track(RawClient.connect(this.server.port()));
			client.send("GET / HTTP/1.1\r\nHost: idle\r\n\r\n");
			clients.add(client);
		}
		Verdict verdict = awaitCause(Cause.THREAD_PER_CONNECTION);
		assertThat(verdict.evidence()).startsWith("4 of 4 workers each own a connection until it closes (sampled: 4 idle "
				+ "between requests").contains("; 4 connections waiting for a worker, none of them given one");
		assertThat(verdict.advice()).extracting(Advice::property).contains("ariadne.server.io-model");
		clients.forEach(RawClient::close);
		awaitOk();
	}

	@Test
	void fourWebSocketSessionsOwningTheFourBlockingWorkersAreNamedAdvisingTheEventLoopAndASessionLimit()
			throws Exception {
		// the seed's story over WebSocket: a quiet session owns its worker as long as it is open
		start(IoModel.BLOCKING, (config) -> config.maxThreads(4),
				Route.get("/echo", WebSocketHandler.of((request) -> new WebSocketListener() {
					@Override
					public CompletionStage<?> onText(WebSocketSession session, String text) {
						return session.sendText(text);
					}
				})), Route.get("/", (request, response) -> response.send("Hello")));
		List<WsRaw> sessions = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			WsRaw session = track(WsRaw.connect(this.server, "/echo"));
			assertThat(session.head).startsWith("HTTP/1.1 101");
			sessions.add(session);
		}
		RawClient plain = track(RawClient.connect(this.server.port(), WITHIN));
		plain.send("GET / HTTP/1.1\r\nHost: plain\r\n\r\n");
		Verdict verdict = awaitCause(Cause.WEBSOCKET_SESSIONS);
		assertThat(verdict.evidence()).startsWith("4 of 4 workers held by 4 WebSocket sessions, each until it closes "
				+ "(sampled: 4 waiting for their clients' next message); 1 connection waiting for a worker, none of them "
				+ "given one over the last ");
		assertThat(verdict.advice()).extracting(Advice::property, Advice::value)
			.containsExactly(tuple("ariadne.server.io-model", "event-loop"), tuple("ariadne.server.threads.max", "7"),
					tuple("ariadne.server.websocket.max-sessions", "3"));
		for (WsRaw session : sessions) {
			session.close();
		}
		AbstractProtocolIT.assertOk(plain.read(), "Hello");
		Verdict ok = await((v) -> !v.starved(), "ok");
		assertThat(ok.last().cause()).isEqualTo(Cause.WEBSOCKET_SESSIONS);
	}

	@Test
	void http2ConnectionsOwningBlockingWorkersAreThreadPerConnectionAndTheEventLoopServesTheirStreams()
			throws Exception {
		// the seed's story over HTTP/2: in blocking, each h2 connection owns a worker for its frames
		// and its streams queue behind the connections for the others
		start(IoModel.BLOCKING, (config) -> config.maxThreads(4).http2Enabled(true),
				Route.get("/", (request, response) -> response.send("Hello")));
		for (int i = 0; i < 6; i++) {
			Http2RawClient client = track(Http2RawClient.connect(this.server.port()));
			client.get(1, "/").get(3, "/").flush();
		}
		Verdict verdict = awaitCause(Cause.THREAD_PER_CONNECTION);
		assertThat(verdict.evidence()).startsWith("4 of 4 workers each own a connection until it closes")
			.contains("4 HTTP/2 connections among them, each owning a worker for its frames while its streams wait "
					+ "for others")
			// what waits, told apart: the 2 connections no worker reads yet, and the streams of the 4 read
			// ones that came after the workers were all taken (up to 8, as the connections arrived)
			.containsPattern("; 2 connections and [1-8] HTTP/2 streams? waiting for a worker");
		assertThat(verdict.advice()).extracting(Advice::property, Advice::value)
			.first().isEqualTo(tuple("ariadne.server.io-model", "event-loop"));
		this.server.stop();
		this.resources.forEach((resource) -> {
			try {
				resource.close();
			}
			catch (Exception ex) {
				// closing anyway
			}
		});
		this.resources.clear();
		// the advice applied: the same 4 workers serve every stream of every connection
		start(IoModel.EVENT_LOOP, (config) -> config.maxThreads(4).http2Enabled(true),
				Route.get("/", (request, response) -> response.send("Hello")));
		List<Http2RawClient> served = new ArrayList<>();
		for (int i = 0; i < 6; i++) {
			Http2RawClient client = track(Http2RawClient.connect(this.server.port()));
			client.get(1, "/").get(3, "/").flush();
			served.add(client);
		}
		for (Http2RawClient client : served) {
			assertThat(client.statuses(2, Duration.ofSeconds(10)).values()).containsOnly(200);
		}
	}

	@Test
	void anHttp2ConnectionWhoseStreamsAllStayOpenWhileWorkersAreFreeIsTheStreamLimit() throws Exception {
		// event streams or long polls: each suspended exchange holds a stream, not a worker
		List<AsyncResponse> open = new java.util.concurrent.CopyOnWriteArrayList<>();
		Http2Config fourStreams = new Http2Config(4, 65_535, 1 << 20, 16_384, 0, 1000, 200, Duration.ofSeconds(30),
				Duration.ofSeconds(20));
		start(IoModel.EVENT_LOOP, (config) -> config.maxThreads(8).http2Enabled(true).http2(fourStreams),
				Route.get("/events", (request, response) -> open.add(response.suspend())));
		Http2RawClient client = track(Http2RawClient.connect(this.server.port()));
		client.get(1, "/events").get(3, "/events").get(5, "/events").get(7, "/events").flush();
		Verdict verdict = awaitCause(Cause.STREAM_LIMIT);
		assertThat(verdict.evidence()).isEqualTo("1 HTTP/2 connection has all 4 of its streams open "
				+ "(http2.max-concurrent-streams reached) while 8 of 8 workers are free: their clients hold further "
				+ "requests back, unseen by the server's queue");
		assertThat(verdict.advice()).extracting(Advice::property, Advice::value)
			.containsExactly(tuple("ariadne.server.http2.max-concurrent-streams", "8"));
		open.forEach(AsyncResponse::complete);
		assertThat(client.statuses(4, Duration.ofSeconds(10)).values()).containsOnly(200);
		awaitOk();
	}

	@Test
	void handlersComputingOnEveryCoreWhileEveryClientIsServedInTurnAreCpuSaturatedNotStarved() throws Exception {
		int threads = 2 * Runtime.getRuntime().availableProcessors();
		start(IoModel.EVENT_LOOP, (config) -> config.maxThreads(threads),
				Route.get("/quote", (request, response) -> response.send(Long.toString(Pricing.quote(20)))));
		Load load = track(new Load(this.server.port(), "/quote", 3 * threads));
		Verdict verdict = await((v) -> v.status() == Verdict.Status.CPU_SATURATED, "cpu-saturated");
		assertThat(verdict.cause()).isNull();
		assertThat(verdict.evidence()).startsWith("every client is served in turn: ")
			.endsWith(": the CPU is the limit, not a setting");
		assertThat(verdict.advice()).extracting(Advice::property).containsExactly("instances", "cores");
		long served = load.exchanges();
		load.close();
		assertThat(served).isPositive();
		await((v) -> v.status() == Verdict.Status.OK, "ok");
	}

	@Test
	void handlersComputingSoLongThatRequestsWaitSecondsAreCpuBoundAndGetNoThreadAdvice() throws Exception {
		start(IoModel.EVENT_LOOP, (config) -> config.maxThreads(4),
				Route.get("/", (request, response) -> response.send("Hello")),
				Route.get("/quote", (request, response) -> response.send(Long.toString(Pricing.quote(1000)))));
		Load load = track(new Load(this.server.port(), "/quote", 12));
		Verdict verdict = awaitCause(Cause.CPU_BOUND);
		assertThat(verdict.evidence()).contains("workers run handler code (RUNNABLE, mostly in com.example.shop.Pricing.quote)");
		assertThat(verdict.advice()).extracting(Advice::property)
			.contains("instances", "ariadne.server.pools.quote.threads", "ariadne.server.routes[/quote].pool")
			.doesNotContain("ariadne.server.threads.max");
		load.close();
		awaitOk();
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void handlersWaitingOnASemaphoreAreBlockedDownstreamNamingTheFrame(IoModel model) throws IOException {
		Inventory inventory = new Inventory();
		start(model, (config) -> config.maxThreads(4),
				Route.get("/stock", (request, response) -> response.send(inventory.reserve())));
		List<RawClient> clients = new ArrayList<>();
		for (int i = 0; i < 8; i++) {
			RawClient client = track(RawClient.connect(this.server.port(), WITHIN));
			client.send("GET /stock HTTP/1.1\r\nHost: shop\r\n\r\n");
			clients.add(client);
		}
		Verdict verdict = awaitCause(Cause.BLOCKED_DOWNSTREAM);
		String waiting = (model == IoModel.BLOCKING) ? "connections" : "requests";
		assertThat(verdict.evidence()).isEqualTo("4 of 4 workers wait (WAITING) in Semaphore.acquire called from "
				+ "com.example.shop.Inventory.reserve; 4 " + waiting + " waiting for a worker");
		// nothing finishes while every worker waits, so no route is known: the handler is named by its frame
		assertThat(verdict.advice().get(0)).extracting(Advice::property, Advice::value)
			.containsExactly("handler", "com.example.shop.Inventory.reserve");
		inventory.open();
		for (RawClient client : clients) {
			AbstractProtocolIT.assertOk(client.read(), "reserved");
		}
		awaitOk();
	}

	@Test
	void blockingWorkersWritingToClientsThatReadSlowlyAreSlowClients() throws Exception {
		byte[] chunk = new byte[64 * 1024];
		// readers taking 4 KB every 500 ms leave a write with no progress for over a second, which
		// the low-resources mode cuts while the pool is starved (SlowBodiesIT): switched off here,
		// the starvation lasts as long as the readers, and the diagnosis is what is tested
		start(IoModel.BLOCKING,
				(config) -> config.maxThreads(4).keepAliveTimeout(Duration.ofSeconds(30)).lowResourcesEnabled(false),
				Route.get("/export", (request, response) -> {
					try (OutputStream body = response.outputStream()) {
						for (int i = 0; i < 512; i++) {
							body.write(chunk);
						}
					}
				}));
		SlowReaders readers = track(new SlowReaders(this.server.port(), 6));
		// the first samples may catch the handlers still filling the socket buffers
		Verdict verdict = await((v) -> v.cause() == Cause.SLOW_CLIENTS, "cause slow-clients", Duration.ofSeconds(20));
		assertThat(verdict.evidence()).startsWith("4 of 4 workers are held by slow clients: 4 waiting for a client to "
				+ "read its response").endsWith("2 connections waiting for a worker");
		// the handler's thread writes in every model: another model would not free these workers
		assertThat(verdict.advice()).extracting(Advice::property, Advice::value)
			.containsExactly(tuple("ariadne.server.low-resources.enabled", "true"),
					tuple("ariadne.server.keep-alive.timeout", "5s"));
		readers.close();
		awaitOk();
	}

	@Test
	void oneRouteComputingOnTheWorkersWhileLightRoutesWaitIsAHotRouteNamedWithAPool() throws Exception {
		start(IoModel.EVENT_LOOP, (config) -> config.maxThreads(4),
				Route.get("/", (request, response) -> response.send("Hello")),
				Route.get("/report", (request, response) -> response.send(Long.toString(Pricing.quote(1000)))));
		Load light = track(new Load(this.server.port(), "/", 4));
		Load heavy = track(new Load(this.server.port(), "/report", 12));
		Verdict verdict = awaitCause(Cause.HOT_ROUTE);
		assertThat(verdict.evidence()).startsWith("/report took ").contains("of the worker time of pool 'default'");
		assertThat(verdict.advice()).extracting(Advice::property)
			.containsExactly("ariadne.server.pools.report.threads", "ariadne.server.routes[/report].pool");
		heavy.close();
		awaitOk();
		assertThat(light.exchanges()).isPositive();
	}

	@Test
	void blockingWorkersWaitingForTheirRoutesPoolAreThreadPerConnectionNeverADownstream() throws Exception {
		// a hot route's pool in the blocking model: each connection's worker waits for the route
		// pool to run its request, Ariadne's own hand-off, while the other connections wait
		start(IoModel.BLOCKING,
				(config) -> config.maxThreads(4)
					.keepAliveReleaseThreshold(1.0)
					.pool("report", new ServerConfig.PoolConfig(2, ServerConfig.PoolConfig.DEFAULT_QUEUE_CAPACITY, false)),
				Route.get("/", (request, response) -> response.send("Hello")),
				Route.get("/report", (request, response) -> response.send(Long.toString(Pricing.quote(200))))
					.inPool("report"));
		Load heavy = track(new Load(this.server.port(), "/report", 16));
		Load light = track(new Load(this.server.port(), "/", 4));
		Verdict verdict = awaitCause(Cause.THREAD_PER_CONNECTION);
		assertThat(verdict.evidence()).startsWith("4 of 4 workers each own a connection until it closes");
		assertThat(verdict.advice()).extracting(Advice::property, Advice::value)
			.first()
			.isEqualTo(tuple("ariadne.server.io-model", "event-loop"));
		// held, and the workers that wait for the route pool are told apart as such
		List<String> evidence = new ArrayList<>(List.of(verdict.evidence()));
		long until = System.nanoTime() + Duration.ofSeconds(5).toNanos();
		while (System.nanoTime() - until < 0) {
			Verdict now = diagnosis().verdict("default").orElseThrow();
			assertThat(now.cause()).as("the default pool's cause").isEqualTo(Cause.THREAD_PER_CONNECTION);
			evidence.add(now.evidence());
			Thread.sleep(250);
		}
		assertThat(evidence).anyMatch((text) -> text.contains("waiting for a route pool to run its handler"));
		heavy.close();
		light.close();
		awaitOk();
	}

	@Test
	void oneRouteWaitingDownstreamWhileLightRoutesWaitIsADownstreamNamingTheRoute() throws Exception {
		start(IoModel.EVENT_LOOP, (config) -> config.maxThreads(4),
				Route.get("/", (request, response) -> response.send("Hello")),
				Route.get("/report", (request, response) -> response.send(Reports.build(600))));
		Load light = track(new Load(this.server.port(), "/", 4));
		Load heavy = track(new Load(this.server.port(), "/report", 16));
		Verdict verdict = awaitCause(Cause.BLOCKED_DOWNSTREAM);
		assertThat(verdict.evidence()).contains("in Thread.sleep called from com.example.shop.Reports.build");
		assertThat(verdict.advice().get(0)).extracting(Advice::property, Advice::value)
			.containsExactly("handler", "/report");
		heavy.close();
		awaitOk();
		assertThat(light.exchanges()).isPositive();
	}

	@Test
	void clientsQueuedInTheKernelAtMaxConnectionsAreConnectionLimit() throws IOException {
		assumeTrue(Files.isReadable(Path.of("/proc/net/tcp")), "the accept queue is read from /proc (Linux)");
		start(IoModel.EVENT_LOOP, (config) -> config.maxConnections(4),
				Route.get("/", (request, response) -> response.send("Hello")));
		List<RawClient> open = new ArrayList<>();
		for (int i = 0; i < 4; i++) {
			RawClient client = track(RawClient.connect(this.server.port()));
			AbstractProtocolIT.assertOk(client.exchange("GET / HTTP/1.1\r\nHost: limit\r\n\r\n"), "Hello");
			open.add(client);
		}
		for (int i = 0; i < 3; i++) {
			Socket socket = track(new Socket());
			socket.connect(new InetSocketAddress(RawClient.LOOPBACK, this.server.port()), 5000);
		}
		Verdict verdict = awaitCause(Cause.CONNECTION_LIMIT);
		assertThat(verdict.evidence()).isEqualTo("4 of 4 connections open (max-connections reached); 3 clients "
				+ "waiting in the kernel's accept queue");
		assertThat(verdict.advice()).extracting(Advice::property).contains("ariadne.server.max-connections");
		open.forEach(RawClient::close);
		awaitOk();
	}

	// ---- helpers

	private void start(IoModel model, java.util.function.UnaryOperator<ServerConfig.Builder> config, Route... routes) {
		this.server = Servers.start(model, config, routes);
		assertThat(this.server.diagnosis()).as("the diagnosis is on by default").isPresent();
	}

	private Diagnosis diagnosis() {
		return this.server.diagnosis().orElseThrow();
	}

	private Verdict awaitCause(Cause cause) {
		return await((verdict) -> verdict.cause() == cause, "cause " + cause);
	}

	private void awaitOk() {
		await((verdict) -> !verdict.starved(), "ok");
	}

	private Verdict await(Predicate<Verdict> condition, String what) {
		return await(condition, what, WITHIN);
	}

	private Verdict await(Predicate<Verdict> condition, String what, Duration within) {
		Await.until(within, () -> diagnosis().verdict("default").filter(condition).isPresent(),
				() -> "waiting for " + what + "; verdict " + diagnosis().verdict("default").orElse(null));
		return diagnosis().verdict("default").orElseThrow();
	}

	private <T extends AutoCloseable> T track(T resource) {
		this.resources.add(resource);
		return resource;
	}

	/**
	 * Clients that each send a request on a keep-alive connection, read the answer and send the
	 * next, until closed; a failed connection is replaced.
	 */
	static final class Load implements AutoCloseable {

		private final List<Thread> threads = new ArrayList<>();

		private final java.util.concurrent.atomic.AtomicLong exchanges = new java.util.concurrent.atomic.AtomicLong();

		private volatile boolean running = true;

		Load(int port, String path, int clients) {
			String request = "GET " + path + " HTTP/1.1\r\nHost: load\r\n\r\n";
			for (int i = 0; i < clients; i++) {
				Thread thread = new Thread(() -> loop(port, request), "load-" + path + "-" + i);
				thread.setDaemon(true);
				this.threads.add(thread);
				thread.start();
			}
		}

		private void loop(int port, String request) {
			while (this.running) {
				try (RawClient client = RawClient.connect(port, Duration.ofSeconds(30))) {
					while (this.running) {
						client.exchange(request);
						this.exchanges.incrementAndGet();
					}
				}
				catch (IOException ex) {
					// the server closed it (a shutdown, a timeout): open another
				}
			}
		}

		long exchanges() {
			return this.exchanges.get();
		}

		@Override
		public void close() {
			this.running = false;
			try {
				for (Thread thread : this.threads) {
					thread.join(35_000);
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

	/**
	 * Clients that ask for a large response on sockets with a small receive buffer and read it
	 * very slowly: 4 KiB per client every half second, from one thread.
	 */
	static final class SlowReaders implements AutoCloseable {

		private final List<Socket> sockets = new ArrayList<>();

		private final Thread reader;

		private volatile boolean running = true;

		SlowReaders(int port, int clients) throws IOException {
			for (int i = 0; i < clients; i++) {
				Socket socket = new Socket();
				this.sockets.add(socket);
				socket.setReceiveBufferSize(8 * 1024);
				socket.connect(new InetSocketAddress(RawClient.LOOPBACK, port), 5000);
				socket.getOutputStream()
					.write("GET /export HTTP/1.1\r\nHost: slow\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
			}
			this.reader = new Thread(this::trickle, "slow-readers");
			this.reader.setDaemon(true);
			this.reader.start();
		}

		private void trickle() {
			byte[] buffer = new byte[4096];
			while (this.running) {
				for (Socket socket : this.sockets) {
					try {
						InputStream in = socket.getInputStream();
						if (in.available() > 0) {
							in.read(buffer);
						}
					}
					catch (IOException ex) {
						// closed: nothing more to read from it
					}
				}
				try {
					Thread.sleep(500);
				}
				catch (InterruptedException ex) {
					return;
				}
			}
		}

		@Override
		public void close() throws IOException {
			this.running = false;
			this.reader.interrupt();
			try {
				this.reader.join(5000);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			for (Socket socket : this.sockets) {
				socket.close();
			}
		}

	}

}
