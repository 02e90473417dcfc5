package dev.ariadne.servlet;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.DataFormatException;
import java.util.zip.GZIPInputStream;
import java.util.zip.Inflater;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

import dev.ariadne.server.IoModel;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code server.compression.*} over a real socket ({@link GzipCompressionFilter}): a body is
 * judged by its declared length, else by its size when it ends within the response's buffer,
 * and one that commits with its length unknown (flushed, or larger) is compressed, as Tomcat and
 * Jetty do; streamed bodies arrive as they are flushed; a non-blocking writer is compressed, told
 * to wait through the compressor, and holds no worker; a {@code HEAD} says what a {@code GET}
 * would get. One subclass per I/O model.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
abstract class AbstractCompressionIT {

	private static final int MIN = 1024;

	/** Far more than the socket buffers take even compressed: the writer must be told to wait. */
	private static final int NOISE = 32 * 1024 * 1024;

	private final AtomicInteger toldToWait = new AtomicInteger();

	private final CountDownLatch noiseStalled = new CountDownLatch(1);

	private final Semaphore eventsSeen = new Semaphore(0);

	private ServletServer server;

	abstract IoModel model();

	@BeforeAll
	void start() throws ServletException {
		GzipCompressionFilter filter = new GzipCompressionFilter(
				Set.of("text/plain", "text/html", "application/*+json"), List.of("LegacyBot.*"), MIN);
		this.server = ServletServer.start(model(), ServletDeployment.builder()
			.initializer(GzipCompressionFilter.initializer(filter))
			.initializer(this::register));
	}

	@AfterAll
	void stop() {
		if (this.server != null) {
			this.server.close();
		}
	}

	private void register(ServletContext context) {
		servlet(context, "/flushed", (request, response) -> {
			// what Boot checks as compressionWithoutContentSizeHeader: a short body, flushed
			response.setContentType("text/plain");
			ServletOutputStream out = response.getOutputStream();
			out.write("Hello World".getBytes(StandardCharsets.US_ASCII));
			out.flush();
		});
		servlet(context, "/unknown/*", (request, response) -> {
			response.setContentType("text/plain;charset=UTF-8");
			String body = text(Integer.parseInt(request.getPathInfo().substring(1)));
			for (int written = 0; written < body.length(); written += 100) {
				response.getWriter().write(body, written, Math.min(100, body.length() - written));
			}
		});
		servlet(context, "/known/*", (request, response) -> {
			response.setContentType("text/plain");
			int size = Integer.parseInt(request.getPathInfo().substring(1));
			response.setContentLength(size);
			response.getOutputStream().write(text(size).getBytes(StandardCharsets.US_ASCII));
		});
		servlet(context, "/declared/*", (request, response) -> {
			// a HEAD answered as Spring's resource handler does: the length, no body
			response.setContentType("text/html");
			int size = Integer.parseInt(request.getPathInfo().substring(1));
			response.setContentLengthLong(size);
			if (!request.getMethod().equals("HEAD")) {
				response.getOutputStream().write(text(size).getBytes(StandardCharsets.US_ASCII));
			}
		});
		servlet(context, "/streamed", (request, response) -> {
			response.setContentType("text/plain");
			ServletOutputStream out = response.getOutputStream();
			for (int i = 0; i < 3; i++) {
				out.write(("event " + i + "\n").getBytes(StandardCharsets.US_ASCII));
				out.flush();
				await(this.eventsSeen);
			}
		});
		servlet(context, "/typed", (request, response) -> {
			response.setContentType(request.getParameter("type"));
			response.getWriter().write(text(5000));
		});
		servlet(context, "/etag", (request, response) -> {
			response.setContentType("text/plain");
			response.setHeader("ETag", "\"v1\"");
			response.getWriter().write(text(5000));
		});
		servlet(context, "/partial", (request, response) -> {
			response.setStatus(206);
			response.setContentType("text/plain");
			response.setHeader("Content-Range", "bytes 0-4999/10000");
			response.getWriter().write(text(5000));
		});
		servlet(context, "/fails", (request, response) -> {
			response.setContentType("text/plain");
			response.getWriter().write(text(100));
			throw new IllegalStateException("failed after writing");
		});
		servlet(context, "/nio/*", (request, response) -> {
			response.setContentType("text/plain");
			String path = request.getPathInfo();
			AsyncContext async = request.startAsync();
			async.setTimeout(0);
			ServletOutputStream out = response.getOutputStream();
			// set before any byte, as Spring's servlet adapter does
			out.setWriteListener(new NoiseWriter(out, async, path));
		});
	}

