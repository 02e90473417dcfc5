package dev.ariadne.servlet;

import java.io.IOException;
import java.nio.charset.Charset;
import java.time.Duration;
import java.util.EnumSet;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequestEvent;
import jakarta.servlet.ServletRequestListener;
import jakarta.servlet.SessionTrackingMode;
import jakarta.servlet.http.HttpSession;
import jakarta.servlet.http.HttpSessionAttributeListener;
import jakarta.servlet.http.HttpSessionBindingEvent;
import jakarta.servlet.http.HttpSessionEvent;
import jakarta.servlet.http.HttpSessionIdListener;

import org.junit.jupiter.api.Test;

import dev.ariadne.AriadneServer;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.FallbackPools;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Deployment settings that do not depend on the I/O model, over a socket: request and session-id
 * listeners, URL session tracking, locale charsets, the {@code Server} header, and the handler
 * before start and after stop.
 */
class DeploymentFeaturesIT {

	private static final IoModel MODEL = IoModel.EVENT_LOOP;

	@Test
	void tellsRequestSessionAttributeAndSessionIdListeners() throws IOException, ServletException {
		List<String> events = new CopyOnWriteArrayList<>();
		ServletDeployment.Builder deployment = ServletDeployment.builder().initializer((context) -> {
			context.addListener(new ServletRequestListener() {

				@Override
				public void requestInitialized(ServletRequestEvent event) {
					events.add("initialized " + event.getServletRequest().getAttribute("seen"));
				}

				@Override
				public void requestDestroyed(ServletRequestEvent event) {
					events.add("destroyed " + event.getServletRequest().getAttribute("seen"));
				}

			});
			context.addListener((HttpSessionIdListener) (HttpSessionEvent event, String oldId) -> events
				.add("id changed " + !oldId.equals(event.getSession().getId())));
			context.addListener(new HttpSessionAttributeListener() {

				@Override
				public void attributeAdded(HttpSessionBindingEvent event) {
					events.add("session attribute added " + event.getName() + "=" + event.getValue());
				}

				@Override
				public void attributeReplaced(HttpSessionBindingEvent event) {
					events.add("session attribute replaced " + event.getName() + "=" + event.getValue());
				}

				@Override
				public void attributeRemoved(HttpSessionBindingEvent event) {
					events.add("session attribute removed " + event.getName() + "=" + event.getValue());
				}

			});
			context.addServlet("s", Servlets.of((request, response) -> {
				request.setAttribute("seen", "yes");
				HttpSession session = request.getSession();
				session.setAttribute("a", "1");
				session.setAttribute("a", "2");
				session.removeAttribute("a");
				request.changeSessionId();
			})).addMapping("/");
		});
		try (ServletServer server = ServletServer.start(MODEL, deployment)) {
			assertThat(Wire.exchange(server.port(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n").status).isEqualTo(200);
			Await.until(() -> events.size() == 6, () -> "events: " + events);
			assertThat(events).containsExactly("initialized null", "session attribute added a=1",
					"session attribute replaced a=1", "session attribute removed a=2", "id changed true",
					"destroyed yes");
		}
	}

	@Test
	void tracksSessionsInTheUrlWhenCookiesAreOff() throws IOException, ServletException {
		ServletDeployment.Builder deployment = ServletDeployment.builder().contextPath("/shop").initializer((context) -> {
			context.setSessionTrackingModes(EnumSet.of(SessionTrackingMode.URL));
			context.addServlet("s", Servlets.of((request, response) -> {
				HttpSession session = request.getSession();
				Object visits = session.getAttribute("visits");
				int count = (visits == null) ? 1 : (int) visits + 1;
				session.setAttribute("visits", count);
				Servlets.write(response, count + " " + response.encodeURL("/shop/cart?x=1") + " url="
						+ request.isRequestedSessionIdFromURL());
			})).addMapping("/*");
		});
		try (ServletServer server = ServletServer.start(MODEL, deployment)) {
			Wire.Reply first = Wire.exchange(server.port(), "GET /shop/cart HTTP/1.1\r\nHost: x\r\n\r\n");
			assertThat(first.header("Set-Cookie")).isNull();
			String link = first.text().split(" ")[1];
			assertThat(link).matches("/shop/cart;jsessionid=[0-9A-F]{32}\\?x=1");
			Wire.Reply second = Wire.exchange(server.port(), "GET " + link + " HTTP/1.1\r\nHost: x\r\n\r\n");
			assertThat(second.text()).startsWith("2 ").endsWith(" url=true");
		}
	}

	@Test
	void picksTheResponseCharsetFromTheLocaleAndSetsTheServerHeader() throws IOException, ServletException {
		ServletDeployment.Builder deployment = ServletDeployment.builder()
			.localeCharset(Locale.JAPANESE, Charset.forName("Shift_JIS"))
			.serverHeader("Ariadne")
			.initializer((context) -> context.addServlet("s", Servlets.of((request, response) -> {
				response.setContentType("text/plain");
				response.setLocale(Locale.JAPAN);
				Servlets.write(response, "日本");
			})).addMapping("/"));
		try (ServletServer server = ServletServer.start(MODEL, deployment)) {
			Wire.Reply reply = Wire.exchange(server.port(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
			assertThat(reply.header("Content-Type")).isEqualTo("text/plain;charset=Shift_JIS");
			assertThat(reply.header("Content-Language")).isEqualTo("ja-JP");
			assertThat(reply.header("Server")).isEqualTo("Ariadne");
			assertThat(new String(reply.body, Charset.forName("Shift_JIS"))).isEqualTo("日本");
			assertThat(Wire.exchange(server.port(), "GET /%2e%2e HTTP/1.1\r\nHost: x\r\n\r\n").header("Server"))
				.isEqualTo("Ariadne");
		}
	}

	@Test
	void answers503BeforeTheDeploymentStartsAndAfterItStops() throws IOException, ServletException {
		ServletDeployment deployment = ServletDeployment.builder()
			.initializer((context) -> context.addServlet("s", Servlets.of((request, response) -> Servlets
				.write(response, "up"))).addMapping("/"))
			.build();
		AriadneServer server = AriadneServer.builder(ServerConfig.builder()
			.address(Wire.LOOPBACK)
			.port(0)
			.ioModel(MODEL)
			.shutdownGracePeriod(Duration.ofSeconds(1))
			.build()).fallback(deployment.handler(), FallbackPools.DEFAULT).build();
		server.start();
		try {
			String request = "GET / HTTP/1.1\r\nHost: x\r\n\r\n";
			assertThat(Wire.exchange(server.port(), request).status).isEqualTo(503);
			deployment.start();
			assertThat(Wire.exchange(server.port(), request).text()).isEqualTo("up");
			deployment.stop();
			assertThat(Wire.exchange(server.port(), request).status).isEqualTo(503);
		}
		finally {
			server.stop();
		}
	}

}
