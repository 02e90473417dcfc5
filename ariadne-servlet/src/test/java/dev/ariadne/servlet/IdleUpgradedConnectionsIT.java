package dev.ariadne.servlet;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.management.ManagementFactory;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.ServletOutputStream;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.WebConnection;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import dev.ariadne.server.IoModel;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an idle connection that switched protocols costs in the event loop, where a WebSocket
 * session is meant to cost no thread and little memory: 1,000 upgraded connections whose
 * handlers read with a {@code ReadListener}, each after one echo, add less than 8 KiB of heap
 * apiece (server and client sockets of this JVM together), and the server's buffers hold none
 * of their input. Each used to keep an 8 KiB array of fetched bytes and a 16 KiB input buffer
 * of the loop's budget, whatever it did; a few thousand idle sessions spent the budget and the
 * loop stopped reading new connections.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class IdleUpgradedConnectionsIT {

	private static final int CONNECTIONS = 1000;

	private final List<Socket> sockets = new ArrayList<>();

	private ServletServer server;

	@AfterEach
	void stop() {
		for (Socket socket : this.sockets) {
			try {
				socket.close();
			}
			catch (IOException ex) {
				// closed already
			}
		}
		if (this.server != null) {
			this.server.close();
		}
	}

	@Test
	void aThousandIdleUpgradedConnectionsHoldNoBuffersAndLittleHeap() throws Exception {
		this.server = ServletServer.start(IoModel.EVENT_LOOP,
				ServletDeployment.builder().initializer(IdleUpgradedConnectionsIT::register));
		// the classes and pools of the path exist before the baseline
		for (int i = 0; i < 50; i++) {
			open(i).close();
		}
		long before = heapAfterCollection();
		for (int i = 0; i < CONNECTIONS; i++) {
			this.sockets.add(open(i));
		}
		long after = heapAfterCollection();
		long perConnection = (after - before) / CONNECTIONS;
		assertThat(this.server.server().stats().connections("echo")).isEqualTo(CONNECTIONS);
		assertThat(this.server.server().stats().buffersUsed()).as("bytes in the loop's buffers")
			.isLessThan(8 * 16 * 1024);
		assertThat(perConnection).as("heap per idle upgraded connection, in bytes").isLessThan(8 * 1024);
		for (int i = 0; i < CONNECTIONS; i += 97) {
			assertThat(echo(this.sockets.get(i), "still there " + i)).isEqualTo("still there " + i);
		}
	}

	/** Opens a connection and switches it, with a bare socket: no buffer of the client's counts. */
	private Socket open(int i) throws IOException {
		Socket socket = new Socket(Wire.LOOPBACK, this.server.port());
		socket.setSoTimeout(20_000);
		socket.getOutputStream()
			.write("GET /echo HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n"
				.getBytes(StandardCharsets.ISO_8859_1));
		String head = readHead(socket.getInputStream());
		assertThat(head).startsWith("HTTP/1.1 101 ");
		assertThat(echo(socket, "hello " + i)).isEqualTo("hello " + i);
		return socket;
	}

	private static String readHead(InputStream in) throws IOException {
		StringBuilder head = new StringBuilder();
		while (head.length() < 4 || head.lastIndexOf("\r\n\r\n") != head.length() - 4) {
			int b = in.read();
			if (b < 0) {
				throw new IOException("Closed after " + head);
			}
			head.append((char) b);
		}
		return head.toString();
	}

	private static String echo(Socket socket, String text) throws IOException {
		socket.getOutputStream().write(text.getBytes(StandardCharsets.ISO_8859_1));
		return new String(socket.getInputStream().readNBytes(text.length()), StandardCharsets.ISO_8859_1);
	}

	private static long heapAfterCollection() throws InterruptedException {
		long used = Long.MAX_VALUE;
		for (int i = 0; i < 3; i++) {
			System.gc();
			Thread.sleep(100);
			used = Math.min(used, ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
		}
		return used;
	}

	private static void register(ServletContext context) {
		context.addServlet("echo", Servlets.of((request, response) -> {
			response.setHeader("Upgrade", "echo");
			request.upgrade(Echo.class);
		})).addMapping("/echo");
	}

	/** Echoes what it reads, through a {@link ReadListener}; allocates only while it reads. */
	public static final class Echo implements HttpUpgradeHandler, ReadListener {

		private WebConnection connection;

		private ServletInputStream in;

		private ServletOutputStream out;

		@Override
		public void init(WebConnection connection) {
			this.connection = connection;
			try {
				this.in = connection.getInputStream();
				this.out = connection.getOutputStream();
			}
			catch (IOException ex) {
				throw new UncheckedIOException(ex);
			}
			this.in.setReadListener(this);
		}

		@Override
		public void onDataAvailable() throws IOException {
			byte[] bytes = new byte[1024];
			while (this.in.isReady()) {
				int count = this.in.read(bytes);
				if (count < 0) {
					return;
				}
				this.out.write(bytes, 0, count);
			}
		}

		@Override
		public void onAllDataRead() throws IOException {
			close();
		}

		@Override
		public void onError(Throwable failure) {
			close();
		}

		private void close() {
			try {
				this.connection.close();
			}
			catch (Exception ex) {
				// closed already
			}
		}

		@Override
		public void destroy() {
		}

	}

}
