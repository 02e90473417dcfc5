package dev.ariadne.servlet;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.servlet.ServletException;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.stats.RequestEvent;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The core's fallback hooks as the servlet container uses them: servlet requests run in the
 * route pool that {@code FallbackPools} picks, and their request events carry the route namer's
 * value, the servlet pattern, or a fixed value, never the raw path.
 */
class RouteReportingIT {

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void servletRequestsRunInTheirPoolAndReportBoundedRoutes(IoModel model) throws IOException, ServletException {
		List<RequestEvent> events = new CopyOnWriteArrayList<>();
		ServletDeployment.Builder deployment = ServletDeployment.builder()
			.routeNamer((request) -> (String) request.getAttribute("pattern"))
			.initializer((context) -> {
				context.addServlet("users", Servlets.of((request, response) -> {
					request.setAttribute("pattern", "/users/{id}");
					Servlets.write(response, "user " + request.getPathInfo());
				})).addMapping("/users/*");
				context.addServlet("heavy", Servlets.of((request, response) -> {
					Servlets.write(response, Thread.currentThread().getName());
				})).addMapping("/heavy/*");
			});
		try (ServletServer server = ServletServer.start(model, deployment,
				(config) -> config.pool("compute", new ServerConfig.PoolConfig(1, 4, false)),
				(builder, built) -> builder.requestListener(events::add)
					.fallback(built.handler(), (method, path) -> path.startsWith("/heavy/") ? "compute" : "default"))) {
			int port = server.port();
			assertThat(get(port, "/users/42").text()).isEqualTo("user /42");
			assertThat(get(port, "/heavy/%66ib").text()).contains("pool-compute");
			assertThat(get(port, "/nothing/here").status).isEqualTo(404);
			assertThat(get(port, "/users/%2e%2e/x").status).isEqualTo(400);
			Await.until(() -> events.size() == 4, () -> "events: " + events);
			assertThat(events).extracting(RequestEvent::route)
				.containsExactly("/users/{id}", "/heavy/*", RequestEvent.NOT_FOUND, RequestEvent.INVALID);
			assertThat(events).extracting(RequestEvent::pool).containsExactly("default", "compute", "default", "default");
		}
	}

	private static Wire.Reply get(int port, String path) throws IOException {
		return Wire.exchange(port, "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
	}

}
