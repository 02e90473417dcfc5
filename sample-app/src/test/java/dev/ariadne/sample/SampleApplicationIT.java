package dev.ariadne.sample;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.web.AriadneWebServer;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.Route;
import org.junit.jupiter.api.Test;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Starts {@link SampleApplication} as {@code java -jar} would, on a free port, and talks to it
 * over a raw socket.
 */
class SampleApplicationIT {

	@Test
	void computeRouteAnswersTheThirtiethFibonacciNumber() throws IOException {
		try (ConfigurableApplicationContext context = run()) {
			String response = get(context, "/api/compute");
			assertThat(response).startsWith("HTTP/1.1 200 ");
			assertThat(body(response)).isEqualTo("832040");
		}
	}

	@Test
	void userRouteAnswersJson() throws IOException {
		try (ConfigurableApplicationContext context = run()) {
			String response = get(context, "/api/user");
			assertThat(response).startsWith("HTTP/1.1 200 ");
			assertThat(head(response).toLowerCase()).contains("\r\ncontent-type: application/json");
			assertThat(body(response)).isEqualTo("{\"id\":1,\"name\":\"Ada Lovelace\",\"email\":\"ada@example.com\"}");
		}
	}

	@Test
	void rootRouteGreets() throws IOException {
		try (ConfigurableApplicationContext context = run()) {
			assertThat(body(get(context, "/"))).isEqualTo("Hello from Ariadne!");
		}
	}

	@Test
	void starvedProfileRunsFourBlockingWorkersWithoutKeepAliveRelease() throws IOException {
		try (ConfigurableApplicationContext context = run("starved")) {
			ServerConfig config = server(context).config();
			assertThat(config.ioModel()).isEqualTo(IoModel.BLOCKING);
			assertThat(config.maxThreads()).isEqualTo(4);
			assertThat(config.keepAliveReleaseThreshold()).isEqualTo(1.0);
			assertThat(body(get(context, "/api/compute"))).isEqualTo("832040");
		}
	}

	@Test
	void tunedProfileRunsTwoHundredFiftyBlockingWorkers() {
		try (ConfigurableApplicationContext context = run("tuned")) {
			ServerConfig config = server(context).config();
			assertThat(config.ioModel()).isEqualTo(IoModel.BLOCKING);
			assertThat(config.maxThreads()).isEqualTo(250);
		}
	}

	@Test
	void defaultProfileRunsTheEventLoop() {
		try (ConfigurableApplicationContext context = run()) {
			assertThat(server(context).config().ioModel()).isEqualTo(IoModel.EVENT_LOOP);
		}
	}

	@Test
	void eventLoopProfileRunsTheSameFourWorkersOnAnEventLoop() throws IOException {
		try (ConfigurableApplicationContext context = run("event-loop")) {
			ServerConfig config = server(context).config();
			assertThat(config.ioModel()).isEqualTo(IoModel.EVENT_LOOP);
			assertThat(config.maxThreads()).isEqualTo(4);
			assertThat(body(get(context, "/api/compute"))).isEqualTo("832040");
		}
	}

	@Test
	void virtualProfileRunsVirtualThreadsWithFourRequestsInFlight() throws IOException {
		assumeTrue(Runtime.version().feature() >= 21, "virtual threads need Java 21 or later");
		try (ConfigurableApplicationContext context = run("virtual")) {
			ServerConfig config = server(context).config();
			assertThat(config.ioModel()).isEqualTo(IoModel.VIRTUAL_THREADS);
			assertThat(config.maxThreads()).isEqualTo(4);
			assertThat(body(get(context, "/api/user"))).contains("Ada Lovelace");
		}
	}

	@Test
	void isolatedProfileRunsComputeInItsOwnOneThreadPool() throws IOException {
		try (ConfigurableApplicationContext context = run("isolated")) {
			AriadneServer server = server(context);
			assertThat(server.config().pools()).containsEntry("compute", new ServerConfig.PoolConfig(1, 8, false));
			assertThat(body(get(context, "/api/compute"))).isEqualTo("832040");
			String scrape = body(get(context, "local.management.port", "/actuator/prometheus"));
			assertThat(scrape).contains("ariadne_pool_threads_max{listener=\"app\",pool=\"compute\"} 1.0")
				.contains("ariadne_pool_queue_wait_seconds_count{listener=\"app\",pool=\"compute\"} 1")
				.containsPattern("ariadne_requests_seconds_count\\{[^}]*route=\"/api/compute\"");
		}
	}

	@Test
	void managementListenerServesHealthAndPrometheusWhileTheApplicationPortServesNeither() throws IOException {
		try (ConfigurableApplicationContext context = run()) {
			String health = get(context, "local.management.port", "/actuator/health");
			assertThat(health).startsWith("HTTP/1.1 200 ");
			assertThat(body(health)).contains("\"status\":\"UP\"").contains("\"ariadne\":{");
			String prometheus = get(context, "local.management.port", "/actuator/prometheus");
			assertThat(prometheus).startsWith("HTTP/1.1 200 ");
			assertThat(body(prometheus)).contains("ariadne_pool_threads_busy{listener=\"app\",pool=\"default\"}");
			assertThat(get(context, "/actuator/health")).startsWith("HTTP/1.1 404 ");
		}
	}

	@Test
	void routeBeansAreServedBesideSpringMvc() throws IOException {
		try (ConfigurableApplicationContext context = run()) {
			assertThat(body(get(context, "/ping"))).isEqualTo("pong");
			assertThat(server(context).router().routes()).extracting(Route::template).containsExactly("/ping", "/ws/echo");
		}
	}

	@Test
	void runsOnAriadnesServletContainer() {
		try (ConfigurableApplicationContext context = run()) {
			assertThat(((WebServerApplicationContext) context).getWebServer()).isInstanceOf(AriadneWebServer.class);
		}
	}

	private static AriadneServer server(ConfigurableApplicationContext context) {
		return ((AriadneWebServer) ((WebServerApplicationContext) context).getWebServer()).getServer();
	}

	private static ConfigurableApplicationContext run(String... profiles) {
		return new SpringApplicationBuilder(SampleApplication.class).profiles(profiles)
			.run("--ariadne.server.port=0", "--management.server.port=0");
	}

	private static String get(ConfigurableApplicationContext context, String path) throws IOException {
		return get(context, "local.server.port", path);
	}

	private static String get(ConfigurableApplicationContext context, String portProperty, String path)
			throws IOException {
		int port = context.getEnvironment().getRequiredProperty(portProperty, Integer.class);
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
			socket.setSoTimeout(10_000);
			OutputStream out = socket.getOutputStream();
			out.write(("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n")
				.getBytes(StandardCharsets.US_ASCII));
			out.flush();
			return readAll(socket.getInputStream());
		}
	}

	private static String readAll(InputStream in) throws IOException {
		ByteArrayOutputStream bytes = new ByteArrayOutputStream();
		in.transferTo(bytes);
		return bytes.toString(StandardCharsets.UTF_8);
	}

	private static String head(String response) {
		return response.substring(0, response.indexOf("\r\n\r\n"));
	}

	private static String body(String response) {
		return response.substring(response.indexOf("\r\n\r\n") + 4);
	}

}
