package dev.ariadne.servlet;

import java.io.IOException;
import java.util.List;

import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.ForwardedConfig;
import dev.ariadne.server.IoModel;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A trusted proxy's {@code X-Forwarded-Prefix} over a real socket, in every model: the servlet
 * API reports the prefix as the context path (in place of the deployment's, as Spring's
 * {@code ForwardedHeaderFilter} does) and the request URI and URL start with it, so redirects,
 * the context root's redirect, an async dispatch and the session cookie's path follow it;
 * mapping does not change;
 * an untrusted peer's prefix is ignored.
 */
class ForwardedPrefixIT {

	private static final String BEHIND = "X-Forwarded-Proto: https\r\nX-Forwarded-Host: shop.example\r\n"
			+ "X-Forwarded-Prefix: /shop/\r\n";

	private ServletServer server;

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.close();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void theApplicationSeesThePathTheClientUsed(IoModel model) throws IOException, ServletException {
		start(model, ForwardedConfig.INTERNAL_PROXIES);
		assertThat(get("/app/paths/a%20b", BEHIND).text())
			.isEqualTo("context=/shop uri=/shop/paths/a%20b url=https://shop.example/shop/paths/a%20b"
					+ " servlet=/paths info=/a b");
		assertThat(get("/app/paths/x", "").text()).isEqualTo(
				"context=/app uri=/app/paths/x url=http://localhost/app/paths/x servlet=/paths info=/x");
		Wire.Reply relative = get("/app/go/relative", BEHIND);
		assertThat(relative.status).isEqualTo(302);
		assertThat(relative.header("Location")).isEqualTo("https://shop.example/shop/go/target");
		assertThat(get("/app/go/context", BEHIND).header("Location")).isEqualTo("https://shop.example/shop/target");
		assertThat(get("/app", BEHIND).header("Location")).as("the context root").isEqualTo("https://shop.example/shop/");
		assertThat(get("/app/async", BEHIND).text()).as("dispatched again to the same URI")
			.isEqualTo("async context=/shop uri=/shop/async");
		assertThat(get("/app/session", BEHIND).header("Set-Cookie")).contains("Path=/shop");
		assertThat(get("/app/session", "").header("Set-Cookie")).contains("Path=/app");
		assertThat(get("/app/paths/x", "X-Forwarded-Prefix: /\r\n").text()).as("the proxy's root")
			.startsWith("context= uri=/paths/x ");
		assertThat(get("/app/paths/x", "X-Forwarded-Prefix: /shop/../admin\r\n").text()).as("not a safe path")
			.startsWith("context=/app uri=/app/paths/x ");
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void anUntrustedPeersPrefixIsIgnored(IoModel model) throws IOException, ServletException {
		start(model, List.of("10.0.0.0/8"));
		assertThat(get("/app/paths/x", BEHIND).text()).isEqualTo(
				"context=/app uri=/app/paths/x url=http://localhost/app/paths/x servlet=/paths info=/x");
		assertThat(get("/app/go/relative", BEHIND).header("Location")).isEqualTo("http://localhost/app/go/target");
	}

	private void start(IoModel model, List<String> trusted) throws ServletException {
		this.server = ServletServer.start(model,
				ServletDeployment.builder().contextPath("/app").initializer(ForwardedPrefixIT::register),
				(config) -> config.forwarded(new ForwardedConfig(true, trusted)));
	}

	private static void register(ServletContext context) {
		context.addServlet("paths", Servlets.of((request, response) -> Servlets.write(response,
				"context=" + request.getContextPath() + " uri=" + request.getRequestURI() + " url="
						+ request.getRequestURL() + " servlet=" + request.getServletPath() + " info="
						+ request.getPathInfo())))
			.addMapping("/paths/*");
		context.addServlet("go", Servlets.of((request, response) -> response
			.sendRedirect(request.getPathInfo().equals("/relative") ? "target" : request.getContextPath() + "/target")))
			.addMapping("/go/*");
		jakarta.servlet.ServletRegistration.Dynamic async = context.addServlet("async", Servlets.of((request, response) -> {
			if (request.getDispatcherType() == jakarta.servlet.DispatcherType.ASYNC) {
				Servlets.write(response, "async context=" + request.getContextPath() + " uri=" + request.getRequestURI());
				return;
			}
			request.startAsync().dispatch();
		}));
		async.addMapping("/async");
		async.setAsyncSupported(true);
		context.addServlet("session", Servlets.of((request, response) -> {
			request.getSession(true);
			Servlets.write(response, "session");
		})).addMapping("/session");
	}

	private Wire.Reply get(String path, String fields) throws IOException {
		return Wire.exchange(this.server.port(), "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n" + fields + "\r\n");
	}

}