	/** Writes its body only while the stream is ready, as a non-blocking writer must. */
	private final class NoiseWriter implements WriteListener {

		private final ServletOutputStream out;

		private final AsyncContext async;

		private final String path;

		private final Random random = new Random(42);

		private int written;

		NoiseWriter(ServletOutputStream out, AsyncContext async, String path) {
			this.out = out;
			this.async = async;
			this.path = path;
		}

		@Override
		public void onWritePossible() throws IOException {
			if (this.path.equals("/small")) {
				this.out.write(text(100).getBytes(StandardCharsets.US_ASCII));
				this.async.complete();
				return;
			}
			if (this.path.equals("/flushed")) {
				this.out.write("Hello World".getBytes(StandardCharsets.US_ASCII));
				this.out.flush();
				this.async.complete();
				return;
			}
			while (this.written < NOISE) {
				if (!this.out.isReady()) {
					AbstractCompressionIT.this.toldToWait.incrementAndGet();
					AbstractCompressionIT.this.noiseStalled.countDown();
					return;
				}
				byte[] piece = noise(this.random, 8192);
				this.out.write(piece);
				this.written += piece.length;
			}
			this.async.complete();
		}

		@Override
		public void onError(Throwable failure) {
			this.async.complete();
		}

	}

	@Test
	void compressesAShortBodyFlushedBeforeItsEndSinceItsLengthIsUnknown() throws IOException {
		Wire.Reply reply = get("/flushed", "Accept-Encoding: gzip");
		assertThat(reply.status).isEqualTo(200);
		assertThat(reply.header("Content-Encoding")).isEqualTo("gzip");
		assertThat(reply.framing).isEqualTo("chunked");
		assertThat(gunzip(reply.body)).isEqualTo("Hello World");
	}

	@Test
	void compressesABodyOfUnknownLengthThatOutgrowsTheMinimum() throws IOException {
		Wire.Reply reply = get("/unknown/20000", "Accept-Encoding: gzip");
		assertThat(reply.header("Content-Encoding")).isEqualTo("gzip");
		assertCompressedLength(reply);
		assertThat(reply.headers("Vary")).containsExactly("Accept-Encoding");
		assertThat(gunzip(reply.body)).isEqualTo(text(20000));
		assertThat(reply.body.length).isLessThan(20000 / 5);
	}

	@Test
	void sendsABodyOfUnknownLengthThatEndsUnderTheMinimumPlainWithItsLength() throws IOException {
		Wire.Reply reply = get("/unknown/1000", "Accept-Encoding: gzip");
		assertThat(reply.header("Content-Encoding")).isNull();
		assertThat(reply.header("Content-Length")).isEqualTo("1000");
		assertThat(reply.header("Vary")).isNull();
		assertThat(reply.text()).isEqualTo(text(1000));
	}

	@Test
	void judgesADeclaredLengthAgainstTheMinimum() throws IOException {
		Wire.Reply small = get("/known/1023", "Accept-Encoding: gzip");
		assertThat(small.header("Content-Encoding")).isNull();
		assertThat(small.header("Content-Length")).isEqualTo("1023");
		assertThat(small.text()).isEqualTo(text(1023));
		Wire.Reply large = get("/known/1024", "Accept-Encoding: gzip");
		assertThat(large.header("Content-Encoding")).isEqualTo("gzip");
		assertCompressedLength(large);
		assertThat(gunzip(large.body)).isEqualTo(text(1024));
	}

