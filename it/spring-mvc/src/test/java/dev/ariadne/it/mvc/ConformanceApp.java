package dev.ariadne.it.mvc;

import java.io.IOException;
import java.net.CookieManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import dev.ariadne.AriadneServer;
import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;
import dev.ariadne.autoconfigure.web.AriadneWebServer;
import dev.ariadne.server.IoModel;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The conformance application running in one I/O model, on loopback, under the context path
 * {@value #CONTEXT_PATH}, with Actuator on a management port of its own; and the clients that
 * talk to it.
 *
 * <p>{@link #shared(IoModel)} starts one application per model for the whole test run, as
 * Spring's test context cache does, and the JVM's shutdown hook (Spring's) closes them. Tests
 * that stop or starve their application {@link #start(IoModel, String...) start one} of their
 * own and close it.
 */
final class ConformanceApp implements AutoCloseable {

	/** Where the application is served. */
	static final String CONTEXT_PATH = "/app";

	private static final Map<IoModel, ConformanceApp> SHARED = new EnumMap<>(IoModel.class);

	private static final Duration TIMEOUT = Duration.ofSeconds(20);

	private final ConfigurableApplicationContext context;

	private final IoModel model;

	private ConformanceApp(ConfigurableApplicationContext context, IoModel model) {
		this.context = context;
		this.model = model;
	}

	/**
	 * Returns the application shared by every test of a model, started on first use.
	 * @param model the I/O model
	 * @return the running application
	 */
	static synchronized ConformanceApp shared(IoModel model) {
		assumeModelRuns(model);
		return SHARED.computeIfAbsent(model, ConformanceApp::start);
	}

	/**
	 * Starts an application of its own for a test, which closes it.
	 * @param model the I/O model
	 * @param properties more properties, as {@code name=value}, each replacing a default of that
	 * name; {@code name=} removes the default
	 * @return the running application
	 */
	static ConformanceApp start(IoModel model, String... properties) {
		assumeModelRuns(model);
		List<String> args = new ArrayList<>(List.of("--server.port=0", "--server.address=127.0.0.1",
				"--server.servlet.context-path=" + CONTEXT_PATH, "--management.server.port=0",
				"--management.server.address=127.0.0.1",
				"--management.endpoints.web.exposure.include=health,prometheus,ariadne",
				"--ariadne.server.io-model=" + model.value(), "--spring.servlet.multipart.max-file-size=1MB",
				"--spring.servlet.multipart.max-request-size=2MB", "--spring.main.banner-mode=off",
				"--spring.lifecycle.timeout-per-shutdown-phase=20s"));
		for (String property : properties) {
			// a property given here replaces the default of the same name; with no value, removes it
			String name = "--" + property.substring(0, property.indexOf('=') + 1);
			args.removeIf((arg) -> arg.startsWith(name));
			if (!property.endsWith("=")) {
				args.add("--" + property);
			}
		}
		ConfigurableApplicationContext context = new SpringApplicationBuilder(ConformanceApplication.class)
			.run(args.toArray(String[]::new));
		return new ConformanceApp(context, model);
	}

	private static void assumeModelRuns(IoModel model) {
		assumeTrue(model != IoModel.VIRTUAL_THREADS || Runtime.version().feature() >= 21,
				"The virtual-threads I/O model needs JDK 21 or later; this is JDK " + Runtime.version().feature());
	}

	IoModel model() {
		return this.model;
	}

	ConfigurableApplicationContext context() {
		return this.context;
	}

	<T> T bean(Class<T> type) {
		return this.context.getBean(type);
	}

	/** The Ariadne listener of the application. */
	AriadneServer server() {
		return ((AriadneWebServer) ((WebServerApplicationContext) this.context).getWebServer()).getServer();
	}

	int port() {
		return this.context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
	}

	int managementPort() {
		return this.context.getEnvironment().getRequiredProperty("local.management.port", Integer.class);
	}

	/**
	 * Returns the address of a path of the application.
	 * @param path the path in the context, starting with {@code /}
	 * @return the URI
	 */
	URI uri(String path) {
		return URI.create("http://127.0.0.1:" + port() + CONTEXT_PATH + path);
	}

	/**
	 * Returns a request builder for a path of the application.
	 * @param path the path in the context
	 * @return the builder
	 */
	HttpRequest.Builder request(String path) {
		return HttpRequest.newBuilder(uri(path)).timeout(TIMEOUT);
	}

	/**
	 * Returns an HTTP/1.1 client that follows no redirect and keeps no cookie.
	 * @return the client
	 */
	static HttpClient client() {
		return HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.followRedirects(HttpClient.Redirect.NEVER)
			.connectTimeout(TIMEOUT)
			.build();
	}

	/**
	 * Returns an HTTP/1.1 client that follows no redirect and keeps cookies, as a browser.
	 * @param cookies where it keeps them
	 * @return the client
	 */
	static HttpClient client(CookieManager cookies) {
		return HttpClient.newBuilder()
			.version(HttpClient.Version.HTTP_1_1)
			.followRedirects(HttpClient.Redirect.NEVER)
			.connectTimeout(TIMEOUT)
			.cookieHandler(cookies)
			.build();
	}

	/**
	 * Sends a GET of a path with a client of no cookies and returns the answer as text.
	 * @param path the path in the context
	 * @param headers header names and values, alternating
	 * @return the response
	 */
	HttpResponse<String> get(String path, String... headers) throws IOException, InterruptedException {
		HttpRequest.Builder request = request(path);
		for (int i = 0; i < headers.length; i += 2) {
			request.header(headers[i], headers[i + 1]);
		}
		return client().send(request.build(), HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * Sends a GET to the management port and returns the answer as text.
	 * @param path the path, for example {@code /actuator/health}
	 * @return the response
	 */
	HttpResponse<String> management(String path) throws IOException, InterruptedException {
		HttpRequest request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + managementPort() + path))
			.timeout(TIMEOUT)
			.build();
		return client().send(request, HttpResponse.BodyHandlers.ofString());
	}

	/**
	 * Connects a raw client to the application's port, for requests whose exact bytes matter.
	 * @return the connected client; the caller closes it
	 */
	RawClient raw() throws IOException {
		return RawClient.connect(port());
	}

	/**
	 * Sends a request of exact bytes on a connection of its own and reads the answer.
	 * @param request the request, as ISO-8859-1 text
	 * @return the response
	 */
	RawResponse exchange(String request) throws IOException {
		try (RawClient client = raw()) {
			return client.exchange(request);
		}
	}

	/**
	 * Returns a GET request of exact bytes for a target, on a connection the client keeps.
	 * @param target the request target, sent as it is
	 * @param headers more header lines, each ending with CRLF
	 * @return the request
	 */
	static String get(String target, String headers) {
		return "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers + "\r\n";
	}

	@Override
	public void close() {
		this.context.close();
		assertThat(this.context.isActive()).isFalse();
	}

}
