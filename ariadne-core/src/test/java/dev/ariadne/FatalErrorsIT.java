package dev.ariadne;

import java.io.IOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.Route;
import dev.ariadne.server.stats.RequestEvent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link Error}s in every model. Handlers that throw what no handler should
 * ({@link StackOverflowError} from unbounded recursion, {@link OutOfMemoryError} from filling a
 * 64 MB heap for real), in a server of its own process: each is answered 500 and its connection
 * closed, the errors are counted ({@code ServerStats.fatalErrors()}), the server keeps serving
 * every client, and SIGTERM then stops it within its grace period. And an
 * {@link OutOfMemoryError} in the server's own code, on each kind of thread it has (the
 * acceptor, a selector, a worker, a connection's thread), injected through a request listener,
 * which runs on the thread that answered: the connection concerned is closed, the error
 * counted, and nothing else is lost.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class FatalErrorsIT {

	private static final Duration GRACE = Duration.ofSeconds(5);

	/** The JVM's own exit after the server has stopped: its shutdown hooks and teardown. */
	private static final Duration EXIT_SLACK = Duration.ofSeconds(1);

	/** The routes whose events make the listener throw. */
	private static final Set<String> POISONED = Set.of("/poison", RequestEvent.INVALID, RequestEvent.REJECTED);

	private ChildProcess child;

	private AriadneServer server;

	private final List<RawClient> clients = new ArrayList<>();

	@AfterEach
	void stop() {
		this.clients.forEach(RawClient::close);
		if (this.server != null) {
			this.server.stop();
		}
		if (this.child != null) {
			this.child.close();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void anErrorInTheServersOwnCodeClosesOnlyTheConnectionConcerned(IoModel model) throws Exception {
		Servers.assumeSupported(model);
		Leaks.Baseline baseline = Leaks.baseline();
		ServerConfig config = ServerConfig.builder()
			.name("errors")
			.address(RawClient.LOOPBACK)
			.port(0)
			.ioModel(model)
			.selectors(1)
			.maxThreads(3)
			.queueCapacity(1)
			.keepAliveReleaseThreshold(1)
			.build();
		this.server = AriadneServer.builder(config)
			.route(Route.get("/hello", (request, response) -> response.send("hello")))
			.route(Route.get("/poison", (request, response) -> response.send("poisoned")))
			.requestListener((event) -> {
				if (POISONED.contains(event.route())) {
					throw new OutOfMemoryError("injected by the test");
				}
			})
			.build();
		this.server.start();
		RawClient bystander = connect();
		AbstractProtocolIT.assertOk(bystander.exchange(get("/hello")), "hello");
		// after the exchange: on a worker (event-loop) or the connection's thread
		expectEnded(connect().send(get("/poison")));
		// a request refused where it is read: on the selector (event-loop) or the connection's thread
		expectEnded(connect().send("GET /hello HTTP/1.1\r\nHost: errors\r\nNo colon here\r\n\r\n"));
		long injected = 2;
		if (model == IoModel.BLOCKING) {
			// a connection refused on the acceptor: every worker owns a connection, and one waits
			for (int i = 0; i < 2; i++) {
				AbstractProtocolIT.assertOk(connect().exchange(get("/hello")), "hello");
			}
			connect();
			Await.until(() -> this.server.stats().pool().queued() == 1, () -> Leaks.describe(this.server));
			expectEnded(connect());
			injected = 3;
			// the two held, the one waiting and the one refused
			this.clients.subList(3, 7).forEach(RawClient::close);
		}
		long expected = injected;
		Await.until(() -> this.server.stats().fatalErrors() == expected,
				() -> "errors counted: " + this.server.stats().fatalErrors());
		AbstractProtocolIT.assertOk(bystander.exchange(get("/hello")), "hello");
		try (RawClient fresh = RawClient.connect(this.server.port())) {
			AbstractProtocolIT.assertOk(fresh.exchange(get("/hello")), "hello");
		}
		bystander.close();
		Leaks.assertServerHoldsNothing(this.server);
		this.server.stop();
		Leaks.assertReleasedAfterStop(this.server, baseline);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void handlerErrorsAreAnswered500AndTheServerKeepsServingAndStopsOnSigterm(IoModel model) throws Exception {
		Servers.assumeSupported(model);
		this.child = ChildProcess.start(model, 0, "64m", "grace=" + GRACE.toMillis());
		int port = this.child.port();
		try (RawClient bystander = RawClient.connect(port, Duration.ofSeconds(30))) {
			AbstractProtocolIT.assertOk(bystander.exchange(get("/hello")), "hello");
			for (String path : new String[] { "/overflow", "/oom", "/overflow", "/oom" }) {
				try (RawClient client = RawClient.connect(port, Duration.ofSeconds(30))) {
					RawResponse response = client.exchange(get(path));
					AbstractProtocolIT.assertRefused(response, "HTTP/1.1 500 Internal Server Error");
					client.expectClosed();
				}
				// the kept-alive connection opened before is still served, and so is a new one
				AbstractProtocolIT.assertOk(bystander.exchange(get("/hello")), "hello");
				try (RawClient fresh = RawClient.connect(port)) {
					AbstractProtocolIT.assertOk(fresh.exchange(get("/hello")), "hello");
				}
			}
			Map<String, Long> stats = this.child.stats();
			assertThat(stats.get("fatalErrors")).as("errors counted, in %s", this.child).isEqualTo(4);
		}
		// each type of error is logged with its stack trace once; the second of each is counted
		assertThat(this.child.lines((line) -> line.contains("Handler failed for GET /overflow")))
			.as("lines of %s", this.child)
			.hasSize(1);
		assertThat(this.child.lines((line) -> line.contains("Handler failed for GET /oom"))).as("lines of %s", this.child)
			.hasSize(1);
		assertThat(this.child.lines((line) -> line.startsWith("java.lang.StackOverflowError")))
			.as("stack traces of %s", this.child)
			.hasSize(1);
		assertThat(this.child.lines((line) -> line.startsWith("java.lang.OutOfMemoryError: Java heap space")))
			.as("stack traces of %s", this.child)
			.hasSize(1);
		Duration stopped = this.child.terminate(GRACE.plus(EXIT_SLACK).plusSeconds(10));
		assertThat(stopped).as("%s exited after SIGTERM; its output:%n%s", this.child, this.child.output())
			.isNotNull();
		assertThat(stopped).as("time from SIGTERM to exit").isLessThan(GRACE.plus(EXIT_SLACK));
		System.out.printf("fatal errors, %s: 2 stack overflows and 2 heaps filled, 4 answered 500, stopped %d ms "
				+ "after SIGTERM%n", model.value(), stopped.toMillis());
	}

	private RawClient connect() throws IOException {
		RawClient client = RawClient.connect(this.server.port());
		this.clients.add(client);
		return client;
	}

	/** The server ends the connection, in order or with a reset, with or without an answer. */
	private static void expectEnded(RawClient client) {
		try {
			client.readUntilClose();
		}
		catch (SocketTimeoutException ex) {
			throw new AssertionError("the connection was still open after the read timeout", ex);
		}
		catch (IOException ex) {
			// reset: ended too
		}
	}

	private static String get(String path) {
		return "GET " + path + " HTTP/1.1\r\nHost: fatal\r\n\r\n";
	}

}