	@Test
	void deliversEachFlushedPieceOfAStreamedBodyBeforeTheNext() throws Exception {
		try (Wire wire = Wire.open(this.server.port())) {
			wire.send("GET /streamed HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n");
			Wire.Reply head = wire.readHeadOnly();
			assertThat(head.header("Content-Encoding")).isEqualTo("gzip");
			assertThat(head.header("Transfer-Encoding")).isEqualTo("chunked");
			ChunkedGunzip body = new ChunkedGunzip(wire);
			for (int i = 0; i < 3; i++) {
				// the servlet writes the next event only once this one was decoded here
				assertThat(body.readUntil("event " + i + "\n")).endsWith("event " + i + "\n");
				this.eventsSeen.release();
			}
			assertThat(body.readToEnd()).isEqualTo("event 0\nevent 1\nevent 2\n");
		}
	}

	@Test
	void compressesANonBlockingWriterThatIsToldToWaitThroughTheCompressor() throws Exception {
		try (Wire wire = Wire.open(this.server.port())) {
			wire.send("GET /nio/noise HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n");
			// the client reads nothing yet: the compressed body fills the socket and the queue
			assertThat(this.noiseStalled.await(20, TimeUnit.SECONDS)).as("the writer was told to wait").isTrue();
			if (model() != IoModel.BLOCKING) {
				Await.until(() -> this.server.server().stats().pool().busyWorkers() == 0,
						() -> "busy workers " + this.server.server().stats().pool().busyWorkers());
			}
			Wire.Reply reply = wire.read();
			assertThat(reply.status).isEqualTo(200);
			assertThat(reply.header("Content-Encoding")).isEqualTo("gzip");
			byte[] body = gunzipBytes(reply.body);
			assertThat(body.length).isEqualTo(NOISE);
			Random random = new Random(42);
			for (int at = 0; at < NOISE; at += 8192) {
				byte[] expected = noise(random, 8192);
				for (int i = 0; i < expected.length; i++) {
					if (body[at + i] != expected[i]) {
						throw new AssertionError("body differs at byte " + (at + i));
					}
				}
			}
			assertThat(this.toldToWait.get()).isPositive();
		}
	}

	@Test
	void compressesANonBlockingWriterThatFlushesAShortBody() throws IOException {
		// what Spring's servlet adapter does for a WebFlux body: write, flush, complete
		Wire.Reply reply = get("/nio/flushed", "Accept-Encoding: gzip");
		assertThat(reply.header("Content-Encoding")).isEqualTo("gzip");
		assertThat(gunzip(reply.body)).isEqualTo("Hello World");
	}

	@Test
	void sendsANonBlockingWritersShortBodyPlainWithItsLength() throws IOException {
		Wire.Reply reply = get("/nio/small", "Accept-Encoding: gzip");
		assertThat(reply.header("Content-Encoding")).isNull();
		assertThat(reply.header("Content-Length")).isEqualTo("100");
		assertThat(reply.text()).isEqualTo(text(100));
	}

	@Test
	void answersAHeadWithTheHeadOfTheGet() throws IOException {
		try (Wire wire = Wire.open(this.server.port())) {
			Wire.Reply unknown = head(wire, "/unknown/20000");
			assertThat(unknown.status).isEqualTo(200);
			assertThat(unknown.header("Content-Encoding")).isEqualTo("gzip");
			assertThat(unknown.headers("Vary")).containsExactly("Accept-Encoding");
			// the compressed body fits the container's buffer: its length, the GET's too
			assertThat(unknown.header("Content-Length"))
				.isEqualTo(get("/unknown/20000", "Accept-Encoding: gzip").header("Content-Length"));
			Wire.Reply declared = head(wire, "/declared/5000");
			assertThat(declared.header("Content-Encoding")).as("a length declared without a body").isEqualTo("gzip");
			assertThat(declared.header("Content-Length")).as("not that of an empty gzip member").isNull();
			Wire.Reply small = head(wire, "/declared/100");
			assertThat(small.header("Content-Encoding")).isNull();
			assertThat(small.header("Content-Length")).isEqualTo("100");
			Wire.Reply known = head(wire, "/known/100");
			assertThat(known.header("Content-Length")).isEqualTo("100");
			// the connection is still in step: the next answer is the GET's
			wire.send("GET /declared/5000 HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n");
			Wire.Reply get = wire.read();
			assertThat(get.header("Content-Encoding")).isEqualTo("gzip");
			assertThat(gunzip(get.body)).isEqualTo(text(5000));
		}
	}

