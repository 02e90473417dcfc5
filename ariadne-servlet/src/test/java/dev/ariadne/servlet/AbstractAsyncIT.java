package dev.ariadne.servlet;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.AsyncEvent;
import jakarta.servlet.AsyncListener;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ReadListener;
import jakarta.servlet.RequestDispatcher;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletResponse;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.ariadne.server.IoModel;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Async servlets and non-blocking I/O over a real socket: complete and dispatch from other
 * threads, timeouts, listeners, {@code AsyncContext.start}, server-sent events streamed one by
 * one, and {@code ReadListener}/{@code WriteListener} with the Servlet 6.1 {@code ByteBuffer}
 * methods. One subclass per I/O model.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractAsyncIT {

	private final ExecutorService threads = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "app-thread");
		thread.setDaemon(true);
		return thread;
	});

	private final List<String> events = new CopyOnWriteArrayList<>();

	private volatile CountDownLatch firstEventSeen = new CountDownLatch(1);

	private ServletServer server;

	abstract IoModel model();

	@BeforeAll
	void start() throws ServletException {
		this.server = ServletServer.start(model(), ServletDeployment.builder()
			.globalErrorPage("/error")
			.initializer(this::register));
	}

	@AfterAll
	void stop() {
		if (this.server != null) {
			this.server.close();
		}
		this.threads.shutdownNow();
	}

	@BeforeEach
	void clear() {
		this.events.clear();
		this.firstEventSeen = new CountDownLatch(1);
	}

	private void register(ServletContext context) {
		async(context, "complete", "/async/complete", (request, response) -> {
			AsyncContext async = request.startAsync();
			async.addListener(recorder());
			this.threads.execute(() -> {
				try {
					response.getWriter().write("completed on " + Thread.currentThread().getName() + " started="
							+ request.isAsyncStarted());
					async.complete();
				}
				catch (IOException ex) {
					throw new AssertionError(ex);
				}
			});
		});
		async(context, "dispatch", "/async/dispatch/*", (request, response) -> {
			if (request.getDispatcherType() == DispatcherType.ASYNC) {
				Servlets.write(response, "dispatched result=" + request.getAttribute("result") + " uri="
						+ request.getRequestURI() + " info=" + request.getPathInfo() + " async-uri="
						+ request.getAttribute(AsyncContext.ASYNC_REQUEST_URI) + " trace=" + request.getAttribute("trace"));
				return;
			}
			AsyncContext async = request.startAsync(request, response);
			async.addListener(recorder());
			this.threads.execute(() -> {
				request.setAttribute("result", "computed");
				if ("/elsewhere".equals(request.getPathInfo())) {
					async.dispatch("/async/dispatch/target?x=1");
				}
				else {
					async.dispatch();
				}
			});
		});
		async(context, "timeout", "/async/timeout/*", (request, response) -> {
			AsyncContext async = request.startAsync();
			async.setTimeout(200);
			async.addListener(recorder());
			if ("/handled".equals(request.getPathInfo())) {
				async.addListener(new Recorder("handler") {

					@Override
					public void onTimeout(AsyncEvent event) throws IOException {
						event.getAsyncContext().getResponse().getWriter().write("timed out, handled");
						event.getAsyncContext().complete();
					}

				});
			}
		});
		async(context, "start", "/async/start", (request, response) -> {
			AsyncContext async = request.startAsync();
			async.start(() -> {
				try {
					response.getWriter().write("ran by the container");
				}
				catch (IOException ex) {
					throw new AssertionError(ex);
				}
				async.complete();
			});
		});
		async(context, "failing", "/async/failing", (request, response) -> {
			if (request.getDispatcherType() == DispatcherType.ASYNC) {
				throw new IllegalStateException("async dispatch failed");
			}
			AsyncContext async = request.startAsync();
			async.addListener(recorder());
			this.threads.execute(async::dispatch);
		});
		async(context, "racing-headers", "/async/racing-headers", (request, response) -> {
			// a filter's header writer on the request thread while an async thread commits, as
			// Spring Security's does around a StreamingResponseBody
			AsyncContext async = request.startAsync();
			CountDownLatch started = new CountDownLatch(1);
			this.threads.execute(() -> {
				try {
					started.await();
					ServletOutputStream out = response.getOutputStream();
					out.write("streamed".getBytes(StandardCharsets.UTF_8));
					out.flush();
					async.complete();
				}
				catch (IOException | InterruptedException ex) {
					throw new AssertionError(ex);
				}
			});
			started.countDown();
			for (int i = 0; i < 500; i++) {
				response.addHeader("X-Late-" + i, "v");
				response.addCookie(new jakarta.servlet.http.Cookie("late" + i, "v"));
			}
		});
		context.addServlet("sync-only", Servlets.of((request, response) -> request.startAsync()))
			.addMapping("/async/not-supported");
		async(context, "events", "/events", (request, response) -> {
			response.setContentType("text/event-stream");
			AsyncContext async = request.startAsync();
			async.setTimeout(0);
			this.threads.execute(() -> {
				try {
					ServletOutputStream out = response.getOutputStream();
					for (int i = 0; i < 100; i++) {
						out.write(("data: event " + i + "\n\n").getBytes(StandardCharsets.UTF_8));
						out.flush();
						if (i == 0 && !this.firstEventSeen.await(10, TimeUnit.SECONDS)) {
							throw new AssertionError("The client never saw the first event");
						}
					}
					async.complete();
				}
				catch (IOException | InterruptedException ex) {
					throw new AssertionError(ex);
				}
			});
		});
		async(context, "read", "/nio/read", (request, response) -> {
			AsyncContext async = request.startAsync();
			ServletInputStream in = request.getInputStream();
			in.setReadListener(new CountingReader(in, async, response, this.events));
		});
		async(context, "write", "/nio/write", (request, response) -> {
			AsyncContext async = request.startAsync();
			ServletOutputStream out = response.getOutputStream();
			out.setWriteListener(new WriteListener() {

				private int written;

				@Override
				public void onWritePossible() throws IOException {
					while (out.isReady() && this.written < 64) {
						ByteBuffer chunk = ByteBuffer.allocateDirect(1024);
						while (chunk.hasRemaining()) {
							chunk.put((byte) 'w');
						}
						chunk.flip();
						out.write(chunk);
						this.written++;
					}
					if (this.written == 64) {
						async.complete();
					}
				}

				@Override
				public void onError(Throwable failure) {
					AbstractAsyncIT.this.events.add("write error " + failure);
				}

			});
		});
		context.addServlet("error", Servlets.of((request, response) -> Servlets.write(response, "error page status="
				+ request.getAttribute(RequestDispatcher.ERROR_STATUS_CODE) + " message="
				+ request.getAttribute(RequestDispatcher.ERROR_MESSAGE) + " dispatch=" + request.getDispatcherType())))
			.addMapping("/error");
		jakarta.servlet.FilterRegistration.Dynamic trace = context.addFilter("trace",
				Servlets.filter((request, response, chain) -> {
					Servlets.trace(request, request.getDispatcherType().name());
					chain.doFilter(request, response);
				}));
		trace.addMappingForUrlPatterns(EnumSet.of(DispatcherType.REQUEST, DispatcherType.ASYNC), false, "/*");
		trace.setAsyncSupported(true);
	}

	private static void async(ServletContext context, String name, String pattern, Servlets.Body body) {
		jakarta.servlet.ServletRegistration.Dynamic registration = context.addServlet(name, Servlets.of(body));
		registration.addMapping(pattern);
		registration.setAsyncSupported(true);
	}

	private Recorder recorder() {
		return new Recorder("listener");
	}

	/** Records the events an async listener gets. */
	class Recorder implements AsyncListener {

		private final String name;

		Recorder(String name) {
			this.name = name;
		}

		@Override
		public void onComplete(AsyncEvent event) {
			AbstractAsyncIT.this.events.add(this.name + " complete");
		}

		@Override
		public void onTimeout(AsyncEvent event) throws IOException {
			AbstractAsyncIT.this.events.add(this.name + " timeout");
		}

		@Override
		public void onError(AsyncEvent event) {
			AbstractAsyncIT.this.events.add(this.name + " error " + event.getThrowable().getMessage());
		}

		@Override
		public void onStartAsync(AsyncEvent event) {
			AbstractAsyncIT.this.events.add(this.name + " restart");
		}

	}

	/** Reads the body with a ReadListener and answers with what it read. */
	private static final class CountingReader implements ReadListener {

		private final ServletInputStream in;

		private final AsyncContext async;

		private final HttpServletResponse response;

		private final List<String> events;

		private long total;

		private long sum;

		private int callbacks;

		CountingReader(ServletInputStream in, AsyncContext async, HttpServletResponse response, List<String> events) {
			this.in = in;
			this.async = async;
			this.response = response;
			this.events = events;
		}

		@Override
		public void onDataAvailable() throws IOException {
			this.callbacks++;
			ByteBuffer buffer = ByteBuffer.allocate(1000);
			while (this.in.isReady()) {
				buffer.clear();
				int count = this.in.read(buffer);
				if (count < 0) {
					return;
				}
				while (buffer.hasRemaining()) {
					this.sum += buffer.get() & 0xFF;
				}
				this.total += count;
			}
		}

		@Override
		public void onAllDataRead() throws IOException {
			this.response.getWriter().write("read " + this.total + " bytes, sum " + this.sum + ", finished "
					+ this.in.isFinished() + ", callbacks>0 " + (this.callbacks > 0));
			this.async.complete();
		}

		@Override
		public void onError(Throwable failure) {
			this.events.add("read error " + failure);
			this.async.complete();
		}

	}

	@Test
	void completesFromAnotherThreadAndTellsTheListeners() throws IOException {
		Wire.Reply reply = get("/async/complete");
		assertThat(reply.status).isEqualTo(200);
		assertThat(reply.text()).isEqualTo("completed on app-thread started=true");
		assertThat(reply.framing).isEqualTo("length");
		Await.until(() -> this.events.contains("listener complete"), () -> "events: " + this.events);
	}

	@Test
	void headersAddedWhileAnotherThreadCommitsAreSentWholeOrNotAtAll() throws IOException {
		for (int i = 0; i < 100; i++) {
			Wire.Reply reply = get("/async/racing-headers");
			assertThat(reply.status).as("exchange %d", i).isEqualTo(200);
			assertThat(reply.text()).isEqualTo("streamed");
		}
	}

	@Test
	void dispatchesBackToTheRequestPathOrElsewhereAsAsync() throws IOException {
		assertThat(get("/async/dispatch/here?q=1").text()).isEqualTo("dispatched result=computed "
				+ "uri=/async/dispatch/here info=/here async-uri=/async/dispatch/here trace=REQUEST,ASYNC");
		assertThat(get("/async/dispatch/elsewhere").text()).isEqualTo("dispatched result=computed "
				+ "uri=/async/dispatch/target info=/target async-uri=/async/dispatch/elsewhere trace=REQUEST,ASYNC");
		Await.until(() -> this.events.size() == 2, () -> "events: " + this.events);
		assertThat(this.events).containsExactly("listener complete", "listener complete");
	}

	@Test
	void aTimeoutWithoutAnswerGoesToTheErrorPageWith500() throws IOException {
		Wire.Reply reply = get("/async/timeout/plain");
		assertThat(reply.status).isEqualTo(500);
		assertThat(reply.text()).startsWith("error page status=500 message=Async request timed out after 200 ms "
				+ "dispatch=ERROR");
		Await.until(() -> this.events.size() == 2, () -> "events: " + this.events);
		assertThat(this.events).containsExactly("listener timeout", "listener complete");
	}

	@Test
	void aListenerMayAnswerTheTimeout() throws IOException {
		Wire.Reply reply = get("/async/timeout/handled");
		assertThat(reply.status).isEqualTo(200);
		assertThat(reply.text()).isEqualTo("timed out, handled");
	}

	@Test
	void runsStartTasksOnAContainerThread() throws IOException {
		assertThat(get("/async/start").text()).isEqualTo("ran by the container");
	}

	@Test
	void aFailingAsyncDispatchTellsTheListenersAndShowsTheErrorPage() throws IOException {
		Wire.Reply reply = get("/async/failing");
		assertThat(reply.status).isEqualTo(500);
		assertThat(reply.text()).startsWith("error page status=500 message=async dispatch failed dispatch=ERROR");
	}

	@Test
	void refusesStartAsyncWhereTheServletDoesNotSupportIt() throws IOException {
		assertThat(get("/async/not-supported").status).isEqualTo(500);
	}

	@Test
	void streamsOneHundredServerSentEventsAsTheyAreWritten() throws IOException {
		try (Wire wire = Wire.open(this.server.port())) {
			wire.send("GET /events HTTP/1.1\r\nHost: x\r\n\r\n");
			Wire.Reply head = wire.readHeadOnly();
			assertThat(head.status).isEqualTo(200);
			assertThat(head.header("Content-Type")).isEqualTo("text/event-stream");
			assertThat(head.header("Transfer-Encoding")).isEqualTo("chunked");
			int received = 0;
			while (true) {
				int size = Integer.parseInt(wire.readLine(), 16);
				if (size == 0) {
					assertThat(wire.readLine()).isEmpty();
					break;
				}
				byte[] chunk = wire.input().readNBytes(size);
				assertThat(wire.readLine()).isEmpty();
				String text = new String(chunk, StandardCharsets.UTF_8);
				// the servlet flushes each event: one event per chunk, in order
				assertThat(text).isEqualTo("data: event " + received + "\n\n");
				received++;
				this.firstEventSeen.countDown();
			}
			assertThat(received).isEqualTo(100);
			// the connection carries on after the async response
			assertThat(wire.send("GET /async/start HTTP/1.1\r\nHost: x\r\n\r\n").read().text())
				.isEqualTo("ran by the container");
		}
	}

	@Test
	void readsTheBodyThroughAReadListener() throws IOException {
		byte[] body = new byte[100_000];
		long sum = 0;
		for (int i = 0; i < body.length; i++) {
			body[i] = (byte) i;
			sum += body[i] & 0xFF;
		}
		try (Wire wire = Wire.open(this.server.port())) {
			wire.send("POST /nio/read HTTP/1.1\r\nHost: x\r\nContent-Length: " + body.length + "\r\n\r\n");
			wire.send(body);
			Wire.Reply reply = wire.read();
			assertThat(reply.text()).isEqualTo("read 100000 bytes, sum " + sum + ", finished true, callbacks>0 true");
		}
		assertThat(this.events).isEmpty();
	}

	@Test
	void writesThroughAWriteListenerWithByteBuffers() throws IOException {
		Wire.Reply reply = get("/nio/write");
		assertThat(reply.status).isEqualTo(200);
		assertThat(reply.body).hasSize(64 * 1024);
		assertThat(this.events).isEmpty();
	}

	private Wire.Reply get(String path) throws IOException {
		return Wire.exchange(this.server.port(), "GET " + path + " HTTP/1.1\r\nHost: x\r\n\r\n");
	}

}
