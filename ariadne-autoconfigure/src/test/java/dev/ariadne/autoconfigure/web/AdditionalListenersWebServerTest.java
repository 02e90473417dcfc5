package dev.ariadne.autoconfigure.web;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import dev.ariadne.AriadneServer;
import dev.ariadne.autoconfigure.AriadneServers;
import dev.ariadne.autoconfigure.TestKeyStores;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableWebApplicationContext;
import org.springframework.boot.test.context.runner.WebApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.web.server.WebServer;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.server.servlet.context.AnnotationConfigServletWebServerApplicationContext;
import org.springframework.boot.web.servlet.ServletRegistrationBean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * {@code ariadne.server.additional-listeners} in a servlet application: the same servlet
 * context on an HTTPS application port ({@code server.ssl.bundle}) and a plaintext additional
 * port, the start line naming every port as Tomcat names its connectors', both listeners
 * stopped and started again with the web server, and a bad entry or a port in use failing
 * startup naming the property.
 */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdditionalListenersWebServerTest {

	private static final String LISTENERS = "ariadne.server.additional-listeners";

	@TempDir
	static Path directory;

	private static Path store;

	private final WebApplicationContextRunner contextRunner = new WebApplicationContextRunner(
			AnnotationConfigServletWebServerApplicationContext::new)
		.withConfiguration(
				AutoConfigurations.of(SslAutoConfiguration.class, AriadneServletWebServerAutoConfiguration.class))
		.withBean("where", ServletRegistrationBean.class, () -> new ServletRegistrationBean<>(new WhereServlet(), "/where"))
		.withPropertyValues("server.port=0", "server.address=127.0.0.1");

	@BeforeAll
	static void generate() throws Exception {
		store = TestKeyStores.generate(directory, "localhost");
	}

	@Test
	void servesTheServletContextOnAnHttpsAndAnHttpPortAndLogsBoth(CapturedOutput output) {
		this.contextRunner.withPropertyValues(tls())
			.withPropertyValues(LISTENERS + "[0].port=0", LISTENERS + "[0].name=plain")
			.run((context) -> {
				AriadneWebServer webServer = webServer(context);
				AriadneServer plain = context.getBean(AriadneServers.class).find("plain");
				assertThat(webServer.getServers()).containsExactly(webServer.getServer(), plain);
				int https = webServer.getPort();
				assertThat(https).as("the application listener's port").isEqualTo(webServer.getServer().port());
				assertThat(get("https", https)).isEqualTo("https " + https);
				assertThat(get("http", plain.port())).isEqualTo("http " + plain.port());
				assertThat(output).contains("Ariadne started on ports " + https + " (https), " + plain.port()
						+ " (http) with context path '/'")
					.contains("Ariadne 'plain' listener on port " + plain.port() + ": io-model event-loop, threads.max 200");
			});
	}

	@Test
	void stopsAndStartsEveryListenerWithTheWebServer() {
		this.contextRunner.withPropertyValues(LISTENERS + "[0].port=0").run((context) -> {
			AriadneWebServer webServer = webServer(context);
			AriadneServers servers = context.getBean(AriadneServers.class);
			List<AriadneServer> first = webServer.getServers();
			int oldPort = first.get(1).port();
			webServer.stop();
			assertThat(first).noneMatch(AriadneServer::isRunning);
			assertThat(servers.all()).isEmpty();
			assertThatExceptionOfType(ConnectException.class).isThrownBy(() -> get("http", oldPort));
			webServer.start();
			List<AriadneServer> again = webServer.getServers();
			assertThat(again).hasSize(2).allMatch(AriadneServer::isRunning).doesNotContainAnyElementsOf(first);
			assertThat(servers.all()).containsExactlyElementsOf(again);
			assertThat(get("http", again.get(0).port())).isEqualTo("http " + again.get(0).port());
			assertThat(get("http", again.get(1).port())).isEqualTo("http " + again.get(1).port());
		});
	}

	@Test
	void aReservedNameFailsStartupNamingTheProperty() {
		this.contextRunner.withPropertyValues(LISTENERS + "[0].port=0", LISTENERS + "[0].name=management")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.hasStackTraceContaining(LISTENERS + "[0].name")
				.hasStackTraceContaining("is reserved"));
	}

	@Test
	void aPortInUseFailsStartupNamingTheProperty() throws IOException {
		try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
			this.contextRunner.withPropertyValues(LISTENERS + "[0].port=" + taken.getLocalPort())
				.run((context) -> assertThat(context).hasFailed()
					.getFailure()
					.hasStackTraceContaining("Ariadne's 'app-" + taken.getLocalPort()
							+ "' listener could not listen on 127.0.0.1:" + taken.getLocalPort() + " (" + LISTENERS
							+ "[0].port)"));
		}
	}

	private static String[] tls() {
		String bundle = "spring.ssl.bundle.jks.web.";
		return new String[] { bundle + "keystore.location=file:" + store,
				bundle + "keystore.password=" + TestKeyStores.PASSWORD, bundle + "keystore.type=PKCS12",
				"server.ssl.bundle=web" };
	}

	private static AriadneWebServer webServer(AssertableWebApplicationContext context) {
		WebServer webServer = ((WebServerApplicationContext) context.getSourceApplicationContext()).getWebServer();
		return (AriadneWebServer) webServer;
	}

	private static String get(String scheme, int port) throws Exception {
		HttpClient client = HttpClient.newBuilder()
			.sslContext(TestKeyStores.clientContext(store))
			.connectTimeout(Duration.ofSeconds(5))
			.build();
		HttpRequest request = HttpRequest.newBuilder(URI.create(scheme + "://127.0.0.1:" + port + "/where"))
			.timeout(Duration.ofSeconds(10))
			.build();
		HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
		assertThat(response.statusCode()).isEqualTo(200);
		return response.body();
	}

	/**
	 * Answers the scheme and the local port the request came in on.
	 */
	static final class WhereServlet extends HttpServlet {

		@Override
		protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
			response.setContentType("text/plain");
			response.getWriter().write(request.getScheme() + " " + request.getLocalPort());
		}

	}

}