	@Test
	void leavesClientsWithoutGzipAloneButTellsCachesTheAnswerVaries() throws IOException {
		Wire.Reply plain = get("/unknown/20000");
		assertThat(plain.header("Content-Encoding")).isNull();
		assertThat(plain.text()).isEqualTo(text(20000));
		assertThat(plain.headers("Vary")).containsExactly("Accept-Encoding");
		Wire.Reply refused = get("/known/5000", "Accept-Encoding: gzip;q=0, identity");
		assertThat(refused.header("Content-Encoding")).isNull();
		assertThat(refused.header("Content-Length")).isEqualTo("5000");
		assertThat(refused.headers("Vary")).containsExactly("Accept-Encoding");
		Wire.Reply small = get("/known/100");
		assertThat(small.header("Vary")).as("no client would get it compressed").isNull();
		Wire.Reply excluded = get("/unknown/20000", "Accept-Encoding: gzip", "User-Agent: LegacyBot/2.1");
		assertThat(excluded.header("Content-Encoding")).isNull();
		assertThat(excluded.text()).isEqualTo(text(20000));
	}

	@Test
	void matchesMediaTypesIgnoringParametersAndByFamily() throws IOException {
		Wire.Reply problem = get("/typed?type=application/problem%2Bjson;charset=UTF-8", "Accept-Encoding: gzip");
		assertThat(problem.header("Content-Encoding")).isEqualTo("gzip");
		Wire.Reply html = get("/typed?type=TEXT/HTML;%20charset=utf-8", "Accept-Encoding: gzip");
		assertThat(html.header("Content-Encoding")).isEqualTo("gzip");
		Wire.Reply png = get("/typed?type=image/png", "Accept-Encoding: gzip");
		assertThat(png.header("Content-Encoding")).isNull();
		assertThat(png.headers("Vary")).isEmpty();
		Wire.Reply json = get("/typed?type=application/json", "Accept-Encoding: gzip");
		assertThat(json.header("Content-Encoding")).as("not configured").isNull();
	}

	@Test
	void weakensAStrongEtagOfACompressedBody() throws IOException {
		Wire.Reply reply = get("/etag", "Accept-Encoding: gzip");
		assertThat(reply.header("Content-Encoding")).isEqualTo("gzip");
		assertThat(reply.header("ETag")).isEqualTo("W/\"v1\"");
		assertThat(get("/etag").header("ETag")).isEqualTo("\"v1\"");
	}

	@Test
	void neverCompressesPartialContent() throws IOException {
		Wire.Reply reply = get("/partial", "Accept-Encoding: gzip");
		assertThat(reply.status).isEqualTo(206);
		assertThat(reply.header("Content-Encoding")).isNull();
		assertThat(reply.text()).isEqualTo(text(5000));
	}

	@Test
	void answersAFailureWithAPlainErrorPageNotTheHeldBytes() throws IOException {
		Wire.Reply reply = get("/fails", "Accept-Encoding: gzip");
		assertThat(reply.status).isEqualTo(500);
		assertThat(reply.header("Content-Encoding")).isNull();
		assertThat(reply.text()).doesNotContain(text(100));
	}

	/** A compressed body goes out chunked, or with its own length when it fits the buffer. */
	private static void assertCompressedLength(Wire.Reply reply) {
		String length = reply.header("Content-Length");
		if (length != null) {
			assertThat(Long.parseLong(length)).isEqualTo(reply.body.length);
		}
		else {
			assertThat(reply.framing).isEqualTo("chunked");
		}
	}

