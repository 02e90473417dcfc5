package dev.ariadne.servlet;

import java.io.IOException;
import java.util.EnumSet;
import java.util.List;

import jakarta.servlet.DispatcherType;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletMapping;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.ariadne.server.ContentLimits;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The servlet container over a real socket: mapping, the request and response basics, filters
 * per dispatcher type, error pages, buffering and framing. One subclass per I/O model.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractServletIT {

	private ServletServer server;

	/**
	 * Returns the I/O model the suite runs against.
	 * @return the model
	 */
	abstract IoModel model();

	@BeforeAll
	void start() throws ServletException {
		this.server = ServletServer.start(model(), ServletDeployment.builder()
			.contextPath("/app")
			.displayName("basics")
			.errorPage(404, "/errors/not-found")
			.errorPage(CustomFailure.class, "/errors/custom")
			.globalErrorPage("/errors/global")
			.initializer(AbstractServletIT::register), (config) -> config,
				Route.get("/app/route", (request, response) -> response.send("route")));
	}

	@AfterAll
	void stop() {
		if (this.server != null) {
			this.server.close();
		}
	}

	static final class CustomFailure extends RuntimeException {

		private static final long serialVersionUID = 1L;

		CustomFailure(String message) {
			super(message);
		}

	}

	private static void register(ServletContext context) {
		context.addServlet("echo", Servlets.of(AbstractServletIT::echo)).addMapping("/exact", "/prefix/*", "*.ext", "");
		context.addServlet("default", Servlets.of((request, response) -> {
			Servlets.write(response, "default " + describe(request));
		})).addMapping("/");
		context.addServlet("fail", Servlets.of(AbstractServletIT::fail)).addMapping("/fail/*");
		context.addServlet("errors", Servlets.of((request, response) -> {
			Servlets.write(response, "page " + request.getPathInfo() + " status="
					+ request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) + " message="
					+ request.getAttribute(RequestDispatcher.ERROR_MESSAGE) + " type="
					+ simpleName(request.getAttribute(RequestDispatcher.ERROR_EXCEPTION_TYPE)) + " uri="
					+ request.getAttribute(RequestDispatcher.ERROR_REQUEST_URI) + " dispatch="
					+ request.getDispatcherType() + " trace=" + request.getAttribute("trace") + " response="
					+ response.getStatus());
		})).addMapping("/errors/*");
		context.addServlet("buffer", Servlets.of(AbstractServletIT::buffer)).addMapping("/buffer/*");
		context.addServlet("head", Servlets.get((request, response) -> {
			response.setContentType("text/plain");
			response.getOutputStream().write(new byte[5000]);
		})).addMapping("/head");
		context.addServlet("redirect", Servlets.of((request, response) -> {
			response.sendRedirect(request.getParameter("to"));
		})).addMapping("/redirect/*");
		context.addServlet("params", Servlets.of(AbstractServletIT::params)).addMapping("/params");
		context.addServlet("cookies", Servlets.of(AbstractServletIT::cookies)).addMapping("/cookies");
		context.addServlet("session", Servlets.of(AbstractServletIT::session)).addMapping("/session/*");
		context.addServlet("dispatch", Servlets.of(AbstractServletIT::dispatch)).addMapping("/dispatch/*");
		context.addServlet("target", Servlets.of((request, response) -> {
			response.setHeader("X-Target", "set by target");
			Servlets.write(response, "target " + request.getDispatcherType() + " " + describe(request) + " a="
					+ String.join(",", valuesOf(request, "a")) + " forwarded-uri="
					+ request.getAttribute(RequestDispatcher.FORWARD_REQUEST_URI) + " forwarded-servlet="
					+ request.getAttribute(RequestDispatcher.FORWARD_SERVLET_PATH) + " included-uri="
					+ request.getAttribute(RequestDispatcher.INCLUDE_REQUEST_URI) + " included-info="
					+ request.getAttribute(RequestDispatcher.INCLUDE_PATH_INFO));
		})).addMapping("/target/*");
		context.addServlet("swallow", Servlets.of((request, response) -> {
			try {
				request.getInputStream().readAllBytes();
				Servlets.write(response, "read");
			}
			catch (IOException ex) {
				// an application that answers a body it could not read, as an error page does
				Servlets.write(response, "caught");
			}
		})).addMapping("/swallow");
		context.addServlet("upload", Servlets.of(AbstractServletIT::upload)).setMultipartConfig(
				new jakarta.servlet.MultipartConfigElement("", 64 * 1024, 200 * 1024, 1024));
		context.getServletRegistration("upload").addMapping("/upload", "/upload-parts-first");
		context.getSessionCookieConfig().setAttribute("SameSite", "Lax");
		context.addFilter("trace", Servlets.filter((request, response, chain) -> {
			Servlets.trace(request, request.getDispatcherType().name());
			chain.doFilter(request, response);
		})).addMappingForUrlPatterns(EnumSet.allOf(DispatcherType.class), false, "/*");
		context.addFilter("by-name", Servlets.filter((request, response, chain) -> {
			Servlets.trace(request, "by-name");
			chain.doFilter(request, response);
		})).addMappingForServletNames(EnumSet.of(DispatcherType.REQUEST), true, "echo");
		context.addFilter("exact-only", Servlets.filter((request, response, chain) -> {
			Servlets.trace(request, "exact-only");
			chain.doFilter(request, response);
		})).addMappingForUrlPatterns(null, false, "/exact");
	}

	private static String[] valuesOf(HttpServletRequest request, String name) {
		String[] values = request.getParameterValues(name);
		return (values != null) ? values : new String[0];
	}

	private static void params(HttpServletRequest request, HttpServletResponse response) throws IOException {
		String encoding = request.getHeader("X-Encoding");
		if (encoding != null) {
			request.setCharacterEncoding(encoding);
		}
		StringBuilder text = new StringBuilder();
		request.getParameterMap().forEach((name, values) -> text.append(name).append('=')
			.append(String.join(",", values)).append(';'));
		response.setContentType("text/plain;charset=UTF-8");
		Servlets.write(response, text.toString());
	}

	private static void cookies(HttpServletRequest request, HttpServletResponse response) throws IOException {
		StringBuilder text = new StringBuilder();
		if (request.getCookies() != null) {
			for (jakarta.servlet.http.Cookie cookie : request.getCookies()) {
				text.append(cookie.getName()).append('=').append(cookie.getValue()).append(';');
			}
		}
		jakarta.servlet.http.Cookie flavour = new jakarta.servlet.http.Cookie("flavour", "oat");
		flavour.setPath("/app");
		flavour.setMaxAge(60);
		flavour.setHttpOnly(true);
		response.addCookie(flavour);
		jakarta.servlet.http.Cookie strict = new jakarta.servlet.http.Cookie("strict", "1");
		strict.setAttribute("SameSite", "Strict");
		response.addCookie(strict);
		Servlets.write(response, text.toString());
	}

	private static void session(HttpServletRequest request, HttpServletResponse response) throws IOException {
		String action = request.getPathInfo();
		jakarta.servlet.http.HttpSession session = request.getSession(!action.equals("/peek"));
		String text = switch (action) {
			case "/put" -> {
				session.setAttribute("value", request.getParameter("value"));
				yield "put " + session.isNew();
			}
			case "/get" -> "got " + session.getAttribute("value") + " new=" + session.isNew();
			case "/rotate" -> {
				String old = session.getId();
				String changed = request.changeSessionId();
				yield "rotated " + !old.equals(changed) + " " + changed.equals(request.getSession().getId());
			}
			case "/invalidate" -> {
				session.invalidate();
				yield "invalidated " + (request.getSession(false) == null);
			}
			default -> "peek " + ((session != null) ? session.getAttribute("value") : "none") + " requested="
					+ request.isRequestedSessionIdValid();
		};
		Servlets.write(response, text);
	}

	private static void upload(HttpServletRequest request, HttpServletResponse response)
			throws IOException, ServletException {
		if (request.getServletPath().equals("/upload-parts-first")) {
			// as Spring's multipart resolver does: the parts first, the fields as parameters after
			int parts = request.getParts().size();
			Servlets.write(response, parts + " parts, field=" + request.getParameter("field"));
			return;
		}
		StringBuilder text = new StringBuilder("field=" + request.getParameter("field") + " note="
				+ request.getParameter("note") + " query=" + request.getParameter("q"));
		java.io.File tempdir = (java.io.File) request.getServletContext().getAttribute(ServletContext.TEMPDIR);
		for (jakarta.servlet.http.Part part : request.getParts()) {
			byte[] content = part.getInputStream().readAllBytes();
			int sum = 0;
			for (byte b : content) {
				sum += b & 0xFF;
			}
			text.append(" | ").append(part.getName()).append(' ').append(part.getSubmittedFileName()).append(' ')
				.append(part.getSize()).append(' ').append(part.getContentType()).append(" sum=").append(sum);
		}
		text.append(" | spooled=").append(spooled(tempdir));
		response.setContentType("text/plain;charset=UTF-8");
		Servlets.write(response, text.toString());
	}

	static long spooled(java.io.File directory) throws IOException {
		try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.list(directory.toPath())) {
			return files.filter((file) -> file.getFileName().toString().startsWith("upload-")).count();
		}
	}

	private static void dispatch(HttpServletRequest request, HttpServletResponse response)
			throws IOException, ServletException {
		switch (request.getPathInfo()) {
			case "/forward" -> {
				Servlets.write(response, "dropped by the forward");
				request.getRequestDispatcher("/target/f%20x?a=fwd").forward(request, response);
				Servlets.write(response, "ignored after the forward");
			}
			case "/relative" -> request.getRequestDispatcher("../target/rel").forward(request, response);
			case "/named" -> request.getServletContext().getNamedDispatcher("target").forward(request, response);
			case "/include" -> {
				response.setHeader("X-Outer", "1");
				Servlets.write(response, "before|");
				request.getRequestDispatcher("/target/inc?a=inc").include(request, response);
				Servlets.write(response, "|after");
			}
			default -> response.sendError(400);
		}
	}

	private static String simpleName(Object type) {
		return (type instanceof Class<?> clazz) ? clazz.getSimpleName() : String.valueOf(type);
	}

	private static String describe(HttpServletRequest request) {
		HttpServletMapping mapping = request.getHttpServletMapping();
		return "context=" + request.getContextPath() + " servlet=" + request.getServletPath() + " info="
				+ request.getPathInfo() + " match=" + mapping.getMappingMatch() + " pattern=" + mapping.getPattern()
				+ " value=" + mapping.getMatchValue() + " uri=" + request.getRequestURI() + " trace="
				+ request.getAttribute("trace");
	}

	private static void echo(HttpServletRequest request, HttpServletResponse response) throws IOException {
		response.setContentType("text/plain;charset=UTF-8");
		Servlets.write(response, describe(request));
	}

	private static void fail(HttpServletRequest request, HttpServletResponse response)
			throws IOException, ServletException {
		switch (request.getPathInfo()) {
			case "/runtime" -> throw new IllegalStateException("boom");
			case "/overflow" -> throw new ServletException("Handler dispatch failed", new StackOverflowError());
			case "/out-of-memory" -> throw new OutOfMemoryError("Java heap space");
			case "/custom" -> throw new CustomFailure("custom boom");
			case "/wrapped" -> throw new ServletException("wrapper", new CustomFailure("inner"));
			case "/send-404" -> response.sendError(404, "nothing here");
			case "/send-503" -> {
				response.setHeader("Retry-After", "5");
				response.sendError(503);
				response.getWriter().write("ignored after sendError");
			}
			case "/bad-status" -> {
				response.setStatus(150);
				response.getWriter().write("never sent");
			}
			case "/bad-cookie" -> {
				try {
					response.addCookie(new jakarta.servlet.http.Cookie("c", "two words"));
				}
				catch (IllegalArgumentException ex) {
					response.getWriter().write("refused: " + ex.getMessage());
				}
			}
			case "/after-commit" -> {
				response.getWriter().write("partial");
				response.flushBuffer();
				throw new IllegalStateException("too late");
			}
			default -> response.sendError(400);
		}
	}

	private static void buffer(HttpServletRequest request, HttpServletResponse response) throws IOException {
		switch (request.getPathInfo()) {
			case "/small" -> response.getOutputStream().write(new byte[100]);
			case "/large" -> {
				response.setBufferSize(1024);
				response.getOutputStream().write(new byte[10_000]);
			}
			case "/declared" -> {
				response.setContentLength(3000);
				response.getOutputStream().write(new byte[3000]);
				response.getOutputStream().write(new byte[10]);
			}
			case "/flush" -> {
				response.getWriter().write("early");
				boolean before = response.isCommitted();
				response.flushBuffer();
				response.getWriter().write(" committed " + before + "/" + response.isCommitted());
			}
			case "/reset" -> {
				response.setStatus(404);
				response.setHeader("X-Dropped", "1");
				response.getWriter().write("discarded");
				response.reset();
				response.setHeader("X-Kept", "1");
				response.getOutputStream().write("kept".getBytes());
			}
			case "/reset-buffer" -> {
				response.setStatus(202);
				response.setHeader("X-Kept", "1");
				response.getWriter().write("discarded");
				response.resetBuffer();
				response.getWriter().write("kept");
			}
			case "/reset-after-commit" -> {
				response.getWriter().write("sent");
				response.flushBuffer();
				try {
					response.reset();
				}
				catch (IllegalStateException ex) {
					response.getWriter().write(" reset refused");
				}
			}
			default -> response.sendError(400);
		}
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			/app/exact           | servlet=/exact info=null match=EXACT pattern=/exact value=exact
			/app/prefix          | servlet=/prefix info=null match=PATH pattern=/prefix/* value=
			/app/prefix/a/b      | servlet=/prefix info=/a/b match=PATH pattern=/prefix/* value=a/b
			/app/prefix/%61%20b  | servlet=/prefix info=/a b match=PATH pattern=/prefix/* value=a b
			/app/dir/file.ext    | servlet=/dir/file.ext info=null match=EXTENSION pattern=*.ext value=dir/file
			/app/prefix/file.ext | servlet=/prefix info=/file.ext match=PATH pattern=/prefix/* value=file.ext
			/app/                | servlet= info=/ match=CONTEXT_ROOT pattern= value=
			/app/other/thing     | servlet=/other/thing info=null match=DEFAULT pattern=/ value=
			/app/exact/          | servlet=/exact/ info=null match=DEFAULT pattern=/ value=
			""")
	void mapsByTheServletRules(String path, String expected) throws IOException {
		Wire.Reply reply = get(path);
		assertThat(reply.status).isEqualTo(200);
		assertThat(reply.text()).contains("context=/app " + expected + " uri=" + path);
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			/app;v=1/prefix/a    | /app;v=1
			//app/prefix/a       | //app
			/%61pp/prefix/a      | /%61pp
			/x/../app/prefix/a   | /x/../app
			""")
	void givesTheContextPathAsTheRequestUriSpellsIt(String path, String contextPath) throws IOException {
		// the request URI starts with the context path, as Spring's path parsing requires
		Wire.Reply reply = get(path);
		assertThat(reply.status).isEqualTo(200);
		assertThat(reply.text()).contains("context=" + contextPath + " servlet=/prefix info=/a match=PATH")
			.contains(" uri=" + path + " ");
	}

	@Test
	void runsFiltersByUrlPatternThenByServletName() throws IOException {
		assertThat(get("/app/exact").text()).endsWith("trace=REQUEST,exact-only,by-name");
		assertThat(get("/app/prefix/x").text()).endsWith("trace=REQUEST,by-name");
		assertThat(get("/app/anything").text()).endsWith("trace=REQUEST");
	}

	@Test
	void redirectsTheBareContextPathAndRefusesPathsOutsideIt() throws IOException {
		Wire.Reply bare = get("/app?x=1");
		assertThat(bare.status).isEqualTo(302);
		assertThat(bare.header("Location")).isEqualTo("http://localhost/app/?x=1");
		assertThat(get("/application").status).isEqualTo(404);
		assertThat(get("/").status).isEqualTo(404);
	}

	@Test
	void servesRoutesAheadOfTheServlets() throws IOException {
		assertThat(get("/app/route").text()).isEqualTo("route");
		assertThat(Wire.exchange(this.server.port(), "POST /app/route HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n")
			.text()).startsWith("default ");
	}

	@Test
	void rejectsSuspiciousPathsBeforeAnyFilter() throws IOException {
		Wire.Reply reply = get("/app/prefix/%2e%2e/exact");
		assertThat(reply.status).isEqualTo(400);
		assertThat(reply.text()).contains("dot segment");
		assertThat(get("/app/prefix/a%2Fb").status).isEqualTo(400);
	}

	@Test
	void showsTheErrorPageForAStatusAndTheGlobalPageOtherwise() throws IOException {
		Wire.Reply notFound = get("/app/fail/send-404");
		assertThat(notFound.status).isEqualTo(404);
		assertThat(notFound.text()).isEqualTo("page /not-found status=404 message=nothing here type=null "
				+ "uri=/app/fail/send-404 dispatch=ERROR trace=REQUEST,ERROR response=404");
		Wire.Reply unavailable = get("/app/fail/send-503");
		assertThat(unavailable.status).isEqualTo(503);
		assertThat(unavailable.header("Retry-After")).isEqualTo("5");
		assertThat(unavailable.text()).startsWith("page /global status=503 message= ");
	}

	@Test
	void showsTheErrorPageForAnExceptionByTypeThenByRootCauseThenGlobal() throws IOException {
		assertThat(get("/app/fail/custom").text()).startsWith("page /custom status=500 message=custom boom "
				+ "type=CustomFailure uri=/app/fail/custom dispatch=ERROR");
		assertThat(get("/app/fail/wrapped").text()).startsWith("page /custom status=500 message=inner "
				+ "type=CustomFailure");
		Wire.Reply runtime = get("/app/fail/runtime");
		assertThat(runtime.status).isEqualTo(500);
		assertThat(runtime.text()).startsWith("page /global status=500 message=boom type=IllegalStateException");
	}

	@Test
	void refusesWhatCannotBeWrittenWhileTheApplicationCanStillAnswer() throws IOException {
		Wire.Reply status = get("/app/fail/bad-status");
		assertThat(status.status).isEqualTo(500);
		assertThat(status.text()).startsWith("page /global status=500 message=Status 150 cannot be sent");
		Wire.Reply cookie = get("/app/fail/bad-cookie");
		assertThat(cookie.status).isEqualTo(200);
		assertThat(cookie.headers("Set-Cookie")).isEmpty();
		assertThat(cookie.text()).startsWith("refused: Cookie 'c' has a character not allowed");
	}

	@Test
	void answersAPathNoServletMapsWith404AfterItsFiltersRan() throws IOException, ServletException {
		ServletDeployment.Builder bare = ServletDeployment.builder()
			.errorPage(404, "/missing-too")
			.initializer((context) -> {
				context.addServlet("only", Servlets.of((request, response) -> Servlets.write(response, "only")))
					.addMapping("/only");
				context.addFilter("mark", Servlets.filter((request, response, chain) -> {
					response.setHeader("X-Filtered", request.getDispatcherType().name());
					chain.doFilter(request, response);
				})).addMappingForUrlPatterns(null, false, "/*");
			});
		try (ServletServer plain = ServletServer.start(model(), bare)) {
			Wire.Reply reply = Wire.exchange(plain.port(), "GET /nothing HTTP/1.1\r\nHost: x\r\n\r\n");
			assertThat(reply.status).isEqualTo(404);
			assertThat(reply.header("X-Filtered")).isEqualTo("REQUEST");
			assertThat(reply.text()).isEqualTo("404 Not Found\n");
		}
	}

	@Test
	void answersAnErrorOfTheJvmWith500AndClosesWithoutAnErrorPage() throws IOException {
		long before = this.server.server().stats().fatalErrors();
		for (String path : new String[] { "/app/fail/overflow", "/app/fail/out-of-memory" }) {
			try (Wire wire = Wire.open(this.server.port())) {
				wire.send("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
				Wire.Reply reply = wire.read();
				assertThat(reply.status).as(path).isEqualTo(500);
				assertThat(reply.header("Connection")).as(path).isEqualTo("close");
				assertThat(reply.text()).as("no error page for %s", path).doesNotStartWith("page");
				assertThat(wire.closedByServer()).as(path).isTrue();
			}
		}
		assertThat(this.server.server().stats().fatalErrors() - before).isEqualTo(2);
		assertThat(get("/app/fail/runtime").status).as("the server still serves").isEqualTo(500);
	}

	@Test
	void closesTheConnectionWhenAServletFailsAfterCommitting() throws IOException {
		try (Wire wire = Wire.open(this.server.port())) {
			wire.send("GET /app/fail/after-commit HTTP/1.1\r\nHost: x\r\n\r\n");
			Wire.Reply head = wire.readHeadOnly();
			assertThat(head.status).isEqualTo(200);
			assertThat(head.header("Transfer-Encoding")).isEqualTo("chunked");
			assertThat(wire.readLine()).isEqualTo("7");
			assertThat(wire.readLine()).isEqualTo("partial");
			// no last chunk: the body is cut short and the connection closes
			assertThat(wire.closedByServer()).isTrue();
		}
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			/app/buffer/small    | length  | 100
			/app/buffer/large    | chunked | 10000
			/app/buffer/declared | length  | 3000
			""")
	void framesABodyThatFitsTheBufferWithItsLengthAndALargerOneChunked(String path, String framing, int length)
			throws IOException {
		Wire.Reply reply = get(path);
		assertThat(reply.framing).isEqualTo(framing);
		assertThat(reply.body).hasSize(length);
	}

	@Test
	void flushBufferCommitsTheResponse() throws IOException {
		Wire.Reply reply = get("/app/buffer/flush");
		assertThat(reply.framing).isEqualTo("chunked");
		assertThat(reply.text()).isEqualTo("early committed false/true");
	}

	@Test
	void resetClearsStatusHeadersAndBodyAndResetBufferOnlyTheBody() throws IOException {
		Wire.Reply reset = get("/app/buffer/reset");
		assertThat(reset.status).isEqualTo(200);
		assertThat(reset.header("X-Dropped")).isNull();
		assertThat(reset.header("X-Kept")).isEqualTo("1");
		assertThat(reset.text()).isEqualTo("kept");
		Wire.Reply resetBuffer = get("/app/buffer/reset-buffer");
		assertThat(resetBuffer.status).isEqualTo(202);
		assertThat(resetBuffer.header("X-Kept")).isEqualTo("1");
		assertThat(resetBuffer.text()).isEqualTo("kept");
		assertThat(get("/app/buffer/reset-after-commit").text()).isEqualTo("sent reset refused");
	}

	@Test
	void answersHeadWithTheHeadersOfGetAndNoBody() throws IOException {
		try (Wire wire = Wire.open(this.server.port())) {
			Wire.Reply head = wire.send("HEAD /app/head HTTP/1.1\r\nHost: x\r\n\r\n").readHead();
			assertThat(head.status).isEqualTo(200);
			assertThat(head.header("Content-Length")).isEqualTo("5000");
			// the connection carries on: the next response starts right after the head
			Wire.Reply next = wire.send("GET /app/head HTTP/1.1\r\nHost: x\r\n\r\n").read();
			assertThat(next.body).hasSize(5000);
		}
	}

	@Test
	void closesAfterAnAnswerToABodyWhoseFramingIsLost() throws IOException {
		try (Wire wire = Wire.open(this.server.port())) {
			Wire.Reply reply = wire.send("POST /app/swallow HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
					+ "zz\r\nhello\r\n0\r\n\r\nGET /app/exact HTTP/1.1\r\nHost: x\r\n\r\n").read();
			// the socket models stream the body, so the servlet answers; the event loop refuses it first
			assertThat(reply.status).isIn(200, 400);
			if (reply.status == 200) {
				assertThat(reply.text()).isEqualTo("caught");
			}
			assertThat(reply.header("Connection")).isEqualTo("close");
			// and what followed the broken chunk is never read as a request
			assertThat(wire.closedByServer()).isTrue();
		}
	}

	@Test
	void redirectsToResolvedLocations() throws IOException {
		// absolute, as sendRedirect requires of the container, from the request's own host
		assertThat(get("/app/redirect/a/b?to=c").header("Location")).isEqualTo("http://localhost/app/redirect/a/c");
		assertThat(get("/app/redirect/a/b?to=../d?q=1").header("Location"))
			.isEqualTo("http://localhost/app/redirect/d?q=1");
		assertThat(get("/app/redirect/a/b?to=/elsewhere").header("Location")).isEqualTo("http://localhost/elsewhere");
		assertThat(get("/app/redirect/a/b?to=//other.example/z").header("Location"))
			.isEqualTo("http://other.example/z");
		Wire.Reply withPort = Wire.exchange(this.server.port(),
				"GET /app/redirect/a/b?to=c HTTP/1.1\r\nHost: shop.example:8443\r\n\r\n");
		assertThat(withPort.header("Location")).isEqualTo("http://shop.example:8443/app/redirect/a/c");
		Wire.Reply absolute = get("/app/redirect/x?to=http://example.com/y");
		assertThat(absolute.status).isEqualTo(302);
		assertThat(absolute.header("Location")).isEqualTo("http://example.com/y");
		assertThat(absolute.body).isEmpty();
	}

	@Test
	void keepsTheConnectionAcrossServletResponses() throws IOException {
		try (Wire wire = Wire.open(this.server.port())) {
			for (int i = 0; i < 3; i++) {
				Wire.Reply reply = wire.send("GET /app/exact HTTP/1.1\r\nHost: x\r\n\r\n").read();
				assertThat(reply.status).isEqualTo(200);
				assertThat(reply.closes()).isFalse();
			}
		}
	}

	@Test
	void decodesQueryParametersAsUtf8AndFormBodiesInTheRequestCharset() throws IOException {
		assertThat(get("/app/params?a=1&b=%E2%82%AC+x&a=2&empty&c=").text()).isEqualTo("a=1,2;b=€ x;empty=;c=;");
		String form = "q=caf%E9&r=%26";
		Wire.Reply latin = Wire.exchange(this.server.port(), "POST /app/params?a=query HTTP/1.1\r\nHost: x\r\n"
				+ "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + form.length() + "\r\n\r\n"
				+ form);
		assertThat(latin.text()).isEqualTo("a=query;q=café;r=&;");
		String utf8 = "q=caf%C3%A9";
		Wire.Reply declared = Wire.exchange(this.server.port(), "POST /app/params HTTP/1.1\r\nHost: x\r\n"
				+ "Content-Type: application/x-www-form-urlencoded; charset=UTF-8\r\nContent-Length: " + utf8.length()
				+ "\r\n\r\n" + utf8);
		assertThat(declared.text()).isEqualTo("q=café;");
		Wire.Reply set = Wire.exchange(this.server.port(), "POST /app/params HTTP/1.1\r\nHost: x\r\nX-Encoding: UTF-8\r\n"
				+ "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + utf8.length() + "\r\n\r\n"
				+ utf8);
		assertThat(set.text()).isEqualTo("q=café;");
	}

	@Test
	void refusesAFormLargerThanTheLimitWith413() throws IOException {
		ServletDeployment.Builder small = ServletDeployment.builder()
			.contentLimits(new ContentLimits(1000, 10, 200, 50, 512))
			.initializer((context) -> context.addServlet("params", Servlets.of(AbstractServletIT::params))
				.addMapping("/"));
		try (ServletServer limited = ServletServer.start(model(), small)) {
			String form = "a=0123456789";
			Wire.Reply reply = Wire.exchange(limited.port(), "POST / HTTP/1.1\r\nHost: x\r\n"
					+ "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: " + form.length() + "\r\n\r\n"
					+ form);
			assertThat(reply.status).isEqualTo(413);
		}
		catch (ServletException ex) {
			throw new AssertionError(ex);
		}
	}

	@Test
	void parsesCookiesAndWritesSetCookieWithSameSite() throws IOException {
		Wire.Reply reply = Wire.exchange(this.server.port(), "GET /app/cookies HTTP/1.1\r\nHost: x\r\n"
				+ "Cookie: a=1; b=\"quoted\"; $Version=1; bad name=x;c=\r\nCookie: d=4\r\n\r\n");
		assertThat(reply.text()).isEqualTo("a=1;b=quoted;c=;d=4;");
		List<String> cookies = reply.headers("Set-Cookie");
		assertThat(cookies).hasSize(2);
		assertThat(cookies.get(0)).startsWith("flavour=oat; ").contains("Path=/app", "Max-Age=60", "HttpOnly",
				"Expires=");
		assertThat(cookies.get(1)).isEqualTo("strict=1; SameSite=Strict");
	}

	@Test
	void keepsASessionAcrossRequestsAndRotatesItsId() throws IOException {
		Wire.Reply put = get("/app/session/put?value=blue");
		assertThat(put.text()).isEqualTo("put true");
		String cookie = put.header("Set-Cookie");
		assertThat(cookie).startsWith("JSESSIONID=").contains("Path=/app", "HttpOnly", "SameSite=Lax");
		String id = cookie.substring("JSESSIONID=".length(), cookie.indexOf(';'));
		assertThat(withCookie("/app/session/get", id).text()).isEqualTo("got blue new=false");
		Wire.Reply rotated = withCookie("/app/session/rotate", id);
		assertThat(rotated.text()).isEqualTo("rotated true true");
		String next = rotated.header("Set-Cookie").substring("JSESSIONID=".length(),
				rotated.header("Set-Cookie").indexOf(';'));
		assertThat(withCookie("/app/session/peek", id).text()).isEqualTo("peek none requested=false");
		assertThat(withCookie("/app/session/peek", next).text()).isEqualTo("peek blue requested=true");
		assertThat(withCookie("/app/session/invalidate", next).text()).isEqualTo("invalidated true");
		assertThat(withCookie("/app/session/peek", next).text()).isEqualTo("peek none requested=false");
	}

	private Wire.Reply withCookie(String path, String sessionId) throws IOException {
		return Wire.exchange(this.server.port(), "GET " + path + " HTTP/1.1\r\nHost: x\r\nCookie: JSESSIONID="
				+ sessionId + "\r\n\r\n");
	}

	@Test
	void expiresIdleSessionsOffTheRequestPathAndTellsTheListeners() throws IOException, ServletException {
		List<String> events = new java.util.concurrent.CopyOnWriteArrayList<>();
		ServletDeployment.Builder sessions = ServletDeployment.builder()
			.sessionSweepInterval(java.time.Duration.ofMillis(50))
			.initializer((context) -> {
				context.addListener(new jakarta.servlet.http.HttpSessionListener() {

					@Override
					public void sessionCreated(jakarta.servlet.http.HttpSessionEvent event) {
						events.add("created");
					}

					@Override
					public void sessionDestroyed(jakarta.servlet.http.HttpSessionEvent event) {
						events.add("destroyed " + event.getSession().getAttribute("value"));
					}

				});
				context.addServlet("short", Servlets.of((request, response) -> {
					jakarta.servlet.http.HttpSession session = request.getSession();
					session.setMaxInactiveInterval(1);
					session.setAttribute("value", "kept until expiry");
				})).addMapping("/");
			});
		try (ServletServer server = ServletServer.start(model(), sessions)) {
			Wire.Reply reply = Wire.exchange(server.port(), "GET / HTTP/1.1\r\nHost: x\r\n\r\n");
			assertThat(reply.header("Set-Cookie")).startsWith("JSESSIONID=");
			Await.until(() -> events.size() == 2, () -> "events: " + events);
			assertThat(events).containsExactly("created", "destroyed kept until expiry");
		}
	}

	@Test
	void readsMultipartFieldsAndFilesSpoolingLargePartsToTemporaryFiles() throws IOException {
		byte[] small = new byte[100];
		byte[] large = new byte[50_000];
		java.util.Arrays.fill(small, (byte) 1);
		java.util.Arrays.fill(large, (byte) 2);
		Multipart body = new Multipart()
			.field("field", "café €")
			.file("small", "a.txt", "text/plain", small)
			.file("large", "b.bin", "application/octet-stream", large)
			.field("note", "last");
		Wire.Reply reply = Wire.exchange(this.server.port(), body.request("/app/upload?q=1", false));
		assertThat(reply.status).isEqualTo(200);
		assertThat(reply.text()).isEqualTo("field=café € note=last query=1 | field null 9 null sum=1222 "
				+ "| small a.txt 100 text/plain sum=100 | large b.bin 50000 application/octet-stream sum=100000 "
				+ "| note null 4 null sum=436 | spooled=1");
		java.io.File tempdir = (java.io.File) this.server.deployment().servletContext()
			.getAttribute(ServletContext.TEMPDIR);
		assertThat(spooled(tempdir)).isZero();
	}

	@Test
	void showsMultipartFieldsAsParametersAfterThePartsWereRead() throws IOException {
		Multipart body = new Multipart().field("field", "value").file("f", "a.txt", "text/plain", new byte[10]);
		Wire.Reply reply = Wire.exchange(this.server.port(), body.request("/app/upload-parts-first", false));
		assertThat(reply.text()).isEqualTo("2 parts, field=value");
	}

	@Test
	void readsAChunkedMultipartBody() throws IOException {
		Multipart body = new Multipart().field("field", "chunked").file("f", "c.txt", "text/plain", new byte[3000]);
		Wire.Reply reply = Wire.exchange(this.server.port(), body.request("/app/upload", true));
		assertThat(reply.status).isEqualTo(200);
		assertThat(reply.text()).startsWith("field=chunked").contains("| f c.txt 3000 text/plain sum=0");
	}

	@ParameterizedTest
	@CsvSource(delimiter = '|', textBlock = """
			70000  | 1 | false
			70000  | 1 | true
			60000  | 4 | false
			60000  | 4 | true
			""")
	void refusesAMultipartRequestOverItsLimitsWith413(int fileSize, int files, boolean chunked) throws IOException {
		Multipart body = new Multipart();
		for (int i = 0; i < files; i++) {
			body.file("f" + i, "big" + i + ".bin", "application/octet-stream", new byte[fileSize]);
		}
		Wire.Reply reply = Wire.exchangeEarlyAnswer(this.server.port(), body.request("/app/upload", chunked));
		assertThat(reply.status).isEqualTo(413);
		java.io.File tempdir = (java.io.File) this.server.deployment().servletContext()
			.getAttribute(ServletContext.TEMPDIR);
		assertThat(spooled(tempdir)).isZero();
	}

	@Test
	void refusesAMalformedMultipartBodyWith400() throws IOException {
		String body = "--xyz\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\nno closing delimiter";
		Wire.Reply reply = Wire.exchange(this.server.port(), "POST /app/upload HTTP/1.1\r\nHost: x\r\n"
				+ "Content-Type: multipart/form-data; boundary=xyz\r\nContent-Length: " + body.length() + "\r\n\r\n"
				+ body);
		assertThat(reply.status).isEqualTo(400);
	}

	@Test
	void forwardsWithTheTargetsPathsForwardAttributesAndMergedParameters() throws IOException {
		Wire.Reply reply = get("/app/dispatch/forward?a=orig");
		assertThat(reply.header("X-Target")).isEqualTo("set by target");
		assertThat(reply.framing).isEqualTo("length");
		assertThat(reply.text()).isEqualTo("target FORWARD context=/app servlet=/target info=/f x match=PATH "
				+ "pattern=/target/* value=f x uri=/app/target/f%20x trace=REQUEST,FORWARD a=fwd,orig "
				+ "forwarded-uri=/app/dispatch/forward forwarded-servlet=/dispatch included-uri=null included-info=null");
		assertThat(get("/app/dispatch/relative").text()).startsWith("target FORWARD context=/app servlet=/target "
				+ "info=/rel");
		assertThat(get("/app/dispatch/named").text()).startsWith("target FORWARD context=/app servlet=/dispatch "
				+ "info=/named").contains("forwarded-uri=null");
	}

	@Test
	void includesTheTargetsBodyButNotItsHeaders() throws IOException {
		Wire.Reply reply = get("/app/dispatch/include?a=orig");
		assertThat(reply.header("X-Outer")).isEqualTo("1");
		assertThat(reply.header("X-Target")).isNull();
		assertThat(reply.text()).isEqualTo("before|target INCLUDE context=/app servlet=/dispatch info=/include "
				+ "match=PATH pattern=/dispatch/* value=include uri=/app/dispatch/include trace=REQUEST,INCLUDE "
				+ "a=inc,orig forwarded-uri=null forwarded-servlet=null included-uri=/app/target/inc "
				+ "included-info=/inc|after");
	}

	@Test
	void readsHeadersAddressesAndTheHostField() throws IOException {
		ServletDeployment.Builder info = ServletDeployment.builder().initializer((context) -> context
			.addServlet("info", Servlets.of((request, response) -> Servlets.write(response, request.getMethod() + " "
					+ request.getProtocol() + " " + request.getScheme() + "://" + request.getServerName() + ":"
					+ request.getServerPort() + " url=" + request.getRequestURL() + " remote=" + request.getRemoteAddr()
					+ " local=" + request.getLocalPort() + " multi=" + java.util.Collections.list(request.getHeaders("X-Multi"))
					+ " int=" + request.getIntHeader("X-Int") + " date=" + request.getDateHeader("If-Modified-Since")
					+ " locale=" + request.getLocale() + " length=" + request.getContentLength())))
			.addMapping("/"));
		try (ServletServer plain = ServletServer.start(model(), info)) {
			Wire.Reply reply = Wire.exchange(plain.port(), "GET /x?y HTTP/1.1\r\nHost: example.org:8443\r\n"
					+ "X-Multi: 1\r\nX-Multi: 2\r\nX-Int: 42\r\nIf-Modified-Since: Sun, 06 Nov 1994 08:49:37 GMT\r\n"
					+ "Accept-Language: fr;q=0.5, de-CH, en;q=0.8\r\n\r\n");
			assertThat(reply.text()).isEqualTo("GET HTTP/1.1 http://example.org:8443 url=http://example.org:8443/x "
					+ "remote=127.0.0.1 local=" + plain.port() + " multi=[1, 2] int=42 date=784111777000 locale=de_CH "
					+ "length=-1");
		}
		catch (ServletException ex) {
			throw new AssertionError(ex);
		}
	}

	Wire.Reply get(String path) throws IOException {
		return Wire.exchange(this.server.port(), "GET " + path + " HTTP/1.1\r\nHost: localhost\r\n\r\n");
	}

	List<String> lines(Wire.Reply reply) {
		return List.of(reply.text().split("\n"));
	}

}
