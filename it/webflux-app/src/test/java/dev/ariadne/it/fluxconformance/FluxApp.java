package dev.ariadne.it.fluxconformance;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.ariadne.RawClient;
import dev.ariadne.autoconfigure.web.AriadneWebServer;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.stats.ServerStats;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The conformance application running on loopback, with Actuator on a management port of its
 * own, on Ariadne in one I/O model or on Reactor Netty for reference; and the clients that talk
 * to it.
 */
final class FluxApp implements AutoCloseable {

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private static final HttpClient CLIENT = HttpClient.newBuilder()
		.version(HttpClient.Version.HTTP_1_1)
		.followRedirects(HttpClient.Redirect.NEVER)
		.connectTimeout(TIMEOUT)
		.build();

	private final ConfigurableApplicationContext context;

	private final String name;

	private FluxApp(ConfigurableApplicationContext context, String name) {
		this.context = context;
		this.name = name;
	}

	/**
	 * Starts the application on Ariadne.
	 * @param model the I/O model
	 * @param properties more properties, as {@code name=value}, each replacing a default of that
	 * name; {@code name=} removes the default
	 * @return the running application; the caller closes it
	 */
	static FluxApp onAriadne(IoModel model, String... properties) {
		assumeTrue(model != IoModel.VIRTUAL_THREADS || Runtime.version().feature() >= 21,
				"The virtual-threads I/O model needs JDK 21 or later; this is JDK " + Runtime.version().feature());
		List<String> args = new ArrayList<>(List.of("ariadne.server.io-model=" + model.value()));
		args.addAll(List.of(properties));
		return start(model.value(), args);
	}

	/**
	 * Starts the application on Reactor Netty, as WebFlux runs without the starter.
	 * @param properties more properties, as {@code name=value}, each replacing a default of that
	 * name; {@code name=} removes the default
	 * @return the running application; the caller closes it
	 */
	static FluxApp onReactorNetty(String... properties) {
		List<String> args = new ArrayList<>(List.of(
				"spring.autoconfigure.exclude=dev.ariadne.autoconfigure.web.AriadneReactiveWebServerAutoConfiguration"));
		args.addAll(List.of(properties));
		return start("reactor-netty", args);
	}

	private static FluxApp start(String name, List<String> properties) {
		List<String> args = new ArrayList<>(List.of("--server.port=0", "--server.address=127.0.0.1",
				"--management.server.port=0", "--management.server.address=127.0.0.1",
				"--management.endpoints.web.exposure.include=health,prometheus", "--spring.main.banner-mode=off"));
		for (String property : properties) {
			// a property given here replaces the default of the same name; with no value, removes it
			String key = "--" + property.substring(0, property.indexOf('=') + 1);
			args.removeIf((arg) -> arg.startsWith(key));
			if (!property.endsWith("=")) {
				args.add("--" + property);
			}
		}
		ConfigurableApplicationContext context = new SpringApplicationBuilder(ConformanceApplication.class)
			.run(args.toArray(String[]::new));
		return new FluxApp(context, name);
	}

	/** What the application runs on: an I/O model of Ariadne, or {@code reactor-netty}. */
	String name() {
		return this.name;
	}

	StreamProbe probe() {
		return this.context.getBean(StreamProbe.class);
	}

	/** What the application's WebSocket handlers saw. */
	WebSocketProbe webSocketProbe() {
		return this.context.getBean(WebSocketProbe.class);
	}

	/**
	 * Returns the statistics of the server the application runs on.
	 * @return Ariadne's statistics of its main listener
	 * @throws ClassCastException when it runs on Reactor Netty
	 */
	ServerStats ariadneStats() {
		WebServer server = ((WebServerApplicationContext) this.context).getWebServer();
		return ((AriadneWebServer) server).getServer().stats();
	}

	/** The spans the application's tracer finished, kept in memory. */
	SpanRecorder spans() {
		return this.context.getBean(SpanRecorder.class);
	}

	int port() {
		return this.context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
	}

	int managementPort() {
		return this.context.getEnvironment().getRequiredProperty("local.management.port", Integer.class);
	}

	/**
	 * Returns a request builder for a path of the application.
	 * @param path the path and query, starting with {@code /}, sent as it is
	 * @return the builder
	 */
	HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port() + path)).timeout(TIMEOUT);
	}

	/**
	 * Sends a request and returns the answer as text.
	 * @param request the request
	 * @return the response
	 */
	HttpResponse<String> send(HttpRequest.Builder request) throws IOException, InterruptedException {
		return CLIENT.send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * Sends a GET and returns the answer as text.
	 * @param path the path and query
	 * @param headers header names and values, alternating
	 * @return the response
	 */
	HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
		HttpRequest.Builder request = request(path);
		for (int i = 0; i < headers.length; i += 2) {
			request.header(headers[i], headers[i + 1]);
		}
		return send(request);
	}

	/**
	 * Sends a GET to the management port and returns the answer as text.
	 * @param path the path, for example {@code /actuator/prometheus}
	 * @return the response
	 */
	HttpResponse<String> management(String path) throws IOException, InterruptedException {
		return CLIENT.send(
				HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort() + path))
					.timeout(TIMEOUT)
					.build(),
				HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * Returns the HTTP/1.1 client of the tests, which follows no redirect and keeps no cookie.
	 * @return the client
	 */
	static HttpClient client() {
		return CLIENT;
	}

	/**
	 * Connects a raw client, for requests whose exact bytes and framing matter.
	 * @return the connected client; the caller closes it
	 */
	RawClient raw() throws IOException {
		return RawClient.connect(port());
	}

	@Override
	public void close() {
		this.context.close();
	}

	@Override
	public String toString() {
		return this.name;
	}

}
