package dev.ariadne.servlet;

import java.io.File;
import java.io.IOException;
import java.util.function.UnaryOperator;

import jakarta.servlet.MultipartConfigElement;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Cookie;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.ContentLimits;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The content limits over real sockets, in every model: what a request may make the container
 * parse beyond its head (parameters, cookies, parts, a part's headers) is refused at the limit
 * with a status and a body that names the property to change, before the work the limit bounds;
 * what the parsing holds is counted in the server's buffer budget.
 */
class ContentLimitsIT {

	private static final ContentLimits LIMITS = new ContentLimits(5, 2 * 1024 * 1024, 3, 4, 128);

	private ServletServer server;

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.close();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void parametersOfTheQueryAndTheFormCountTogetherUpToTheLimit(IoModel model) throws Exception {
		start(model, UnaryOperator.identity());
		Wire.Reply five = form("/params?a=1&b=2&c=3", "d=4&e=5");
		assertThat(five.status).isEqualTo(200);
		assertThat(five.text()).isEqualTo("5 parameters");
		Wire.Reply six = form("/params?a=1&b=2&c=3", "d=4&e=5&f=6");
		assertThat(six.status).isEqualTo(400);
		assertThat(six.text()).isEqualTo("400 Bad Request\nMore than 5 request parameters "
				+ "(ariadne.server.request.max-parameters)\n");
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aFormIsRefusedAtThePairPastTheLimitWithoutWaitingForTheRestOfItsBody(IoModel model) throws Exception {
		start(model, UnaryOperator.identity());
		try (Wire wire = Wire.open(this.server.port())) {
			// a megabyte declared, and only the pairs up to the one past the limit sent, with more
			// than an input buffer holds, since a buffer's worth is read before dispatch
			wire.send("POST /params?a=1 HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\n"
					+ "Content-Length: 1000000\r\n\r\nb=2&c=3&d=4&e=5&f=" + "6".repeat(20_000));
			Wire.Reply reply = wire.read();
			assertThat(reply.status).isEqualTo(400);
			assertThat(reply.text()).contains("More than 5 request parameters");
			assertThat(reply.header("Connection")).isEqualTo("close");
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void cookiesPastTheLimitAre400AndTheErrorPageSeesNone(IoModel model) throws Exception {
		start(model, UnaryOperator.identity(), true);
		Wire.Reply three = cookies("a=1; b=2; c=3");
		assertThat(three.text()).isEqualTo("3 cookies");
		Wire.Reply four = cookies("a=1; b=2; c=3; d=4");
		assertThat(four.status).isEqualTo(400);
		assertThat(four.text()).isEqualTo("error page: cookies null");
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void partsPastTheLimitAre400BeforeThePartBeyondIsReadAndLeaveNoFiles(IoModel model) throws Exception {
		start(model, UnaryOperator.identity());
		Multipart four = new Multipart();
		Multipart five = new Multipart();
		for (int i = 0; i < 5; i++) {
			// parts past the file-size threshold and the spool's size: one file each
			byte[] content = new byte[70 * 1024];
			if (i < 4) {
				four.file("f" + i, "f" + i + ".bin", "application/octet-stream", content);
			}
			five.file("f" + i, "f" + i + ".bin", "application/octet-stream", content);
		}
		Wire.Reply accepted = Wire.exchange(this.server.port(), four.request("/upload", false));
		assertThat(accepted.status).isEqualTo(200);
		assertThat(accepted.text()).isEqualTo("4 parts");
		Wire.Reply refused = Wire.exchangeEarlyAnswer(this.server.port(), five.request("/upload", true));
		assertThat(refused.status).isEqualTo(400);
		assertThat(refused.text()).isEqualTo("400 Bad Request\nMore than 4 parts in the multipart body "
				+ "(ariadne.server.request.max-parts)\n");
		assertThat(AbstractServletIT.spooled(tempDirectory())).isZero();
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aPartWithAHeaderSectionPastTheLimitIs413(IoModel model) throws Exception {
		start(model, UnaryOperator.identity());
		String body = "--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\nX-Padding: " + "p".repeat(100)
				+ "\r\n\r\nvalue\r\n--xyz--\r\n";
		Wire.Reply reply = Wire.exchangeEarlyAnswer(this.server.port(), "POST /upload HTTP/1.1\r\nHost: x\r\n"
				+ "Content-Type: multipart/form-data; boundary=xyz\r\nContent-Length: " + body.length() + "\r\n\r\n"
				+ body);
		assertThat(reply.status).isEqualTo(413);
		assertThat(reply.text()).endsWith("A multipart part's header section exceeds the maximum size of 128 bytes "
				+ "(ariadne.server.request.max-part-header-size)\n");
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aFormAndItsParametersCountInTheBufferBudgetUntilTheExchangeEnds(IoModel model) throws Exception {
		// of a 1 MiB budget, three quarters are for bodies and what is parsed from them
		start(model, (config) -> config.bufferBudget(1024 * 1024));
		Wire.Reply held = form("/params", "a=" + "v".repeat(300_000));
		assertThat(held.text()).as("300 KB of form and 300 KB of parameters fit").isEqualTo("1 parameters");
		Wire.Reply large = form("/params", "a=" + "v".repeat(800_000));
		assertThat(large.status).isEqualTo(413);
		assertThat(form("/params", "a=1").text()).isEqualTo("1 parameters");
		assertThat(this.server.server().stats().buffersUsed()).as("bytes held once the exchanges ended")
			.isLessThan(64 * 1024);
	}

	private Wire.Reply form(String target, String form) throws IOException {
		return Wire.exchange(this.server.port(), "POST " + target + " HTTP/1.1\r\nHost: x\r\n"
				+ "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + form.length() + "\r\n\r\n"
				+ form);
	}

	private Wire.Reply cookies(String cookies) throws IOException {
		return Wire.exchange(this.server.port(), "GET /cookies HTTP/1.1\r\nHost: x\r\nCookie: " + cookies + "\r\n\r\n");
	}

	private File tempDirectory() {
		return (File) this.server.deployment().servletContext().getAttribute(ServletContext.TEMPDIR);
	}

	private void start(IoModel model, UnaryOperator<ServerConfig.Builder> config) throws ServletException {
		start(model, config, false);
	}

	private void start(IoModel model, UnaryOperator<ServerConfig.Builder> config, boolean errorPage)
			throws ServletException {
		ServletDeployment.Builder deployment = ServletDeployment.builder().contentLimits(LIMITS);
		if (errorPage) {
			deployment.errorPage(400, "/error");
		}
		deployment.initializer((context) -> {
				context.addServlet("params", Servlets.of((request, response) -> Servlets.write(response,
						request.getParameterMap().size() + " parameters")))
					.addMapping("/params");
				context.addServlet("cookies", Servlets.of((request, response) -> {
					Cookie[] cookies = request.getCookies();
					Servlets.write(response, ((cookies != null) ? cookies.length : 0) + " cookies");
				})).addMapping("/cookies");
				context.addServlet("error", Servlets.of((request, response) -> Servlets.write(response,
						"error page: cookies " + request.getCookies())))
					.addMapping("/error");
				context.addServlet("upload", Servlets.of((request, response) -> Servlets.write(response,
						request.getParts().size() + " parts")))
					.setMultipartConfig(new MultipartConfigElement("", 1024 * 1024, 4 * 1024 * 1024, 1024));
				context.getServletRegistration("upload").addMapping("/upload");
			});
		this.server = ServletServer.start(model, deployment, config);
	}

}
