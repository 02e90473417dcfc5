package dev.ariadne.sample;

import java.io.IOException;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;

import dev.ariadne.AbstractProtocolIT;
import dev.ariadne.AriadneServer;
import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;
import dev.ariadne.autoconfigure.web.AriadneWebServer;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.routing.Route;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The core's protocol suite against the Spring MVC sample application, in every I/O model:
 * every bad request of {@link AbstractProtocolIT#malformedRequests()} (malformed request lines
 * and fields, smuggling attempts, the limits: 400, 413, 414, 417, 431, 501, 505), and the
 * refusals of a body or a field count over the limits, {@code CONNECT} and a malformed escape,
 * get from the sample application exactly the answer a {@link Route} application with the same
 * settings gives: status line, fields, body, and a closed connection. The one difference is a
 * body whose fault shows only as it is read (a bad chunk, a chunk over the limit) in a model that
 * streams bodies: there the application's read fails and Spring MVC answers it, 400 through its
 * error page, on a connection that then closes.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(IoModel.class)
class SampleProtocolIT {

	private static final Map<IoModel, Listeners> RUNNING = new EnumMap<>(IoModel.class);

	/**
	 * Bad requests whose fault is in the body: a model that streams bodies finds it only while
	 * the handler reads, and a servlet application then answers through its error page.
	 */
	private static final Set<String> BODY_ERRORS = Set.of("invalid chunk size", "chunk longer than its size",
			"chunk over the limit");

	private final IoModel model;

	private Listeners listeners;

	SampleProtocolIT(IoModel model) {
		this.model = model;
	}

	@BeforeEach
	void start() {
		assumeTrue(this.model != IoModel.VIRTUAL_THREADS || Runtime.version().feature() >= 21,
				"The virtual-threads I/O model needs JDK 21 or later");
		this.listeners = RUNNING.computeIfAbsent(this.model, Listeners::start);
	}

	@AfterAll
	static void stop() {
		RUNNING.values().forEach(Listeners::close);
		RUNNING.clear();
	}

	@ParameterizedTest(name = "{0} -> {2}")
	@MethodSource("dev.ariadne.AbstractProtocolIT#malformedRequests")
	void refusesMalformedRequestsAsARouteApplicationDoes(String description, String request, int status)
			throws IOException {
		assertSameRefusal(description, request, status);
	}

	static Stream<Arguments> otherRefusals() {
		String post = "POST /echo HTTP/1.1\r\nHost: localhost\r\n";
		return Stream.of(
				Arguments.of("declared body over the limit", post + "Content-Length: 100000000\r\n\r\n", 413),
				Arguments.of("declared body over the limit, expecting 100", post
						+ "Content-Length: 100000000\r\nExpect: 100-continue\r\n\r\n", 413),
				Arguments.of("chunk over the limit", post + "Transfer-Encoding: chunked\r\n\r\n"
						+ Integer.toHexString(AbstractProtocolIT.MAX_BODY + 1) + "\r\n", 413),
				Arguments.of("101 header fields", "GET /api/user HTTP/1.1\r\nHost: localhost\r\n"
						+ "X-N: v\r\n".repeat(100) + "\r\n", 431),
				Arguments.of("CONNECT", "CONNECT localhost:443 HTTP/1.1\r\nHost: localhost:443\r\n\r\n", 501),
				Arguments.of("malformed escape in the path", "GET /api/%zz HTTP/1.1\r\nHost: localhost\r\n\r\n", 400));
	}

	@ParameterizedTest(name = "{0} -> {2}")
	@MethodSource("otherRefusals")
	void refusesWhatNoHandlerMaySeeAsARouteApplicationDoes(String description, String request, int status)
			throws IOException {
		assertSameRefusal(description, request, status);
	}

	private void assertSameRefusal(String description, String request, int status) throws IOException {
		RawResponse mvc = exchange(this.listeners.mvcPort(), request);
		RawResponse routes = exchange(this.listeners.routes().port(), request);
		assertThat(routes.statusLine()).isEqualTo(AbstractProtocolIT.statusLine(status));
		if (BODY_ERRORS.contains(description) && !mvc.header("Content-Type").startsWith("text/plain")) {
			// found while the handler reads the body (the socket models stream it): the read
			// fails, Spring MVC answers an unreadable body 400 through the error page, as on any
			// container, and the connection, whose framing is lost, closes
			assertThat(mvc.statusLine()).isEqualTo(AbstractProtocolIT.statusLine(400));
			assertThat(mvc.header("Content-Type")).startsWith("application/json");
			assertThat(mvc.bodyText()).contains("\"status\":400");
			assertThat(mvc.announcesClose()).isTrue();
			return;
		}
		assertThat(mvc.statusLine()).isEqualTo(routes.statusLine());
		AbstractProtocolIT.assertRefused(mvc, AbstractProtocolIT.statusLine(status));
		assertThat(mvc.headerNames()).isEqualTo(routes.headerNames());
		for (String name : List.of("Content-Type", "Content-Length", "Connection")) {
			assertThat(mvc.header(name)).as(name).isEqualTo(routes.header(name));
		}
		assertThat(mvc.bodyText()).isEqualTo(routes.bodyText());
	}

	/** Sends the request on a connection of its own, reads the answer and expects the close. */
	private static RawResponse exchange(int port, String request) throws IOException {
		try (RawClient client = RawClient.connect(port)) {
			RawResponse response = client.exchange(request);
			client.expectClosed();
			return response;
		}
	}

	/** What the suite's {@code POST /echo} route does, as a Spring MVC controller: read the body. */
	@RestController
	static class EchoController {

		@PostMapping(path = "/echo", produces = "application/octet-stream")
		byte[] echo(@RequestBody(required = false) byte[] body) {
			return (body != null) ? body : new byte[0];
		}

	}

	/**
	 * The sample application (with the suite's echo endpoint) in one model, and a Route
	 * application with its settings.
	 */
	private record Listeners(ConfigurableApplicationContext mvc, AriadneServer routes) {

		static Listeners start(IoModel model) {
			ConfigurableApplicationContext mvc = new SpringApplicationBuilder(SampleApplication.class,
					EchoController.class).run(
					"--ariadne.server.port=0", "--ariadne.server.address=127.0.0.1", "--management.server.port=0",
					"--ariadne.server.io-model=" + model.value(),
					"--ariadne.server.request.max-line-length=" + AbstractProtocolIT.MAX_LINE + "B",
					"--ariadne.server.request.max-header-size=" + AbstractProtocolIT.MAX_HEADER_SIZE + "B",
					"--ariadne.server.request.max-header-count=100",
					"--ariadne.server.request.max-body-size=" + AbstractProtocolIT.MAX_BODY + "B");
			AriadneServer sample = ((AriadneWebServer) ((WebServerApplicationContext) mvc).getWebServer()).getServer();
			assertThat(sample.config().limits()).isEqualTo(AbstractProtocolIT.LIMITS);
			AriadneServer routes = AriadneServer.builder(sample.config().toBuilder().name("routes").port(0).build())
				.route(Route.get("/api/user", (request, response) -> response.send("{}")))
				.route(Route.post("/echo", (request, response) -> response.send(request.body().readAllBytes())))
				.build();
			routes.start();
			return new Listeners(mvc, routes);
		}

		int mvcPort() {
			return this.mvc.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
		}

		void close() {
			this.routes.stop();
			this.mvc.close();
		}

	}

}
