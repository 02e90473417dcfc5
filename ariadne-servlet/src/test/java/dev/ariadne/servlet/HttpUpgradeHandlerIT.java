package dev.ariadne.servlet;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.WriteListener;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.WebConnection;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Servlet 6.1 HTTP upgrade in every model: {@code HttpServletRequest.upgrade} with an
 * {@link HttpUpgradeHandler} that echoes through a {@link ReadListener} and a
 * {@link WriteListener} on its {@link WebConnection}; the 101 with the fields the servlet set
 * before and after the call, sent once it returned; bytes sent with the request reaching the
 * handler; {@code init} and {@code destroy} called once, whether the handler closes the
 * connection or a forced stop does; a large echo behind a slow reader; a handler class that
 * cannot be made refused with a {@link ServletException}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class HttpUpgradeHandlerIT {

	static final AtomicInteger inits = new AtomicInteger();

	static final AtomicInteger destroys = new AtomicInteger();

	static final AtomicReference<WebConnection> connection = new AtomicReference<>();

	private ServletServer server;

	@BeforeEach
	void reset() {
		inits.set(0);
		destroys.set(0);
		connection.set(null);
	}

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.close();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void echoesThroughListenersAndInitsAndDestroysTheHandlerOnce(IoModel model) throws Exception {
		start(model);
		try (Wire wire = Wire.open(this.server.port())) {
			wire.send("GET /upgrade HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\nearly;");
			Wire.Reply head = wire.readHeadOnly();
			assertThat(head.status).isEqualTo(101);
			assertThat(head.header("Upgrade")).isEqualTo("echo");
			assertThat(head.header("Connection")).isEqualTo("Upgrade");
			assertThat(head.header("X-Before")).isEqualTo("set before upgrade()");
			assertThat(head.header("X-After")).isEqualTo("set after upgrade()");
			assertThat(head.header("X-Connection")).as("getServletConnection() after upgrade()").contains("-");
			assertThat(head.headers("Content-Length")).isEmpty();
			assertThat(head.headers("Transfer-Encoding")).isEmpty();
			assertThat(text(wire.take(6))).isEqualTo("early;");
			assertThat(text(wire.send("through the listeners").take(21))).isEqualTo("through the listeners");
			assertThat(inits.get()).isEqualTo(1);
			assertThat(destroys.get()).as("destroyed while open").isZero();
			// the client's end: onAllDataRead, where the handler closes the connection
			wire.shutdownOutput();
			assertThat(wire.closedByServer()).isTrue();
		}
		Await.until(() -> destroys.get() == 1, () -> "destroyed " + destroys.get() + " times");
		assertThat(inits.get()).isEqualTo(1);
		Await.until(() -> this.server.server().stats().openConnections() == 0
				&& this.server.server().stats().pool().busyWorkers() == 0,
				() -> "open " + this.server.server().stats().openConnections());
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void echoesALargeTransferBehindASlowReader(IoModel model) throws Exception {
		start(model);
		int size = 4 * 1024 * 1024;
		byte[] payload = new byte[size];
		new Random(61).nextBytes(payload);
		try (Wire wire = Wire.open(this.server.port())) {
			wire.send("GET /upgrade HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n");
			assertThat(wire.readHeadOnly().status).isEqualTo(101);
			CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> {
				try {
					wire.send(payload);
				}
				catch (IOException ex) {
					throw new java.io.UncheckedIOException(ex);
				}
			});
			byte[] received = new byte[size];
			int total = 0;
			while (total < size) {
				byte[] piece = wire.take(Math.min(32 * 1024, size - total));
				System.arraycopy(piece, 0, received, total, piece.length);
				total += piece.length;
				if (total < size / 8) {
					Thread.sleep(5);
				}
			}
			sending.get(30, TimeUnit.SECONDS);
			assertThat(received).isEqualTo(payload);
			wire.shutdownOutput();
			assertThat(wire.closedByServer()).isTrue();
		}
		Await.until(() -> destroys.get() == 1, () -> "destroyed " + destroys.get() + " times");
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aForcedStopDestroysTheHandlerOnce(IoModel model) throws Exception {
		start(model);
		try (Wire wire = Wire.open(this.server.port())) {
			wire.send("GET /upgrade HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n");
			assertThat(wire.readHeadOnly().status).isEqualTo(101);
			assertThat(text(wire.send("hello").take(5))).isEqualTo("hello");
			this.server.close();
			Await.until(() -> destroys.get() == 1, () -> "destroyed " + destroys.get() + " times");
			assertThat(wire.closedByServer()).isTrue();
		}
		assertThat(destroys.get()).isEqualTo(1);
		this.server = null;
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aHandlerClassThatCannotBeMadeIsAServletException(IoModel model) throws Exception {
		start(model);
		Wire.Reply reply = Wire.exchange(this.server.port(),
				"GET /unmakeable HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n");
		assertThat(reply.status).isEqualTo(200);
		assertThat(reply.text()).startsWith("ServletException: Cannot create upgrade handler");
	}

	private void start(IoModel model) throws ServletException {
		this.server = ServletServer.start(model, ServletDeployment.builder().initializer(HttpUpgradeHandlerIT::register),
				(config) -> config.maxThreads(4));
	}

	private static void register(ServletContext context) {
		context.addServlet("upgrade", Servlets.of((request, response) -> {
			response.setHeader("X-Before", "set before upgrade()");
			request.upgrade(EchoHandler.class);
			// as Tyrus does: fields after the call, and a flush
			response.setHeader("Upgrade", "echo");
			response.setHeader("X-After", "set after upgrade()");
			response.setHeader("X-Connection", request.getServletConnection().getConnectionId());
			response.flushBuffer();
		})).addMapping("/upgrade");
		context.addServlet("unmakeable", Servlets.of((request, response) -> {
			try {
				request.upgrade(Unmakeable.class);
				response.getWriter().write("upgraded");
			}
			catch (ServletException ex) {
				response.getWriter().write("ServletException: " + ex.getMessage());
			}
		})).addMapping("/unmakeable");
	}

	private static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.ISO_8859_1);
	}

	/**
	 * Echoes what it reads while its output is ready; reads again once it is; closes the
	 * connection at the end of the input or on a failure.
	 */
	public static final class EchoHandler implements HttpUpgradeHandler {

		@Override
		public void init(WebConnection web) {
			inits.incrementAndGet();
			connection.set(web);
			try {
				ServletInputStream in = web.getInputStream();
				ServletOutputStream out = web.getOutputStream();
				Pump pump = new Pump(web, in, out);
				in.setReadListener(pump);
				out.setWriteListener(pump);
			}
			catch (IOException ex) {
				throw new java.io.UncheckedIOException(ex);
			}
		}

		@Override
		public void destroy() {
			destroys.incrementAndGet();
		}

	}

	/** The echo's listeners; the container calls them one at a time. */
	private static final class Pump implements ReadListener, WriteListener {

		private final WebConnection web;

		private final ServletInputStream in;

		private final ServletOutputStream out;

		private final byte[] buffer = new byte[8192];

		Pump(WebConnection web, ServletInputStream in, ServletOutputStream out) {
			this.web = web;
			this.in = in;
			this.out = out;
		}

		@Override
		public void onDataAvailable() throws IOException {
			while (this.out.isReady() && this.in.isReady()) {
				int n = this.in.read(this.buffer);
				if (n < 0) {
					return;
				}
				this.out.write(this.buffer, 0, n);
			}
		}

		@Override
		public void onWritePossible() throws IOException {
			if (!this.in.isFinished()) {
				onDataAvailable();
			}
		}

		@Override
		public void onAllDataRead() {
			close();
		}

		@Override
		public void onError(Throwable failure) {
			close();
		}

		private void close() {
			try {
				this.web.close();
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		}

	}

	/** A handler without a no-argument constructor. */
	public static final class Unmakeable implements HttpUpgradeHandler {

		public Unmakeable(String required) {
		}

		@Override
		public void init(WebConnection web) {
		}

		@Override
		public void destroy() {
		}

	}

}
