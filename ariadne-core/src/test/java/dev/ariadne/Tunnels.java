package dev.ariadne;

import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.UnaryOperator;

import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.Request;
import dev.ariadne.server.Response;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.TlsConfig;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Upgraded connections for socket-level tests ({@link Response#upgrade()}): routes that switch
 * to a protocol of their own, an echo of raw bytes, written with non-blocking callbacks
 * ({@code /echo}) or with blocking reads and writes in the handler ({@code /echo-blocking}); a
 * route that reports why a request cannot switch ({@code /try}, 409); and clients that open
 * them, in plaintext or over TLS.
 */
final class Tunnels {

	static final TestCertificates certificates = TestCertificates.get();

	/** The tunnels the non-blocking echo opened, for tests that end or watch them. */
	final BlockingQueue<AsyncResponse> opened = new LinkedBlockingQueue<>();

	/** The streams the non-blocking echo writes, in the order of {@link #opened}. */
	final BlockingQueue<OutputStream> outputs = new LinkedBlockingQueue<>();

	/** How often the echo's writer was told to wait for the client. */
	final AtomicInteger notWritable = new AtomicInteger();

	/** The routes. */
	final Route[] routes = { Route.get("/echo", (request, response) -> echo(response)),
			Route.post("/echo", (request, response) -> echo(response)),
			Route.get("/echo-blocking", this::echoBlocking), Route.post("/try", Tunnels::tryUpgrade),
			Route.get("/try", Tunnels::tryUpgrade), Route.get("/hello", (request, response) -> response.send("hello")) };

	private AriadneServer server;

	private boolean tls;

	/**
	 * Starts a server with the routes, plaintext or TLS.
	 * @param model the model
	 * @param tls whether the listener speaks TLS
	 * @param config further changes to the configuration
	 * @return the server
	 */
	AriadneServer start(IoModel model, boolean tls, UnaryOperator<ServerConfig.Builder> config) {
		return start(model, tls, config, UnaryOperator.identity());
	}

	/**
	 * Starts a server with the routes, plaintext or TLS, built with more than its configuration.
	 * @param model the model
	 * @param tls whether the listener speaks TLS
	 * @param config further changes to the configuration
	 * @param builder changes to the server's builder
	 * @return the server
	 */
	AriadneServer start(IoModel model, boolean tls, UnaryOperator<ServerConfig.Builder> config,
			UnaryOperator<AriadneServer.Builder> builder) {
		this.tls = tls;
		TlsConfig tlsConfig = tls ? TlsConfig.builder(() -> certificates.serverContext(TestCertificates.LOCALHOST))
			.handshakeTimeout(Duration.ofSeconds(5))
			.build() : null;
		this.server = Servers.start(model, (built) -> config.apply(tls ? built.tls(tlsConfig) : built), builder,
				this.routes);
		return this.server;
	}

	/**
	 * Connects to the server.
	 * @return the client
	 * @throws IOException if the connection failed
	 */
	RawClient connect() throws IOException {
		RawClient.Layer layer = this.tls ? RawClient.Layer.tls(certificates.clientContext(), "localhost")
				: RawClient.Layer.PLAIN;
		return RawClient.connect(this.server.port(), Duration.ofSeconds(20), layer);
	}

	/**
	 * Connects with small socket buffers, set before the connection so that the kernel does not
	 * grow them: what the client leaves unread soon holds the server back.
	 * @return the client
	 * @throws IOException if the connection failed
	 */
	RawClient connectSmallBuffered() throws IOException {
		Socket socket = new Socket();
		socket.setReceiveBufferSize(64 * 1024);
		socket.setSendBufferSize(64 * 1024);
		socket.connect(new InetSocketAddress(RawClient.LOOPBACK, this.server.port()), 5000);
		socket.setSoTimeout(20_000);
		socket.setTcpNoDelay(true);
		Socket layered = this.tls ? RawClient.Layer.tls(certificates.clientContext(), "localhost").over(socket) : socket;
		return RawClient.over(layered, Duration.ofSeconds(20));
	}

	/**
	 * Switches a connected client to the echo.
	 * @param client the client
	 * @param path the echo's path
	 * @return the client, after the 101
	 * @throws IOException if the connection failed
	 */
	static RawClient switchTo(RawClient client, String path) throws IOException {
		client.send("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n");
		RawResponse switched = client.read();
		assertThat(switched.status()).as("%s", switched).isEqualTo(101);
		return client;
	}

	/**
	 * Connects and switches to the echo, sending bytes along with the request.
	 * @param path the echo's path
	 * @param early what to send in the same write as the request
	 * @return the client, after the 101
	 * @throws IOException if the connection failed
	 */
	RawClient open(String path, String early) throws IOException {
		RawClient client = connect();
		client.send("GET " + path + " HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: echo\r\n\r\n"
				+ early);
		RawResponse switched = client.read();
		assertThat(switched.status()).as("%s", switched).isEqualTo(101);
		return client;
	}

	/**
	 * Sends bytes through a tunnel and reads them back.
	 * @param client the client
	 * @param text what to send
	 * @throws IOException if the connection failed
	 */
	static void assertEchoes(RawClient client, String text) throws IOException {
		client.send(text);
		assertThat(text(client.take(text.length()))).isEqualTo(text);
	}

	static String text(byte[] bytes) {
		return new String(bytes, StandardCharsets.ISO_8859_1);
	}

	/**
	 * The echo with non-blocking callbacks: reads while the response may be written, writes what
	 * it read, and ends when the client closes its side. At most one callback is armed at a time
	 * (the writer's, or else the reader's), so the pump never runs twice at once.
	 */
	private void echo(Response response) throws IOException {
		AsyncResponse tunnel = response.upgrade();
		OutputStream out = response.outputStream();
		// the 101 leaves before another thread may write: this thread hands the response over
		out.flush();
		byte[] buffer = new byte[8192];
		Runnable pump = () -> {
			try {
				while (true) {
					if (!tunnel.writable()) {
						this.notWritable.incrementAndGet();
						return;
					}
					if (!tunnel.readable()) {
						return;
					}
					int n = tunnel.read(buffer, 0, buffer.length);
					if (n < 0) {
						tunnel.complete();
						return;
					}
					out.write(buffer, 0, n);
					out.flush();
				}
			}
			catch (IOException ex) {
				tunnel.abort(ex);
			}
		};
		tunnel.onReadable(pump);
		tunnel.onWritable(pump);
		this.outputs.add(out);
		this.opened.add(tunnel);
		tunnel.execute(pump);
	}

	/** The echo with blocking reads and writes, inside the handler, which ends with the tunnel. */
	private void echoBlocking(Request request, Response response) throws IOException {
		response.header("Upgrade", "blocking-echo");
		AsyncResponse tunnel = response.upgrade();
		OutputStream out = response.outputStream();
		out.flush();
		byte[] buffer = new byte[8192];
		int n;
		while ((n = request.body().read(buffer)) >= 0) {
			out.write(buffer, 0, n);
			out.flush();
		}
		tunnel.complete();
	}

	/** Tries to switch, and answers 409 with the reason when the request cannot. */
	private static void tryUpgrade(Request request, Response response) {
		try {
			response.upgrade().complete();
		}
		catch (IllegalStateException ex) {
			response.status(409);
			response.send(ex.getMessage());
		}
	}

}
