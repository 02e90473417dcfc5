package dev.ariadne.servlet;

import java.io.EOFException;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletException;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import dev.ariadne.server.IoModel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The default servlet over real sockets, as Tomcat's and Jetty's serve a document root: files
 * with their type, length and validators, {@code HEAD}, conditional requests, byte ranges,
 * directories and their welcome file, the paths that must never reach a file, and the default
 * servlet behind an application servlet on {@code /} that forwards to it by name (Spring MVC's
 * {@code DefaultServletHttpRequestHandler}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractDefaultServletIT {

	private static final String TEXT = "hello world 0123456789\n";

	/** Modification time of every file, with milliseconds: the dates drop them, the tag keeps them. */
	private static final long MODIFIED = 1_700_000_000_500L;

	private static final String ETAG = "W/\"23-1700000000500\"";

	private Path directory;

	private Path root;

	private ServletServer files;

	private ServletServer dispatcher;

	private ServletServer withoutDefault;

	private final AtomicReference<Set<String>> conflicts = new AtomicReference<>();

	private final AtomicReference<String> defaultMappings = new AtomicReference<>();

	abstract IoModel model();

	@BeforeAll
	void start() throws IOException, ServletException {
		ServletServer.assumeSupported(model());
		this.directory = Files.createTempDirectory("default-servlet-");
		this.root = Files.createDirectories(this.directory.resolve("root"));
		Files.writeString(this.directory.resolve("outside.txt"), "SECRET outside the root");
		file("a.txt", TEXT);
		file("style.xxcss", "p{}");
		file("noextension", "plain");
		file("dir/index.html", "<h1>index</h1>");
		Files.createDirectories(this.root.resolve("dir/sub"));
		file("errors/not-found.html", "<p>not found</p>");
		file("WEB-INF/web.xml", "SECRET web.xml");
		file("META-INF/MANIFEST.MF", "SECRET manifest");
		Files.createSymbolicLink(this.root.resolve("link-out.txt"), this.directory.resolve("outside.txt"));
		Files.createSymbolicLink(this.root.resolve("link-web-inf.xml"), this.root.resolve("WEB-INF/web.xml"));
		Files.createSymbolicLink(this.root.resolve("link-in.txt"), this.root.resolve("a.txt"));
		this.files = ServletServer.start(model(), ServletDeployment.builder()
			.documentRoot(this.root)
			.defaultServlet()
			.mimeMapping("xxcss", "text/css")
			.errorPage(404, "/errors/not-found.html")
			.initializer((context) -> context.addServlet("include", Servlets.of((request, response) -> {
				boolean writer = request.getParameter("writer") != null;
				if (writer) {
					response.getWriter().print("[");
				}
				else {
					response.getOutputStream().print("[");
				}
				// null for a path that leaves the context
				RequestDispatcher target = request.getRequestDispatcher(request.getParameter("path"));
				if (target != null) {
					target.include(request, response);
				}
				if (writer) {
					response.getWriter().print("]");
				}
				else {
					response.getOutputStream().print("]");
				}
			})).addMapping("/include")));
		this.dispatcher = ServletServer.start(model(), ServletDeployment.builder()
			.documentRoot(this.root)
			.defaultServlet()
			.initializer((context) -> {
				// what Spring MVC's DispatcherServlet and DefaultServletHttpRequestHandler do
				this.conflicts.set(context.addServlet("dispatcher", Servlets.of((request, response) -> {
					if (request.getServletPath().startsWith("/api/")) {
						Servlets.write(response, "api");
						return;
					}
					RequestDispatcher named = request.getServletContext().getNamedDispatcher("default");
					named.forward(request, response);
				})).addMapping("/"));
				this.defaultMappings.set(String.valueOf(context.getServletRegistration("default").getMappings()));
			}));
		this.withoutDefault = ServletServer.start(model(), ServletDeployment.builder().documentRoot(this.root));
	}

	private void file(String name, String content) throws IOException {
		Path file = this.root.resolve(name);
		Files.createDirectories(file.getParent());
		Files.writeString(file, content);
		Files.setLastModifiedTime(file, FileTime.fromMillis(MODIFIED));
	}

	@AfterAll
	void stop() throws IOException {
		for (ServletServer server : new ServletServer[] { this.files, this.dispatcher, this.withoutDefault }) {
			if (server != null) {
				server.close();
			}
		}
		if (this.directory != null) {
			try (Stream<Path> paths = Files.walk(this.directory)) {
				paths.sorted(Comparator.reverseOrder()).forEach((path) -> path.toFile().delete());
			}
		}
	}

	private Wire.Reply get(ServletServer server, String target, String... headers) throws IOException {
		return Wire.exchange(server.port(), request("GET", target, headers));
	}

	private static String request(String method, String target, String... headers) {
		StringBuilder request = new StringBuilder(method).append(' ').append(target)
			.append(" HTTP/1.1\r\nHost: localhost\r\n");
		for (String header : headers) {
			request.append(header).append("\r\n");
		}
		return request.append("\r\n").toString();
	}

	@Test
	void servesAFileWithItsTypeLengthAndValidators() throws IOException {
		Wire.Reply reply = get(this.files, "/a.txt");
		assertThat(reply.status).isEqualTo(200);
		assertThat(reply.text()).isEqualTo(TEXT);
		assertThat(reply.header("Content-Type")).isEqualTo("text/plain");
		assertThat(reply.header("Content-Length")).isEqualTo("23");
		assertThat(reply.header("Accept-Ranges")).isEqualTo("bytes");
		assertThat(reply.header("ETag")).isEqualTo(ETAG);
		assertThat(reply.header("Last-Modified")).isEqualTo("Tue, 14 Nov 2023 22:13:20 GMT");
	}

	@Test
	void typesAFileByTheContextsMimeMappingsAndLeavesAnUnknownOneUntyped() throws IOException {
		Wire.Reply css = get(this.files, "/style.xxcss");
		assertThat(css.status).isEqualTo(200);
		assertThat(css.header("Content-Type")).isEqualTo("text/css");
		Wire.Reply unknown = get(this.files, "/noextension");
		assertThat(unknown.status).isEqualTo(200);
		assertThat(unknown.header("Content-Type")).isNull();
		assertThat(unknown.text()).isEqualTo("plain");
	}

	@Test
	void answersHeadWithTheHeadersOfGetAndNoBody() throws IOException {
		try (Wire wire = Wire.open(this.files.port())) {
			Wire.Reply head = wire.send(request("HEAD", "/a.txt")).readHead();
			assertThat(head.status).isEqualTo(200);
			assertThat(head.header("Content-Length")).isEqualTo("23");
			assertThat(head.header("ETag")).isEqualTo(ETAG);
			assertThat(head.header("Content-Type")).isEqualTo("text/plain");
			// the connection carries no body after the head: the next answer is read whole
			Wire.Reply next = wire.send(request("HEAD", "/a.txt", "Range: bytes=0-1")).readHead();
			assertThat(next.status).as("HEAD ignores Range").isEqualTo(200);
			assertThat(wire.send(request("GET", "/a.txt")).read().text()).isEqualTo(TEXT);
		}
	}

	@Test
	void answersNotModifiedToAMatchingTagOrDate() throws IOException {
		Wire.Reply byTag = get(this.files, "/a.txt", "If-None-Match: \"x\", " + ETAG);
		assertThat(byTag.status).isEqualTo(304);
		assertThat(byTag.header("ETag")).isEqualTo(ETAG);
		assertThat(byTag.header("Content-Length")).isNull();
		assertThat(byTag.header("Content-Type")).isNull();
		assertThat(byTag.body).isEmpty();
		assertThat(get(this.files, "/a.txt", "If-None-Match: *").status).isEqualTo(304);
		assertThat(get(this.files, "/a.txt", "If-None-Match: \"other\"").status).isEqualTo(200);
		Wire.Reply byDate = get(this.files, "/a.txt", "If-Modified-Since: Tue, 14 Nov 2023 22:13:20 GMT");
		assertThat(byDate.status).isEqualTo(304);
		assertThat(byDate.body).isEmpty();
		Wire.Reply older = get(this.files, "/a.txt", "If-Modified-Since: Tue, 14 Nov 2023 22:13:19 GMT");
		assertThat(older.status).isEqualTo(200);
		assertThat(older.text()).isEqualTo(TEXT);
		// If-None-Match decides alone when both are sent
		assertThat(get(this.files, "/a.txt", "If-None-Match: \"other\"",
				"If-Modified-Since: Tue, 14 Nov 2023 22:13:20 GMT").status).isEqualTo(200);
	}

	@Test
	void failsAPreconditionThatDoesNotHold() throws IOException {
		assertThat(get(this.files, "/a.txt", "If-Match: \"other\"").status).isEqualTo(412);
		// a weak tag never matches If-Match, which compares strongly
		assertThat(get(this.files, "/a.txt", "If-Match: " + ETAG).status).isEqualTo(412);
		assertThat(get(this.files, "/a.txt", "If-Match: *").status).isEqualTo(200);
		assertThat(get(this.files, "/a.txt", "If-Unmodified-Since: Tue, 14 Nov 2023 22:13:19 GMT").status)
			.isEqualTo(412);
		assertThat(get(this.files, "/a.txt", "If-Unmodified-Since: Tue, 14 Nov 2023 22:13:20 GMT").status)
			.isEqualTo(200);
	}

	@Test
	void servesOneRangeWithItsContentRange() throws IOException {
		Wire.Reply first = get(this.files, "/a.txt", "Range: bytes=0-4");
		assertThat(first.status).isEqualTo(206);
		assertThat(first.header("Content-Range")).isEqualTo("bytes 0-4/23");
		assertThat(first.header("Content-Length")).isEqualTo("5");
		assertThat(first.header("Content-Type")).isEqualTo("text/plain");
		assertThat(first.text()).isEqualTo("hello");
		Wire.Reply suffix = get(this.files, "/a.txt", "Range: bytes=-3");
		assertThat(suffix.header("Content-Range")).isEqualTo("bytes 20-22/23");
		assertThat(suffix.text()).isEqualTo("89\n");
		Wire.Reply open = get(this.files, "/a.txt", "Range: bytes=12-");
		assertThat(open.header("Content-Range")).isEqualTo("bytes 12-22/23");
		assertThat(open.text()).isEqualTo("0123456789\n");
		Wire.Reply beyond = get(this.files, "/a.txt", "Range: bytes=20-99");
		assertThat(beyond.header("Content-Range")).isEqualTo("bytes 20-22/23");
	}

	@Test
	void answersAnUnsatisfiableRangeWith416AndTheLength() throws IOException {
		Wire.Reply reply = get(this.files, "/a.txt", "Range: bytes=23-");
		assertThat(reply.status).isEqualTo(416);
		assertThat(reply.header("Content-Range")).isEqualTo("bytes */23");
		assertThat(reply.text()).doesNotContain(TEXT);
	}

	@Test
	void servesSeveralRangesAsMultipartByteranges() throws IOException {
		Wire.Reply reply = get(this.files, "/a.txt", "Range: bytes=0-4,-3");
		assertThat(reply.status).isEqualTo(206);
		String type = reply.header("Content-Type");
		assertThat(type).startsWith("multipart/byteranges; boundary=");
		String boundary = type.substring(type.indexOf('=') + 1);
		String expected = "--" + boundary + "\r\nContent-Type: text/plain\r\nContent-Range: bytes 0-4/23\r\n\r\nhello\r\n"
				+ "--" + boundary + "\r\nContent-Type: text/plain\r\nContent-Range: bytes 20-22/23\r\n\r\n89\n\r\n"
				+ "--" + boundary + "--\r\n";
		assertThat(reply.text()).isEqualTo(expected);
		assertThat(reply.header("Content-Length")).isEqualTo(Integer.toString(expected.length()));
		assertThat(reply.header("Content-Range")).isNull();
	}

	@Test
	void servesTheWholeFileForRangesItIgnores() throws IOException {
		for (String range : new String[] { "bytes=0-9,5-14", "bytes=5-1", "lines=0-1", "bytes=0-x" }) {
			Wire.Reply reply = get(this.files, "/a.txt", "Range: " + range);
			assertThat(reply.status).as(range).isEqualTo(200);
			assertThat(reply.text()).as(range).isEqualTo(TEXT);
		}
	}

	@Test
	void appliesARangeOnlyWhileIfRangeNamesTheFile() throws IOException {
		assertThat(get(this.files, "/a.txt", "Range: bytes=0-4", "If-Range: Tue, 14 Nov 2023 22:13:20 GMT").status)
			.isEqualTo(206);
		assertThat(get(this.files, "/a.txt", "Range: bytes=0-4", "If-Range: Tue, 14 Nov 2023 22:13:19 GMT").status)
			.isEqualTo(200);
		// a weak tag is no validator for If-Range
		assertThat(get(this.files, "/a.txt", "Range: bytes=0-4", "If-Range: " + ETAG).status).isEqualTo(200);
	}

	@Test
	void redirectsADirectoryToItsSlashAndServesItsWelcomeFile() throws IOException {
		Wire.Reply redirect = get(this.files, "/dir?x=1");
		assertThat(redirect.status).isEqualTo(302);
		assertThat(redirect.header("Location")).endsWith("/dir/?x=1");
		Wire.Reply welcome = get(this.files, "/dir/");
		assertThat(welcome.status).isEqualTo(200);
		assertThat(welcome.header("Content-Type")).isEqualTo("text/html");
		assertThat(welcome.text()).isEqualTo("<h1>index</h1>");
	}

	@Test
	void neverListsADirectory() throws IOException {
		assertThat(get(this.files, "/dir/sub/").status).isEqualTo(404);
		assertThat(get(this.files, "/").status).isEqualTo(404);
		assertThat(get(this.files, "/dir/sub").status).isEqualTo(302);
	}

	@ParameterizedTest(name = "{0} -> {1}")
	@CsvSource(delimiter = '|', textBlock = """
			/WEB-INF/web.xml              | 404
			/WEB-INF/                     | 404
			/WEB-INF                      | 404
			/web-inf/web.xml              | 404
			/%57EB-INF/web.xml            | 404
			/WEB-INF;x=1/web.xml          | 404
			/dir/../WEB-INF/web.xml       | 404
			/./WEB-INF/web.xml            | 404
			//WEB-INF/web.xml             | 404
			/META-INF/MANIFEST.MF         | 404
			/meta-inf/MANIFEST.MF         | 404
			/link-out.txt                 | 404
			/link-web-inf.xml             | 404
			/../outside.txt               | 400
			/dir/../../outside.txt        | 400
			/%2e%2e/outside.txt           | 400
			/%2E%2E/outside.txt           | 400
			/.%2e/outside.txt             | 400
			/dir/..%2f..%2foutside.txt    | 400
			/%2e%2e%2foutside.txt         | 400
			/WEB-INF%2fweb.xml            | 400
			/dir%5c..%5c..%5coutside.txt  | 400
			/dir\\..\\..\\outside.txt     | 400
			/a.txt%00                     | 400
			/%C0%AE%C0%AE/outside.txt     | 400
			/include?path=/WEB-INF/web.xml | 200
			/include?path=/../outside.txt | 200
			""")
	void neverServesAFileOutsideTheRootOrUnderWebInfOrMetaInf(String target, int status) throws IOException {
		Wire.Reply reply = get(this.files, target);
		assertThat(reply.text()).doesNotContain("SECRET");
		assertThat(reply.status).isEqualTo(status);
	}

	@Test
	void followsALinkThatStaysInsideTheRoot() throws IOException {
		Wire.Reply reply = get(this.files, "/link-in.txt");
		assertThat(reply.status).isEqualTo(200);
		assertThat(reply.text()).isEqualTo(TEXT);
	}

	@Test
	void includesAFileIntoAnotherResponse() throws IOException {
		Wire.Reply reply = get(this.files, "/include?path=/a.txt");
		assertThat(reply.status).isEqualTo(200);
		assertThat(reply.text()).isEqualTo("[" + TEXT + "]");
		assertThat(get(this.files, "/include?path=/dir/index.html").text()).isEqualTo("[<h1>index</h1>]");
		Wire.Reply throughTheWriter = get(this.files, "/include?writer&path=/a.txt");
		assertThat(throughTheWriter.text()).isEqualTo("[" + TEXT + "]");
		assertThat(throughTheWriter.header("Content-Range")).isNull();
	}

	@Test
	void servesAnErrorPageWithItsStatusWhateverTheMethodAndConditions() throws IOException {
		Wire.Reply missing = get(this.files, "/missing.txt");
		assertThat(missing.status).isEqualTo(404);
		assertThat(missing.text()).isEqualTo("<p>not found</p>");
		assertThat(missing.header("Content-Type")).isEqualTo("text/html");
		Wire.Reply post = Wire.exchange(this.files.port(), request("POST", "/missing.txt", "Content-Length: 0"));
		assertThat(post.status).isEqualTo(404);
		assertThat(post.text()).isEqualTo("<p>not found</p>");
		Wire.Reply conditional = get(this.files, "/missing.txt", "If-None-Match: *", "Range: bytes=0-2");
		assertThat(conditional.status).isEqualTo(404);
		assertThat(conditional.text()).isEqualTo("<p>not found</p>");
		assertThat(conditional.header("ETag")).isNull();
	}

	@Test
	void allowsOnlyReadingMethods() throws IOException {
		Wire.Reply post = Wire.exchange(this.files.port(), request("POST", "/a.txt", "Content-Length: 0"));
		assertThat(post.status).isEqualTo(405);
		assertThat(post.header("Allow")).isEqualTo("GET, HEAD, OPTIONS");
		assertThat(Wire.exchange(this.files.port(), request("DELETE", "/a.txt")).status).isEqualTo(405);
		assertThat(Wire.exchange(this.files.port(), request("POST", "/missing", "Content-Length: 0")).status)
			.isEqualTo(404);
		Wire.Reply options = Wire.exchange(this.files.port(), request("OPTIONS", "/a.txt"));
		assertThat(options.status).isEqualTo(200);
		assertThat(options.header("Allow")).isEqualTo("GET, HEAD, OPTIONS");
	}

	@Test
	void answersAMissingFileWith404() throws IOException {
		assertThat(get(this.files, "/missing.txt").status).isEqualTo(404);
		assertThat(get(this.files, "/dir/missing/").status).isEqualTo(404);
	}

	@Test
	void servesNothingWithoutTheDefaultServlet() throws IOException {
		assertThat(get(this.withoutDefault, "/a.txt").status).isEqualTo(404);
		assertThat(get(this.withoutDefault, "/dir").status).isEqualTo(404);
	}

	@Test
	void givesSlashToAnApplicationServletAndServesWhatItForwardsByName() throws IOException {
		assertThat(this.conflicts.get()).isEmpty();
		assertThat(this.defaultMappings.get()).isEqualTo("[]");
		assertThat(get(this.dispatcher, "/api/x").text()).isEqualTo("api");
		Wire.Reply file = get(this.dispatcher, "/a.txt", "Range: bytes=0-4");
		assertThat(file.status).isEqualTo(206);
		assertThat(file.header("ETag")).isEqualTo(ETAG);
		assertThat(file.text()).isEqualTo("hello");
		assertThat(get(this.dispatcher, "/dir").header("Location")).endsWith("/dir/");
		assertThat(get(this.dispatcher, "/dir/").text()).isEqualTo("<h1>index</h1>");
		assertThat(get(this.dispatcher, "/a.txt", "If-None-Match: " + ETAG).status).isEqualTo(304);
		Wire.Reply webInf = get(this.dispatcher, "/WEB-INF/web.xml");
		assertThat(webInf.status).isEqualTo(404);
		assertThat(webInf.text()).doesNotContain("SECRET");
		assertThat(get(this.dispatcher, "/missing").status).isEqualTo(404);
	}

	@Test
	void cutsAFileThatGrowsWhileServedAtItsLengthWhenTheRequestBegan() throws IOException {
		Path big = bigFile("grows.bin");
		long length = Files.size(big);
		try (Wire wire = Wire.open(this.files.port())) {
			wire.send(request("GET", "/grows.bin"));
			Wire.Reply head = wire.readHeadOnly();
			assertThat(head.header("Content-Length")).isEqualTo(Long.toString(length));
			try (RandomAccessFile file = new RandomAccessFile(big.toFile(), "rw")) {
				file.setLength(2 * length);
			}
			assertThat(drain(wire, length)).isEqualTo(length);
			// the response ended where its length said: the connection serves the next request
			assertThat(wire.send(request("GET", "/a.txt")).read().text()).isEqualTo(TEXT);
		}
		finally {
			Files.delete(big);
		}
	}

	@Test
	void closesTheConnectionWhenAFileShrinksWhileServedAndServesOn() throws IOException {
		Path big = bigFile("shrinks.bin");
		long length = Files.size(big);
		try (Wire wire = Wire.open(this.files.port())) {
			wire.send(request("GET", "/shrinks.bin"));
			assertThat(wire.readHeadOnly().header("Content-Length")).isEqualTo(Long.toString(length));
			// the server waits for the client (back-pressure) with most of the file unread
			try (RandomAccessFile file = new RandomAccessFile(big.toFile(), "rw")) {
				file.setLength(1024);
			}
			assertThatExceptionOfType(EOFException.class).isThrownBy(() -> drain(wire, length));
		}
		finally {
			Files.delete(big);
		}
		assertThat(get(this.files, "/a.txt").text()).isEqualTo(TEXT);
	}

	/** A file far larger than the socket buffers, so that most of it is unread when it changes. */
	private Path bigFile(String name) throws IOException {
		Path big = this.root.resolve(name);
		byte[] block = new byte[1024 * 1024];
		for (int i = 0; i < block.length; i++) {
			block[i] = (byte) ('a' + i % 26);
		}
		try (var out = Files.newOutputStream(big)) {
			for (int i = 0; i < 32; i++) {
				out.write(block);
			}
		}
		return big;
	}

	/** Reads a body of a length, throwing {@link EOFException} if the connection ends before. */
	private static long drain(Wire wire, long length) throws IOException {
		byte[] buffer = new byte[64 * 1024];
		AtomicLong read = new AtomicLong();
		while (read.get() < length) {
			int count = wire.input().read(buffer, 0, (int) Math.min(buffer.length, length - read.get()));
			if (count < 0) {
				throw new EOFException("closed after " + read.get() + " of " + length + " bytes");
			}
			read.addAndGet(count);
		}
		return read.get();
	}

}