	private Wire.Reply get(String path, String... headers) throws IOException {
		return Wire.exchange(this.server.port(),
				"GET " + path + " HTTP/1.1\r\nHost: x\r\n" + String.join("", lines(headers)) + "\r\n");
	}

	private static Wire.Reply head(Wire wire, String path) throws IOException {
		return wire.send("HEAD " + path + " HTTP/1.1\r\nHost: x\r\nAccept-Encoding: gzip\r\n\r\n").readHead();
	}

	private static String[] lines(String... headers) {
		String[] lines = new String[headers.length];
		for (int i = 0; i < headers.length; i++) {
			lines[i] = headers[i] + "\r\n";
		}
		return lines;
	}

	private static void servlet(ServletContext context, String pattern, Servlets.Body body) {
		jakarta.servlet.ServletRegistration.Dynamic registration = context.addServlet(pattern, Servlets.of(body));
		registration.addMapping(pattern);
		registration.setAsyncSupported(true);
	}

	/** Text that compresses well, the same for a length. */
	static String text(int length) {
		StringBuilder text = new StringBuilder(length);
		for (int i = 0; text.length() < length; i++) {
			text.append("line ").append(i).append(" of a compressible body\n");
		}
		return text.substring(0, length);
	}

	/** Printable bytes that compress poorly (about 6 bits a byte). */
	private static byte[] noise(Random random, int length) {
		byte[] bytes = new byte[length];
		for (int i = 0; i < length; i++) {
			bytes[i] = (byte) ('0' + random.nextInt(64));
		}
		return bytes;
	}

	private static void await(Semaphore seen) {
		try {
			if (!seen.tryAcquire(20, TimeUnit.SECONDS)) {
				throw new IllegalStateException("the client never saw the event");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static String gunzip(byte[] bytes) throws IOException {
		return new String(gunzipBytes(bytes), StandardCharsets.UTF_8);
	}

	private static byte[] gunzipBytes(byte[] bytes) throws IOException {
		try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(bytes))) {
			return in.readAllBytes();
		}
	}

	/** Decodes a gzip body chunk by chunk as it arrives, to see what each flush delivered. */
	private static final class ChunkedGunzip {

		private final Wire wire;

		private final Inflater inflater = new Inflater(true);

		private final ByteArrayOutputStream text = new ByteArrayOutputStream();

		private int headerLeft = 10;

		private boolean ended;

		ChunkedGunzip(Wire wire) {
			this.wire = wire;
		}

		String readUntil(String suffix) throws IOException {
			while (!this.text.toString(StandardCharsets.US_ASCII).endsWith(suffix)) {
				if (!readChunk()) {
					throw new AssertionError("the body ended before " + suffix.trim());
				}
			}
			return this.text.toString(StandardCharsets.US_ASCII);
		}

		String readToEnd() throws IOException {
			while (readChunk()) {
				// decoded as it comes
			}
			this.inflater.end();
			return this.text.toString(StandardCharsets.US_ASCII);
		}

		private boolean readChunk() throws IOException {
			if (this.ended) {
				return false;
			}
			int size = Integer.parseInt(this.wire.readLine().trim(), 16);
			if (size == 0) {
				this.wire.readLine();
				this.ended = true;
				return false;
			}
			byte[] chunk = this.wire.input().readNBytes(size);
			this.wire.readLine();
			int skip = Math.min(this.headerLeft, chunk.length);
			this.headerLeft -= skip;
			this.inflater.setInput(chunk, skip, chunk.length - skip);
			byte[] out = new byte[4096];
			try {
				int count;
				while ((count = this.inflater.inflate(out)) > 0) {
					this.text.write(out, 0, count);
				}
			}
			catch (DataFormatException ex) {
				throw new IOException(ex);
			}
			return true;
		}

	}

}
