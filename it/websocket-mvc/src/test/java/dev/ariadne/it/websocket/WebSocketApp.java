package dev.ariadne.it.websocket;

import java.net.URI;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import dev.ariadne.AriadneServer;
import dev.ariadne.TestCertificates;
import dev.ariadne.autoconfigure.web.AriadneWebServer;
import dev.ariadne.server.IoModel;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The WebSocket application running in one I/O model on loopback. {@link #shared} starts one per
 * model for the whole run, as Spring's test context cache does (Spring's shutdown hook closes
 * them); tests that change the settings or starve the application {@link #start} one of their
 * own and close it.
 */
final class WebSocketApp implements AutoCloseable {

	private static final Map<IoModel, WebSocketApp> SHARED = new EnumMap<>(IoModel.class);

	private static final Map<IoModel, WebSocketApp> SHARED_TLS = new EnumMap<>(IoModel.class);

	private final ConfigurableApplicationContext context;

	private final String scheme;

	private WebSocketApp(ConfigurableApplicationContext context, String scheme) {
		this.context = context;
		this.scheme = scheme;
	}

	static void assumeSupported(IoModel model) {
		assumeTrue(model != IoModel.VIRTUAL_THREADS || Runtime.version().feature() >= 21,
				"virtual-threads needs Java 21 or later");
	}

	/**
	 * Returns the application every test of a model shares, started on first use.
	 * @param model the I/O model
	 * @return the running application
	 */
	static synchronized WebSocketApp shared(IoModel model) {
		assumeSupported(model);
		return SHARED.computeIfAbsent(model, WebSocketApp::start);
	}

	/**
	 * Returns the application over TLS ({@code server.ssl.*} with the test CA's certificate for
	 * 127.0.0.1) every test of a model shares, started on first use.
	 * @param model the I/O model
	 * @return the running application
	 */
	static synchronized WebSocketApp sharedTls(IoModel model) {
		assumeSupported(model);
		return SHARED_TLS.computeIfAbsent(model, (key) -> {
			TestCertificates certificates = TestCertificates.get();
			return start(key, "--server.ssl.key-store=file:" + certificates.keyStore(),
					"--server.ssl.key-store-password=" + TestCertificates.PASSWORD,
					"--server.ssl.key-store-type=PKCS12", "--server.ssl.key-alias=" + TestCertificates.LOCALHOST);
		});
	}

	/**
	 * Starts an application of its own.
	 * @param model the I/O model
	 * @param args more arguments
	 * @return the running application
	 */
	static WebSocketApp start(IoModel model, String... args) {
		assumeSupported(model);
		List<String> all = new ArrayList<>(List.of("--server.port=0", "--server.address=127.0.0.1",
				"--spring.main.banner-mode=off", "--ariadne.server.io-model=" + model.value()));
		all.addAll(List.of(args));
		boolean tls = all.stream().anyMatch((arg) -> arg.startsWith("--server.ssl."));
		ConfigurableApplicationContext context = new SpringApplicationBuilder(WebSocketApplication.class)
			.run(all.toArray(String[]::new));
		return new WebSocketApp(context, tls ? "s" : "");
	}

	ConfigurableApplicationContext context() {
		return this.context;
	}

	int port() {
		return ((WebServerApplicationContext) this.context).getWebServer().getPort();
	}

	AriadneServer server() {
		return ((AriadneWebServer) ((WebServerApplicationContext) this.context).getWebServer()).getServer();
	}

	EchoHandler echo() {
		return this.context.getBean(EchoHandler.class);
	}

	/** Returns the {@code ws} (or {@code wss}) URI of a path. */
	URI ws(String path) {
		return URI.create("ws" + this.scheme + "://127.0.0.1:" + port() + path);
	}

	/** Returns the {@code http} (or {@code https}) URI of a path. */
	URI http(String path) {
		return URI.create("http" + this.scheme + "://127.0.0.1:" + port() + path);
	}

	@Override
	public void close() {
		this.context.close();
	}

}
