package dev.ariadne.servlet;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletOutputStream;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.http.ParserLimits;
import dev.ariadne.server.IoModel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Bodies far larger than the heap stream through: this class runs in its own JVM with
 * {@code -Xmx64m} (see the module's pom), so buffering a 100 MB response, upload or file of the
 * document root (or a 1 GiB upload in {@code event-loop}) whole fails it with an
 * {@link OutOfMemoryError}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class BoundedHeapIT {

	private static final long SIZE = 100L * 1024 * 1024;

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@BeforeAll
	void checkHeap() {
		assumeTrue(Boolean.getBoolean("ariadne.bounded-heap"),
				"runs in the module's bounded-heap failsafe execution, with -Xmx64m");
		long max = Runtime.getRuntime().maxMemory();
		assertThat(max).as("this test must run with a heap smaller than its bodies (-Xmx64m)").isLessThan(SIZE);
	}

	@AfterAll
	void stop() {
		this.threads.shutdownNow();
	}

	private ServletDeployment.Builder deployment() {
		return ServletDeployment.builder().initializer((context) -> {
			context.addServlet("sync", Servlets.of((request, response) -> {
				response.setContentType("application/octet-stream");
				write(response.getOutputStream());
			})).addMapping("/sync");
			jakarta.servlet.ServletRegistration.Dynamic async = context.addServlet("async",
					Servlets.of((request, response) -> {
						AsyncContext context2 = request.startAsync();
						context2.setTimeout(0);
						this.threads.execute(() -> {
							try {
								write(response.getOutputStream());
								context2.complete();
							}
							catch (IOException ex) {
								context2.complete();
							}
						});
					}));
			async.addMapping("/async");
			async.setAsyncSupported(true);
			context.addServlet("upload", Servlets.of((request, response) -> {
				long total = 0;
				byte[] buffer = new byte[16 * 1024];
				InputStream in = request.getInputStream();
				int count;
				while ((count = in.read(buffer)) >= 0) {
					total += count;
				}
				Servlets.write(response, Long.toString(total));
			})).addMapping("/upload");
		});
	}

	private static void write(ServletOutputStream out) throws IOException {
		byte[] chunk = new byte[32 * 1024];
		for (long written = 0; written < SIZE; written += chunk.length) {
			out.write(chunk);
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void streamsAHundredMegabyteResponseWrittenByTheServletThread(IoModel model) throws IOException, ServletException {
		assertThat(download(model, "/sync")).isEqualTo(SIZE);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void streamsAHundredMegabyteResponseWrittenByAnApplicationThreadInAsyncMode(IoModel model)
			throws IOException, ServletException {
		assertThat(download(model, "/async")).isEqualTo(SIZE);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void readsAHundredMegabyteUploadAsItArrives(IoModel model) throws IOException, ServletException {
		assertThat(upload(model, SIZE)).isEqualTo(Long.toString(SIZE));
	}

	@ParameterizedTest
	@EnumSource(value = IoModel.class, names = "EVENT_LOOP")
	void readsAGibibyteUploadInTheEventLoop(IoModel model) throws IOException, ServletException {
		// sixteen times the heap: the selector hands the body over as it arrives, and stops
		// reading while the servlet is behind
		long size = 1024L * 1024 * 1024;
		assertThat(upload(model, size)).isEqualTo(Long.toString(size));
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void servesAHundredMegabyteFileOfTheDocumentRoot(IoModel model) throws IOException, ServletException {
		Path root = Files.createTempDirectory("bounded-heap-root-");
		Path file = root.resolve("large.bin");
		try {
			try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
				sparse.setLength(SIZE);
			}
			try (ServletServer server = ServletServer.start(model,
					ServletDeployment.builder().documentRoot(root).defaultServlet())) {
				try (Wire wire = Wire.open(server.port())) {
					AtomicLong received = new AtomicLong();
					Wire.Reply reply = wire.send("GET /large.bin HTTP/1.1\r\nHost: x\r\n\r\n")
						.readStreaming(received::addAndGet);
					assertThat(reply.status).isEqualTo(200);
					assertThat(reply.framing).isEqualTo("length");
					assertThat(received.get()).isEqualTo(SIZE);
				}
			}
		}
		finally {
			Files.deleteIfExists(file);
			Files.delete(root);
		}
	}

	private String upload(IoModel model, long size) throws IOException, ServletException {
		try (ServletServer server = ServletServer.start(model, deployment(),
				(config) -> config.limits(new ParserLimits(ParserLimits.DEFAULT_MAX_LINE_LENGTH,
						ParserLimits.DEFAULT_MAX_HEADER_SIZE, ParserLimits.DEFAULT_MAX_HEADER_COUNT, size * 2)))) {
			try (Wire wire = Wire.open(server.port())) {
				wire.send("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: " + size + "\r\n\r\n");
				OutputStream out = wire.output();
				byte[] chunk = new byte[64 * 1024];
				for (long sent = 0; sent < size; sent += chunk.length) {
					out.write(chunk);
				}
				out.flush();
				return wire.read().text();
			}
		}
	}

	private long download(IoModel model, String path) throws IOException, ServletException {
		try (ServletServer server = ServletServer.start(model, deployment())) {
			try (Wire wire = Wire.open(server.port())) {
				AtomicLong received = new AtomicLong();
				Wire.Reply reply = wire.send("GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n")
					.readStreaming(received::addAndGet);
				assertThat(reply.status).isEqualTo(200);
				assertThat(reply.framing).isEqualTo("chunked");
				return received.get();
			}
		}
	}

}
