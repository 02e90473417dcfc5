package dev.ariadne.servlet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.AsyncContext;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpServletRequest;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code startAsync} releases the worker in {@code event-loop} and {@code virtual-threads}:
 * with 4 workers, 100 requests held by a {@code DeferredResult}-like servlet leave the pool
 * idle and other requests are served at once, and all 100 complete later from a test thread
 * (half by {@code dispatch()}, half by writing and {@code complete()}). Non-blocking reads and
 * writes hold no worker while the client pauses.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SuspendedRequestsIT {

	private final BlockingQueue<AsyncContext> held = new LinkedBlockingQueue<>();

	private final List<Wire> wires = new ArrayList<>();

	private final CountDownLatch bodyRead = new CountDownLatch(1);

	private ServletServer server;

	@AfterEach
	void stop() {
		for (Wire wire : this.wires) {
			try {
				wire.close();
			}
			catch (IOException ex) {
				// closed already
			}
		}
		if (this.server != null) {
			this.server.close();
		}
	}

	@ParameterizedTest
	@EnumSource(value = IoModel.class, names = { "EVENT_LOOP", "VIRTUAL_THREADS" })
	void aHundredSuspendedServletRequestsHoldNoWorkerAndAllComplete(IoModel model) throws Exception {
		start(model);
		for (int i = 0; i < 100; i++) {
			this.wires.add(Wire.open(this.server.port()).send("GET /deferred/" + i + " HTTP/1.1\r\nHost: x\r\n\r\n"));
		}
		Await.until(() -> this.held.size() == 100, () -> this.held.size() + " requests held");
		Await.until(() -> this.server.server().stats().pool().busyWorkers() == 0,
				() -> "busy workers " + this.server.server().stats().pool().busyWorkers());
		try (Wire other = Wire.open(this.server.port())) {
			for (int i = 0; i < 5; i++) {
				assertThat(other.send("GET /plain HTTP/1.1\r\nHost: x\r\n\r\n").read().text()).isEqualTo("plain");
			}
		}
		List<AsyncContext> contexts = new ArrayList<>();
		this.held.drainTo(contexts);
		Thread completer = new Thread(() -> {
			for (AsyncContext async : contexts) {
				String path = ((HttpServletRequest) async.getRequest()).getPathInfo();
				int id = Integer.parseInt(path.substring(1));
				if (id % 2 == 0) {
					async.getRequest().setAttribute("result", "value " + id);
					async.dispatch();
				}
				else {
					try {
						async.getResponse().getWriter().write("written " + id);
					}
					catch (IOException ex) {
						throw new AssertionError(ex);
					}
					async.complete();
				}
			}
		}, "test-completer");
		completer.start();
		for (int i = 0; i < 100; i++) {
			Wire.Reply reply = this.wires.get(i).read();
			assertThat(reply.status).isEqualTo(200);
			assertThat(reply.text()).isEqualTo((i % 2 == 0) ? "dispatched value " + i : "written " + i);
		}
	}

	@ParameterizedTest
	@EnumSource(value = IoModel.class, names = { "EVENT_LOOP", "VIRTUAL_THREADS" })
	void aReadListenerHoldsNoWorkerWhileTheClientPauses(IoModel model) throws Exception {
		start(model);
		Wire wire = Wire.open(this.server.port());
		this.wires.add(wire);
		// the input buffer is filled with the body before dispatch (a body that fits is read
		// whole first): the client pauses after more than any model's buffer takes
		String first = "hello" + "w".repeat(LARGER_THAN_A_BUFFER);
		String rest = "z".repeat(4096);
		wire.send("POST /listen HTTP/1.1\r\nHost: x\r\nContent-Length: " + (first.length() + rest.length())
				+ "\r\n\r\n" + first);
		assertThat(this.bodyRead.await(10, TimeUnit.SECONDS)).as("first bytes read").isTrue();
		Await.until(() -> this.server.server().stats().pool().busyWorkers() == 0,
				() -> "busy workers " + this.server.server().stats().pool().busyWorkers());
		assertThat(wire.send(rest).read().text()).isEqualTo("read " + first + rest);
	}

	@ParameterizedTest
	@EnumSource(value = IoModel.class, names = { "EVENT_LOOP", "VIRTUAL_THREADS" })
	void aWriteListenerHoldsNoWorkerWhileTheClientDoesNotRead(IoModel model) throws Exception {
		start(model);
		Wire wire = Wire.open(this.server.port());
		this.wires.add(wire);
		wire.send("GET /stream HTTP/1.1\r\nHost: x\r\n\r\n");
		// told to wait once per socket buffer's worth the kernel took: at least once
		Await.until(() -> !this.held.isEmpty(), () -> "the writer was never told to wait");
		Await.until(() -> this.server.server().stats().pool().busyWorkers() == 0,
				() -> "busy workers " + this.server.server().stats().pool().busyWorkers());
		Wire.Reply reply = wire.read();
		assertThat(reply.status).isEqualTo(200);
		assertThat(reply.body).hasSize(STREAMED);
	}

	/** More than the input buffer of any model (16 KiB in the event loop). */
	private static final int LARGER_THAN_A_BUFFER = 20 * 1024;

	/** Far more than the socket buffers take: the writer must be told to wait. */
	private static final int STREAMED = 32 * 1024 * 1024;

	private void start(IoModel model) throws ServletException {
		this.server = ServletServer.start(model, ServletDeployment.builder().initializer(this::register),
				(config) -> config.maxThreads(4));
	}

	private void register(ServletContext context) {
		async(context, "deferred", "/deferred/*", (request, response) -> {
			if (request.getDispatcherType() == DispatcherType.ASYNC) {
				Servlets.write(response, "dispatched " + request.getAttribute("result"));
				return;
			}
			AsyncContext async = request.startAsync();
			async.setTimeout(0);
			this.held.add(async);
		});
		context.addServlet("plain", Servlets.of((request, response) -> Servlets.write(response, "plain")))
			.addMapping("/plain");
		async(context, "listen", "/listen", (request, response) -> {
			AsyncContext async = request.startAsync();
			ServletInputStream in = request.getInputStream();
			StringBuilder text = new StringBuilder();
			in.setReadListener(new ReadListener() {

				@Override
				public void onDataAvailable() throws IOException {
					byte[] buffer = new byte[64];
					while (in.isReady() && !in.isFinished()) {
						int count = in.read(buffer);
						if (count > 0) {
							text.append(new String(buffer, 0, count, StandardCharsets.US_ASCII));
							SuspendedRequestsIT.this.bodyRead.countDown();
						}
					}
				}

				@Override
				public void onAllDataRead() throws IOException {
					response.getWriter().write("read " + text);
					async.complete();
				}

				@Override
				public void onError(Throwable failure) {
					async.complete();
				}

			});
		});
		async(context, "stream", "/stream", (request, response) -> {
			AsyncContext async = request.startAsync();
			async.setTimeout(0);
			response.setContentLength(STREAMED);
			ServletOutputStream out = response.getOutputStream();
			byte[] chunk = new byte[64 * 1024];
			out.setWriteListener(new WriteListener() {

				private int written;

				@Override
				public void onWritePossible() throws IOException {
					while (this.written < STREAMED) {
						if (!out.isReady()) {
							SuspendedRequestsIT.this.held.offer(async);
							return;
						}
						out.write(chunk);
						this.written += chunk.length;
					}
					async.complete();
				}

				@Override
				public void onError(Throwable failure) {
					async.complete();
				}

			});
		});
	}

	private static void async(ServletContext context, String name, String pattern, Servlets.Body body) {
		jakarta.servlet.ServletRegistration.Dynamic registration = context.addServlet(name, Servlets.of(body));
		registration.addMapping(pattern);
		registration.setAsyncSupported(true);
	}

}
