package dev.ariadne;

import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import org.eclipse.jetty.client.ContentResponse;
import org.eclipse.jetty.client.HttpClient;
import org.eclipse.jetty.http.HttpVersion;
import org.eclipse.jetty.http2.client.HTTP2Client;
import org.eclipse.jetty.http2.client.transport.HttpClientTransportOverHTTP2;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.AccessLogConfig;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.accesslog.LogOutput;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * The access log over real sockets, in every model: a line for each HTTP/1.1 request and each
 * h2c stream, with the time it waited for a worker (a request queued behind a busy route pool
 * shows its wait), the pool that ran it and the I/O model; a request the server refused is
 * logged too; every line of an ended exchange is in the file when a graceful shutdown, or a
 * stop, returns; and a directory that cannot be made fails the start naming its property.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class AccessLogIT {

	/** Fields split by '|': client, request line, status, bytes, wait, pool, model, listener, route, user agent. */
	private static final String PATTERN = "%a|%r|%s|%B|%{wait}x|%{pool}x|%{model}x|%{listener}x|%{route}x|%{User-Agent}i";

	private static final long HOLD_MILLIS = 300;

	@TempDir
	Path directory;

	private AriadneServer server;

	private HttpClient h2c;

	private final CountDownLatch computing = new CountDownLatch(1);

	private final CountDownLatch release = new CountDownLatch(1);

	@AfterEach
	void stop() throws Exception {
		this.release.countDown();
		if (this.h2c != null) {
			this.h2c.stop();
		}
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void writesALineForEachHttp11RequestAndH2cStreamWithItsWaitPoolAndModel(IoModel model) throws Exception {
		start(model, AccessLogConfig.builder().enabled(true).pattern(PATTERN).directory(this.directory).build());
		ExecutorService clients = Executors.newFixedThreadPool(2);
		try {
			// the compute pool's one worker is held, so the second compute request waits for it
			Future<String> first = clients.submit(() -> get("/compute/first"));
			assertThat(this.computing.await(10, TimeUnit.SECONDS)).isTrue();
			Future<String> second = clients.submit(() -> get("/compute/second"));
			awaitQueued();
			Thread.sleep(HOLD_MILLIS);
			this.release.countDown();
			assertThat(first.get(10, TimeUnit.SECONDS)).startsWith("HTTP/1.1 200");
			assertThat(second.get(10, TimeUnit.SECONDS)).startsWith("HTTP/1.1 200");
		}
		finally {
			clients.shutdownNow();
		}
		assertThat(get("/hello?name=raw")).startsWith("HTTP/1.1 200");
		assertThat(get("/missing")).startsWith("HTTP/1.1 404");
		ContentResponse stream = this.h2c.GET(URI.create("http://127.0.0.1:" + this.server.port() + "/hello?name=h2c"));
		assertThat(stream.getVersion()).isEqualTo(HttpVersion.HTTP_2);
		this.h2c.stop();
		this.h2c = null;

		assertThat(this.server.shutdownGracefully()).isTrue();
		List<String[]> lines = Files.readAllLines(todaysFile()).stream().map((line) -> line.split("\\|", -1)).toList();
		assertThat(lines).hasSize(5);
		for (String[] line : lines) {
			assertThat(line).hasSize(10);
			assertThat(line[0]).isEqualTo("127.0.0.1");
			assertThat(line[6]).isEqualTo(model.value());
			assertThat(line[7]).isEqualTo("app");
			assertThat(Double.parseDouble(line[4])).isNotNegative();
		}
		String[] first = find(lines, "GET /compute/first HTTP/1.1");
		assertThat(first[2]).isEqualTo("200");
		assertThat(first[3]).isEqualTo("8");
		assertThat(first[5]).isEqualTo("compute");
		assertThat(first[8]).isEqualTo("/compute/{name}");
		String[] second = find(lines, "GET /compute/second HTTP/1.1");
		assertThat(second[5]).isEqualTo("compute");
		assertThat(Double.parseDouble(second[4])).as("the wait, in ms, of the request queued behind the held one")
			.isGreaterThanOrEqualTo(HOLD_MILLIS * 0.9);
		assertThat(find(lines, "GET /hello?name=raw HTTP/1.1")).containsExactly("127.0.0.1",
				"GET /hello?name=raw HTTP/1.1", "200", "9", line(lines, "raw")[4], "default", model.value(), "app",
				"/hello", "raw-client");
		assertThat(find(lines, "GET /missing HTTP/1.1")).contains("404", "NOT_FOUND", "default");
		String[] h2 = find(lines, "GET /hello?name=h2c HTTP/2.0");
		assertThat(h2[2]).isEqualTo("200");
		assertThat(h2[3]).isEqualTo("9");
		assertThat(h2[5]).isEqualTo("default");
		assertThat(h2[9]).startsWith("Jetty/");
		assertThat(this.server.stats().accessLogDropped()).isZero();
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void logsARefusedRequestAndHasEveryLineInTheFileWhenStopReturns(IoModel model) throws Exception {
		start(model, AccessLogConfig.builder()
			.enabled(true)
			.format(AccessLogConfig.Format.COMMON)
			.directory(this.directory)
			.build());
		for (int i = 0; i < 20; i++) {
			assertThat(get("/hello?name=" + i)).startsWith("HTTP/1.1 200");
		}
		try (RawClient client = RawClient.connect(this.server.port())) {
			assertThat(client.exchange("GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n").status()).isEqualTo(400);
		}
		this.server.stop();
		List<String> lines = Files.readAllLines(todaysFile());
		assertThat(lines).hasSize(21);
		assertThat(lines.get(0)).matches("127\\.0\\.0\\.1 - - \\[[0-9]{2}/[A-Z][a-z]{2}/[0-9]{4}:[0-9:]{8} [-+][0-9]{4}\\] "
				+ "\"GET /hello\\?name=0 HTTP/1\\.1\" 200 7");
		assertThat(lines.get(20)).matches("127\\.0\\.0\\.1 - - \\[.*\\] \"-\" 400 [0-9]+");
	}

	/**
	 * A slow disk (each write takes 100 ms) keeps the writer behind: the lines of the last
	 * requests are still to be written when the server is told to stop, and must be written
	 * before the shutdown returns.
	 */
	@ParameterizedTest
	@EnumSource(IoModel.class)
	void theLastLinesAreWrittenBeforeAGracefulShutdownOrAStopReturns(IoModel model) throws Exception {
		for (boolean graceful : new boolean[] { true, false }) {
			StringBuffer written = new StringBuffer();
			LogOutput slowDisk = new LogOutput() {

				@Override
				public void open(long nowMillis) {
				}

				@Override
				public void write(byte[] bytes, int offset, int length) throws IOException {
					try {
						Thread.sleep(100);
					}
					catch (InterruptedException ex) {
						throw new java.io.InterruptedIOException();
					}
					written.append(new String(bytes, offset, length, StandardCharsets.UTF_8));
				}

				@Override
				public void close() {
				}

			};
			this.server = Servers.start(model,
					(config) -> config.accessLog(AccessLogConfig.builder().enabled(true).pattern("%U").build()),
					(builder) -> builder.accessLogOutput(slowDisk),
					Route.get("/hello", (request, response) -> response.send("hello")));
			for (int i = 0; i < 10; i++) {
				assertThat(get("/hello?" + i)).startsWith("HTTP/1.1 200");
			}
			if (graceful) {
				assertThat(this.server.shutdownGracefully()).isTrue();
			}
			else {
				this.server.stop();
			}
			assertThat(written.toString().lines()).as(graceful ? "graceful" : "stop").hasSize(10);
		}
	}

	/**
	 * An output that never returns (a hung disk) with room for one line waiting: the writer holds
	 * the first line, the queue the second, and every later line is dropped and counted while
	 * the requests are answered as usual.
	 */
	@ParameterizedTest
	@EnumSource(IoModel.class)
	void dropsAndCountsLinesRatherThanHoldingUpRequestsWhenTheOutputIsStuck(IoModel model) throws Exception {
		CountDownLatch writing = new CountDownLatch(1);
		LogOutput hung = new LogOutput() {

			@Override
			public void open(long nowMillis) {
			}

			@Override
			public void write(byte[] bytes, int offset, int length) throws IOException {
				writing.countDown();
				try {
					AccessLogIT.this.release.await();
				}
				catch (InterruptedException ex) {
					throw new java.io.InterruptedIOException();
				}
			}

			@Override
			public void close() {
			}

		};
		this.server = Servers.start(model,
				(config) -> config.accessLog(
						AccessLogConfig.builder().enabled(true).format(AccessLogConfig.Format.JSON).queueCapacity(1).build()),
				(builder) -> builder.accessLogOutput(hung),
				Route.get("/hello", (request, response) -> response.send("hello")));
		assertThat(get("/hello")).startsWith("HTTP/1.1 200");
		assertThat(writing.await(10, TimeUnit.SECONDS)).isTrue();
		long start = System.nanoTime();
		for (int i = 0; i < 6; i++) {
			assertThat(get("/hello")).startsWith("HTTP/1.1 200");
		}
		assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start)).isLessThan(10);
		assertThat(this.server.stats().accessLogDropped()).isEqualTo(5);
		this.release.countDown();
	}

	@Test
	void failsToStartNamingTheDirectoryWhenItCannotBeMade() throws IOException {
		Path taken = Files.writeString(this.directory.resolve("taken"), "");
		AriadneServer server = AriadneServer
			.builder(ServerConfig.builder()
				.address(RawClient.LOOPBACK)
				.port(0)
				.accessLog(AccessLogConfig.builder().enabled(true).directory(taken.resolve("logs")).build())
				.build())
			.build();
		assertThatExceptionOfType(java.io.UncheckedIOException.class).isThrownBy(server::start)
			.withMessageContaining("Ariadne 'app' could not open its access log")
			.withMessageContaining("(ariadne.server.accesslog.directory)");
		assertThat(server.isRunning()).isFalse();
	}

	private void start(IoModel model, AccessLogConfig accessLog) throws Exception {
		Route hello = Route.get("/hello", (request, response) -> response.send("hello " + request.queryParam("name")));
		Route compute = Route.get("/compute/{name}", (request, response) -> {
			this.computing.countDown();
			if (!this.release.await(20, TimeUnit.SECONDS)) {
				throw new IllegalStateException("not released");
			}
			response.send("computed");
		}).inPool("compute");
		this.server = Servers.start(model,
				(config) -> config.http2Enabled(true)
					.pool("compute", new ServerConfig.PoolConfig(1, 10, false))
					.accessLog(accessLog),
				hello, compute);
		this.h2c = new HttpClient(new HttpClientTransportOverHTTP2(new HTTP2Client()));
		this.h2c.start();
	}

	private void awaitQueued() throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (this.server.stats().pools().stream().filter((pool) -> pool.name().equals("compute")).findFirst()
				.orElseThrow().queued() < 1) {
			assertThat(System.nanoTime()).as("the second request queued").isLessThan(deadline);
			Thread.sleep(5);
		}
	}

	private String get(String target) throws IOException {
		try (RawClient client = RawClient.connect(this.server.port())) {
			return client
				.exchange("GET " + target + " HTTP/1.1\r\nHost: localhost\r\nUser-Agent: raw-client\r\n\r\n")
				.statusLine();
		}
	}

	private Path todaysFile() {
		return this.directory.resolve("access_log" + LocalDate.now().format(DateTimeFormatter.ofPattern(".yyyy-MM-dd"))
				+ ".log");
	}

	private static String[] find(List<String[]> lines, String requestLine) {
		return lines.stream()
			.filter((line) -> line[1].equals(requestLine))
			.findFirst()
			.orElseThrow(() -> new AssertionError("no line for " + requestLine + " in "
					+ lines.stream().map((line) -> String.join("|", line)).toList()));
	}

	private static String[] line(List<String[]> lines, String userAgentOrName) {
		return lines.stream()
			.filter((line) -> line[1].contains("name=" + userAgentOrName))
			.findFirst()
			.orElseThrow();
	}

}
