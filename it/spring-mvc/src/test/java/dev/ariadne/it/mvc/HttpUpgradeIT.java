package dev.ariadne.it.mvc;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.WebConnection;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.Await;
import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;
import dev.ariadne.server.IoModel;

import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.boot.web.servlet.ServletRegistrationBean;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.security.config.annotation.web.builders.HttpSecurity;
import org.springframework.security.web.SecurityFilterChain;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A plain servlet of a Spring Boot application, registered with a {@link ServletRegistrationBean}
 * behind Spring Security's filter chain, switches its connection to a protocol of its own with
 * {@code HttpServletRequest.upgrade}, in every model: the 101 carries the servlet's fields and
 * those Spring Security writes, bytes sent with the request reach the handler, the handler's
 * listeners echo, and the handler is destroyed once when the client ends.
 */
class HttpUpgradeIT {

	static final AtomicInteger destroyed = new AtomicInteger();

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aRegisteredServletSwitchesItsConnectionBehindSpringSecurity(IoModel model) throws Exception {
		assumeTrue(model != IoModel.VIRTUAL_THREADS || Runtime.version().feature() >= 21, "needs Java 21");
		destroyed.set(0);
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(Application.class).run(
				"--server.port=0", "--server.address=127.0.0.1", "--spring.main.banner-mode=off",
				"--ariadne.server.io-model=" + model.value())) {
			int port = ((WebServerApplicationContext) context).getWebServer().getPort();
			try (RawClient client = RawClient.connect(port)) {
				client.send("GET /raw-echo HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n"
						+ "early;");
				RawResponse switched = client.read();
				assertThat(switched.status()).isEqualTo(101);
				assertThat(switched.header("Upgrade")).isEqualTo("echo");
				assertThat(switched.header("Connection")).isEqualTo("Upgrade");
				assertThat(switched.header("X-Content-Type-Options")).as("Spring Security's headers").isEqualTo("nosniff");
				assertThat(text(client.take(6))).isEqualTo("early;");
				client.send("through Spring");
				assertThat(text(client.take(14))).isEqualTo("through Spring");
				client.shutdownOutput();
				assertThat(client.readUntilClose()).isEmpty();
			}
			Await.until(() -> destroyed.get() == 1, () -> "destroyed " + destroyed.get() + " times");
		}
	}

	private static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.ISO_8859_1);
	}

	@SpringBootConfiguration
	@EnableAutoConfiguration
	static class Application {

		@Bean
		ServletRegistrationBean<HttpServlet> rawEcho() {
			return new ServletRegistrationBean<>(new Upgrading(), "/raw-echo");
		}

		@Bean
		SecurityFilterChain securityFilterChain(HttpSecurity http) throws Exception {
			http.authorizeHttpRequests((requests) -> requests.anyRequest().permitAll());
			return http.build();
		}

	}

	/** Switches to the echo when asked to. */
	static final class Upgrading extends HttpServlet {

		private static final long serialVersionUID = 1L;

		@Override
		protected void doGet(HttpServletRequest request, HttpServletResponse response)
				throws IOException, ServletException {
			if (!"echo".equals(request.getHeader("Upgrade"))) {
				response.sendError(HttpServletResponse.SC_BAD_REQUEST);
				return;
			}
			response.setHeader("Upgrade", "echo");
			request.upgrade(Echo.class);
		}

	}

	/** Echoes what it reads; closes the connection at the end of the input. */
	public static final class Echo implements HttpUpgradeHandler, ReadListener {

		private WebConnection connection;

		private ServletInputStream in;

		private ServletOutputStream out;

		@Override
		public void init(WebConnection connection) {
			this.connection = connection;
			try {
				this.in = connection.getInputStream();
				this.out = connection.getOutputStream();
			}
			catch (IOException ex) {
				throw new java.io.UncheckedIOException(ex);
			}
			this.in.setReadListener(this);
		}

		@Override
		public void onDataAvailable() throws IOException {
			byte[] buffer = new byte[4096];
			while (this.in.isReady()) {
				int n = this.in.read(buffer);
				if (n < 0) {
					return;
				}
				this.out.write(buffer, 0, n);
			}
		}

		@Override
		public void onAllDataRead() throws IOException {
			close();
		}

		@Override
		public void onError(Throwable failure) {
			close();
		}

		private void close() {
			try {
				this.connection.close();
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}

		@Override
		public void destroy() {
			destroyed.incrementAndGet();
		}

	}

}
