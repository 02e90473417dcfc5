package dev.ariadne.autoconfigure;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import javax.net.ssl.SSLSocket;

import dev.ariadne.Await;
import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.metrics.AriadneMetricsAutoConfiguration;
import dev.ariadne.server.routing.Route;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code ariadne.server.additional-listeners} in a Route application: every listener serves the
 * same routes with pools of its own (a listener whose workers are all held does not hold up
 * another), its own meters and TLS, is drained with the application's listener, and a bad
 * entry or a port in use fails startup naming the property.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdditionalListenersTest {

	private static final String LISTENERS = "ariadne.server.additional-listeners";

	private final CountDownLatch release = new CountDownLatch(1);

	/** Threads of their own for the clients: the common pool may have a single one here. */
	private final ExecutorService clients = Executors.newCachedThreadPool();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class, AriadneAutoConfiguration.class,
				AriadneMetricsAutoConfiguration.class))
		.withBean(MeterRegistry.class, SimpleMeterRegistry::new)
		.withBean("hello", Route.class, () -> Route.get("/hello", (request, response) -> response
			.send("hello " + (request.secure() ? "https" : "http") + " " + request.localAddress().getPort())))
		.withBean("hold", Route.class, () -> Route.get("/hold", (request, response) -> {
			this.release.await(30, TimeUnit.SECONDS);
			response.send("released");
		}))
		.withPropertyValues("ariadne.server.port=0", "ariadne.server.address=127.0.0.1", "ariadne.server.threads.max=2");

	@Test
	void servesTheRoutesOnEveryListenerEachWithPoolsAndMetersOfItsOwn() {
		this.contextRunner.withPropertyValues(LISTENERS + "[0].port=0", LISTENERS + "[0].name=second")
			.run((context) -> {
				AriadneServers servers = context.getBean(AriadneServers.class);
				AriadneServer app = context.getBean(AriadneServer.class);
				AriadneServer second = servers.find("second");
				assertThat(servers.all()).containsExactly(app, second);
				assertThat(second.config().maxThreads()).isEqualTo(2);
				assertThat(second.config().ioModel()).isEqualTo(app.config().ioModel());
				assertThat(second.localAddress().getAddress()).as("the application listener's address")
					.isEqualTo(InetAddress.getByName("127.0.0.1"));
				assertThat(RawHttp.get(second.port(), "/hello").body()).isEqualTo("hello http " + second.port());
				List<CompletableFuture<RawHttp.Response>> held = new ArrayList<>();
				try {
					for (int i = 0; i < 2; i++) {
						held.add(CompletableFuture.supplyAsync(() -> get(app.port(), "/hold"), this.clients));
					}
					Await.until(() -> app.stats().pool().busyWorkers() == 2,
							() -> "app workers busy: " + app.stats().pool().busyWorkers());
					// every worker of the application listener is held; the second has its own
					assertThat(RawHttp.get(second.port(), "/hello").body()).isEqualTo("hello http " + second.port());
					assertThat(app.stats().pool().busyWorkers()).as("app workers still held").isEqualTo(2);
				}
				finally {
					this.release.countDown();
				}
				for (CompletableFuture<RawHttp.Response> response : held) {
					assertThat(response.get(20, TimeUnit.SECONDS).body()).isEqualTo("released");
				}
				MeterRegistry registry = context.getBean(MeterRegistry.class);
				assertThat(registry.get("ariadne.pool.threads.max").tag("listener", "second").gauge().value())
					.isEqualTo(2);
				assertThat(registry.get("ariadne.pool.threads.max").tag("listener", "app").gauge().value())
					.isEqualTo(2);
				// an exchange is recorded once its response is written, which the client may see first
				Await.until(() -> requests(registry, "second", "/hello") == 2 && requests(registry, "app", "/hold") == 2,
						() -> "requests recorded: second " + requests(registry, "second", "/hello") + ", app "
								+ requests(registry, "app", "/hold"));
				assertThat(requests(registry, "app", "/hello")).isZero();
			});
	}

	@Test
	void servesTlsOnAnAdditionalListenerBesideAPlaintextApplicationListener(@TempDir Path directory) throws Exception {
		Path store = TestKeyStores.generate(directory, "localhost");
		String bundle = "spring.ssl.bundle.jks.web.";
		this.contextRunner
			.withPropertyValues(bundle + "keystore.location=file:" + store,
					bundle + "keystore.password=" + TestKeyStores.PASSWORD, bundle + "keystore.type=PKCS12",
					LISTENERS + "[0].port=0", LISTENERS + "[0].ssl.bundle=web")
			.run((context) -> {
				AriadneServer app = context.getBean(AriadneServer.class);
				AriadneServer secure = context.getBean(AriadneServers.class).find("app-0");
				assertThat(RawHttp.get(app.port(), "/hello").body()).isEqualTo("hello http " + app.port());
				try (Socket plain = new Socket()) {
					plain.connect(new InetSocketAddress("127.0.0.1", secure.port()), 5000);
					plain.setSoTimeout(10_000);
					try (SSLSocket socket = (SSLSocket) TestKeyStores.clientContext(store)
						.getSocketFactory()
						.createSocket(plain, "localhost", secure.port(), true)) {
						socket.getOutputStream()
							.write("GET /hello HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
								.getBytes(StandardCharsets.US_ASCII));
						String response = new String(socket.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
						assertThat(response).startsWith("HTTP/1.1 200").endsWith("hello https " + secure.port());
					}
				}
			});
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			[0].address=127.0.0.1                         |                     | [0].port  | must be set
			[0].port=70000                                |                     | [0].port  | between 0 and 65535
			[0].port=-1                                   |                     | [0].port  | between 0 and 65535
			[0].port=0                                    | [0].name=app        | [0].name  | is reserved
			[0].port=0                                    | [0].name=management | [0].name  | is reserved
			[0].port=0                                    | [0].name=a b        | [0].name  | letters, digits
			[0].port=0                                    | [1].port=0          | [1].name  | is the name of ariadne.server.additional-listeners[0] too
			[0].port=0                                    | [0].ssl.bundle=none | [0].ssl.bundle=none | no such SSL bundle
			""")
	void aBadEntryFailsStartupNamingTheProperty(String first, String second, String property, String reason) {
		List<String> properties = new ArrayList<>(List.of(LISTENERS + first));
		if (second != null) {
			properties.add(LISTENERS + second);
		}
		this.contextRunner.withPropertyValues(properties.toArray(String[]::new))
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining(LISTENERS + property)
				.hasStackTraceContaining(reason));
	}

	@Test
	void eachListenerWritesAnAccessLogOfItsOwn(@TempDir Path directory) throws Exception {
		this.contextRunner
			.withPropertyValues(LISTENERS + "[0].port=0", LISTENERS + "[0].name=second",
					"ariadne.server.accesslog.enabled=true", "ariadne.server.accesslog.directory=" + directory,
					"ariadne.server.accesslog.format=common")
			.run((context) -> {
				AriadneServer app = context.getBean(AriadneServer.class);
				AriadneServer second = context.getBean(AriadneServers.class).find("second");
				assertThat(second.config().accessLog().prefix()).isEqualTo("second_access_log");
				assertThat(RawHttp.get(app.port(), "/hello").body()).startsWith("hello");
				assertThat(RawHttp.get(second.port(), "/hello?second").body()).startsWith("hello");
				context.close();
				try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(directory)) {
					java.util.Map<String, String> logs = new java.util.TreeMap<>();
					for (Path file : files.toList()) {
						logs.put(file.getFileName().toString().replaceAll("\\..*", ""), java.nio.file.Files.readString(file));
					}
					assertThat(logs).containsOnlyKeys("access_log", "second_access_log");
					assertThat(logs.get("access_log")).contains("GET /hello HTTP/1.1").doesNotContain("?second");
					assertThat(logs.get("second_access_log")).contains("GET /hello?second HTTP/1.1");
				}
			});
	}

	@Test
	void twoListenersNamedAlikeFailStartup() {
		this.contextRunner
			.withPropertyValues(LISTENERS + "[0].port=0", LISTENERS + "[0].name=x", LISTENERS + "[1].port=0",
					LISTENERS + "[1].name=x")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining(LISTENERS + "[1].name"));
	}

	@Test
	void aPortInUseFailsStartupNamingThePropertyAndStopsTheListenersAlreadyStarted() throws IOException {
		AriadneServers servers = new AriadneServers();
		List<String> events = new ArrayList<>();
		servers.addListener(new AriadneServers.Listener() {

			@Override
			public void registered(AriadneServer server) {
				events.add("registered " + server.config().name() + " running=" + server.isRunning());
			}

			@Override
			public void unregistered(AriadneServer server) {
				events.add("unregistered " + server.config().name() + " running=" + server.isRunning());
			}

		});
		try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
			this.contextRunner.withBean(AriadneServers.class, () -> servers)
				.withPropertyValues(LISTENERS + "[0].port=" + taken.getLocalPort(), LISTENERS + "[0].name=taken")
				.run((context) -> assertThat(context).hasFailed()
					.getFailure()
					.hasStackTraceContaining("Ariadne's 'taken' listener could not listen on 127.0.0.1:"
							+ taken.getLocalPort() + " (" + LISTENERS + "[0].port)"));
		}
		assertThat(events).containsExactly("registered app running=true", "unregistered app running=false");
		assertThat(servers.all()).isEmpty();
	}

	@Test
	void closingTheContextDrainsEveryListenerLettingItsRequestsFinish() {
		this.contextRunner.withPropertyValues(LISTENERS + "[0].port=0").run((context) -> {
			AriadneServer app = context.getBean(AriadneServer.class);
			AriadneServers servers = context.getBean(AriadneServers.class);
			AriadneServer second = servers.find("app-0");
			CompletableFuture<RawHttp.Response> inFlight = CompletableFuture.supplyAsync(() -> get(second.port(),
					"/hold"), this.clients);
			Await.until(() -> second.stats().pool().busyWorkers() == 1, () -> "the request is not running yet");
			CompletableFuture<Void> closed = CompletableFuture.runAsync(context::close, this.clients);
			Await.until(() -> !app.isRunning() && !second.isRunning(), () -> "the listeners are still accepting");
			assertThat(closed).isNotDone();
			this.release.countDown();
			assertThat(inFlight.get(20, TimeUnit.SECONDS).body()).isEqualTo("released");
			closed.get(20, TimeUnit.SECONDS);
			assertThat(servers.all()).isEmpty();
		});
	}

	@AfterEach
	void stopClients() {
		this.release.countDown();
		this.clients.shutdownNow();
	}

	private static long requests(MeterRegistry registry, String listener, String route) {
		return registry.find("ariadne.requests")
			.tag("listener", listener)
			.tag("route", route)
			.timers()
			.stream()
			.mapToLong((timer) -> timer.count())
			.sum();
	}

	private static RawHttp.Response get(int port, String path) {
		try {
			return RawHttp.get(port, path);
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
