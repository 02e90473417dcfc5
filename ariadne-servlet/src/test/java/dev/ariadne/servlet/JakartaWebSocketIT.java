package dev.ariadne.servlet;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocketHandshakeException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.Principal;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.ariadne.JdkWebSocket;
import dev.ariadne.WsRaw;
import jakarta.servlet.Filter;
import jakarta.servlet.ServletContext;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpSession;
import jakarta.websocket.CloseReason;
import jakarta.websocket.DecodeException;
import jakarta.websocket.Decoder;
import jakarta.websocket.DeploymentException;
import jakarta.websocket.Encoder;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.OnClose;
import jakarta.websocket.OnMessage;
import jakarta.websocket.OnOpen;
import jakarta.websocket.Session;
import jakarta.websocket.server.PathParam;
import jakarta.websocket.server.ServerContainer;
import jakarta.websocket.server.ServerEndpoint;
import jakarta.websocket.server.ServerEndpointConfig;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.server.IoModel;
import dev.ariadne.servlet.websocket.JakartaWebSocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Jakarta WebSocket on the servlet container ({@link JakartaWebSocket}: Tyrus's engine on the
 * servlet upgrade) in every model, driven by the JDK's {@code java.net.http.WebSocket}: an
 * annotated endpoint with path parameters, encoders and decoders, a programmatic one answering
 * through the async and the basic remote, {@code upgradeHttpToWebSocket} from a servlet for an
 * endpoint that is not deployed, close codes both ways, messages over the 64 KiB default
 * limit refused with 1009, in one frame of 16 MB or in fragments, and text that is not UTF-8
 * refused with 1007 at its first invalid byte (a raw client).
 */
@ParameterizedClass(name = "{0}")
@EnumSource(IoModel.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class JakartaWebSocketIT {

	static final BlockingQueue<String> serverCloses = new LinkedBlockingQueue<>();

	/** The HTTP session the authenticating filter made last. */
	static volatile HttpSession lastSession;

	private final IoModel model;

	private ServletServer server;

	JakartaWebSocketIT(IoModel model) {
		this.model = model;
	}

	@BeforeEach
	void start() throws ServletException {
		serverCloses.clear();
		this.server = ServletServer.start(this.model, ServletDeployment.builder()
			.initializer(new JakartaWebSocket())
			.initializer(JakartaWebSocketIT::deploy), (config) -> config.maxThreads(8));
	}

	@AfterEach
	void stop() {
		if (this.server != null) {
			this.server.close();
		}
	}

	private static void deploy(ServletContext context) throws ServletException {
		ServerContainer container = (ServerContainer) context.getAttribute(JakartaWebSocket.ATTRIBUTE);
		try {
			container.addEndpoint(Rooms.class);
			container.addEndpoint(Points.class);
			container.addEndpoint(ServerEndpointConfig.Builder.create(Echo.class, "/echo").build());
			container.addEndpoint(ServerEndpointConfig.Builder.create(Idle.class, "/idle").build());
		}
		catch (DeploymentException ex) {
			throw new ServletException(ex);
		}
		// authenticates a request that names its user, in an HTTP session, ahead of the container's filter
		context.addFilter("user", (Filter) (request, response, chain) -> {
			HttpServletRequest http = (HttpServletRequest) request;
			String user = http.getHeader("X-User");
			if (user == null) {
				chain.doFilter(request, response);
				return;
			}
			lastSession = http.getSession(true);
			chain.doFilter(new HttpServletRequestWrapper(http) {

				@Override
				public Principal getUserPrincipal() {
					return () -> user;
				}

			}, response);
		}).addMappingForUrlPatterns(null, false, "/*");
		context.addServlet("dynamic", Servlets.of((request, response) -> {
			String id = request.getPathInfo().substring(1);
			ServerEndpointConfig config = ServerEndpointConfig.Builder.create(Echo.class, "/dynamic/{id}")
				.configurator(new ServerEndpointConfig.Configurator() {

					@Override
					@SuppressWarnings("unchecked")
					public <T> T getEndpointInstance(Class<T> endpointClass) {
						return (T) new Echo();
					}

				})
				.build();
			try {
				container.upgradeHttpToWebSocket(request, response, config, Map.of("id", id));
			}
			catch (DeploymentException ex) {
				throw new ServletException(ex);
			}
		})).addMapping("/dynamic/*");
	}

	private URI uri(String path) {
		return URI.create("ws://127.0.0.1:" + this.server.port() + path);
	}

	@Test
	void annotatedEndpointGetsItsPathParametersAndQueryAndTheClientsCloseCode() throws Exception {
		try (JdkWebSocket client = JdkWebSocket.open(uri("/rooms/blue?colour=navy"))) {
			assertThat(client.send("hello").nextText()).isEqualTo("blue:hello");
			assertThat(client.send("whoami").nextText()).isEqualTo("ws /rooms/blue colour=navy [navy]");
			client.socket().sendClose(4000, "bye").get(20, TimeUnit.SECONDS);
			assertThat(client.closeCode()).as("the server answers the close with its code").isEqualTo(4000);
			assertThat(serverCloses.poll(20, TimeUnit.SECONDS)).isEqualTo("rooms 4000 bye");
		}
	}

	@Test
	void encodersAndDecodersTurnMessagesIntoObjects() throws Exception {
		try (JdkWebSocket client = JdkWebSocket.open(uri("/points"))) {
			assertThat(client.send("3,4").nextText()).isEqualTo("6,8");
			assertThat(client.send("-1,10").nextText()).isEqualTo("-2,20");
		}
	}

	@Test
	void programmaticEndpointAnswersThroughTheAsyncAndTheBasicRemote() throws Exception {
		try (JdkWebSocket client = JdkWebSocket.open(uri("/echo"))) {
			for (int i = 0; i < 200; i++) {
				assertThat(client.send("message " + i).nextText()).isEqualTo("echo:message " + i);
			}
			byte[] bytes = new byte[70_000 / 2];
			new java.util.Random(7).nextBytes(bytes);
			assertThat(client.send(ByteBuffer.wrap(bytes)).next()).isEqualTo(ByteBuffer.wrap(bytes));
		}
	}

	@Test
	void upgradeHttpToWebSocketSwitchesARequestToAnEndpointThatIsNotDeployed() throws Exception {
		try (JdkWebSocket client = JdkWebSocket.open(uri("/dynamic/7?a=b"))) {
			assertThat(client.send("where").nextText()).isEqualTo("7 /dynamic/7 a=b");
			assertThat(client.send("again").nextText()).isEqualTo("echo:again");
			client.socket().sendClose(1000, "").get(20, TimeUnit.SECONDS);
			assertThat(client.closeCode()).isEqualTo(1000);
			assertThat(serverCloses.poll(20, TimeUnit.SECONDS)).isEqualTo("echo 1000 ");
		}
	}

	@Test
	void theServerClosesWithItsOwnCode() throws Exception {
		try (JdkWebSocket client = JdkWebSocket.open(uri("/rooms/red"))) {
			client.send("close");
			assertThat(client.closeCode()).isEqualTo(4001);
			assertThat(serverCloses.poll(20, TimeUnit.SECONDS)).isEqualTo("rooms 4001 asked to");
		}
	}

	@Test
	void refusesAMessageOfOneFrameOverTheLimitWith1009() throws Exception {
		try (JdkWebSocket client = JdkWebSocket.open(uri("/rooms/big"))) {
			client.socket().sendText("x".repeat(16 * 1024 * 1024), true);
			assertThat(client.closeCode()).isEqualTo(1009);
			assertThat(serverCloses.poll(20, TimeUnit.SECONDS)).startsWith("rooms 1009 ");
		}
	}

	@Test
	void refusesAMessageInFragmentsOverTheLimitWith1009() throws Exception {
		try (JdkWebSocket client = JdkWebSocket.open(uri("/rooms/fragments"))) {
			String part = "y".repeat(40 * 1024);
			client.socket().sendText(part, false).get(20, TimeUnit.SECONDS);
			client.socket().sendText(part, true).get(20, TimeUnit.SECONDS);
			assertThat(client.closeCode()).isEqualTo(1009);
			assertThat(serverCloses.poll(20, TimeUnit.SECONDS)).startsWith("rooms 1009 ");
		}
	}

	@Test
	void refusesTextThatIsNotUtf8AtItsFirstInvalidByte() throws Exception {
		byte[] text = utf8("fine so far \u20ac, then ", new byte[] { (byte) 0xf4, (byte) 0x90 }, "and more");
		int invalid = text.length - "and more".length() - 1;
		try (WsRaw raw = WsRaw.connect(this.server.port(), "/echo")) {
			assertThat(raw.head).startsWith("HTTP/1.1 101");
			// one frame, stopped just after its first invalid byte (U+10FFFF is the last code point)
			byte[] frame = WsRaw.frame(0x1, true, text, true);
			raw.write(frame, 0, frame.length - text.length + invalid + 1);
			assertThat(raw.readClose().closeCode()).isEqualTo(1007);
		}
		assertThat(serverCloses.poll(20, TimeUnit.SECONDS)).startsWith("echo 1007 ");
		try (WsRaw raw = WsRaw.connect(this.server.port(), "/echo")) {
			// a fragment that ends inside a sequence, then one that breaks it; the message never ends
			raw.send(0x1, false, utf8("euro: ", new byte[] { (byte) 0xe2, (byte) 0x82 }, ""), true);
			raw.send(0x0, false, new byte[] { 'A' }, true);
			assertThat(raw.readClose().closeCode()).isEqualTo(1007);
		}
		assertThat(serverCloses.poll(20, TimeUnit.SECONDS)).startsWith("echo 1007 ");
		try (JdkWebSocket client = JdkWebSocket.open(uri("/echo"))) {
			assertThat(client.send("still served: \u20ac \ud83d\ude00").nextText())
				.isEqualTo("echo:still served: \u20ac \ud83d\ude00");
		}
	}

	private static byte[] utf8(String before, byte[] middle, String after) {
		byte[] head = before.getBytes(StandardCharsets.UTF_8);
		byte[] tail = after.getBytes(StandardCharsets.UTF_8);
		byte[] bytes = Arrays.copyOf(head, head.length + middle.length + tail.length);
		System.arraycopy(middle, 0, bytes, head.length, middle.length);
		System.arraycopy(tail, 0, bytes, head.length + middle.length, tail.length);
		return bytes;
	}

	@Test
	void acceptsAMessageJustUnderTheLimit() throws Exception {
		try (JdkWebSocket client = JdkWebSocket.open(uri("/rooms/edge"))) {
			String message = "z".repeat(64 * 1024 - 5);
			assertThat(client.send(message).nextText()).isEqualTo("edge:" + message);
		}
	}

	@Test
	void aSessionIdleLongerThanItsTimeoutIsClosedByTheContainer() throws Exception {
		try (JdkWebSocket client = JdkWebSocket.open(uri("/idle"))) {
			for (int i = 0; i < 3; i++) {
				// each message restarts the 500 ms timeout
				assertThat(client.send("ping " + i).nextText()).isEqualTo("ping " + i);
				Thread.sleep(100);
			}
			assertThat(client.closeCode()).as("Tyrus sends 1000 for its 1006").isEqualTo(1000);
			assertThat(client.closeReason()).contains("idle timeout");
			// 1006 and the timeout, or 1000 when Tyrus read the client's answer to its close first
			assertThat(serverCloses.poll(20, TimeUnit.SECONDS)).startsWith("idle ");
		}
	}

	@Test
	void anAuthenticatedSessionClosesWith1008WhenItsHttpSessionEnds() throws Exception {
		lastSession = null;
		try (JdkWebSocket client = JdkWebSocket.open(HttpClient.newHttpClient(), uri("/rooms/private"),
				Map.of("X-User", "alice"))) {
			assertThat(client.send("hello").nextText()).isEqualTo("private:hello");
			lastSession.invalidate();
			assertThat(client.closeCode()).isEqualTo(1008);
			assertThat(serverCloses.poll(20, TimeUnit.SECONDS)).startsWith("rooms 1008 ");
		}
	}

	@Test
	void aPathNoEndpointServesGoesToTheServletsAndIsNotFound() {
		assertThatThrownBy(() -> JdkWebSocket.open(uri("/nowhere")))
			.isInstanceOfAny(ExecutionException.class, CompletionException.class)
			.cause()
			.isInstanceOf(WebSocketHandshakeException.class)
			.satisfies((failure) -> assertThat(((WebSocketHandshakeException) failure).getResponse().statusCode())
				.isEqualTo(404));
	}

	/** Echoes in a room: the path parameter, the query, and closing when asked. */
	@ServerEndpoint("/rooms/{room}")
	public static class Rooms {

		@OnMessage
		public String message(String message, Session session, @PathParam("room") String room) throws IOException {
			if (message.equals("close")) {
				session.close(new CloseReason(CloseReason.CloseCodes.getCloseCode(4001), "asked to"));
				return null;
			}
			if (message.equals("whoami")) {
				URI uri = session.getRequestURI();
				return uri.getScheme() + " " + uri.getRawPath() + " " + session.getQueryString() + " "
						+ session.getRequestParameterMap().get("colour");
			}
			return room + ":" + message;
		}

		@OnClose
		public void closed(CloseReason reason) {
			serverCloses.add("rooms " + reason.getCloseCode().getCode() + " " + reason.getReasonPhrase());
		}

	}

	/** Doubles points, decoded from and encoded to {@code x,y}. */
	@ServerEndpoint(value = "/points", decoders = PointCodec.class, encoders = PointCodec.class)
	public static class Points {

		@OnMessage
		public Point message(Point point) {
			return new Point(point.x() * 2, point.y() * 2);
		}

	}

	/** A point. */
	public record Point(int x, int y) {
	}

	/** {@code x,y} to and from a {@link Point}. */
	public static class PointCodec implements Decoder.Text<Point>, Encoder.Text<Point> {

		@Override
		public Point decode(String s) throws DecodeException {
			String[] parts = s.split(",");
			return new Point(Integer.parseInt(parts[0].trim()), Integer.parseInt(parts[1].trim()));
		}

		@Override
		public boolean willDecode(String s) {
			return s.indexOf(',') > 0;
		}

		@Override
		public String encode(Point point) {
			return point.x() + "," + point.y();
		}

		@Override
		public void init(EndpointConfig config) {
		}

		@Override
		public void destroy() {
		}

	}

	/** Echoes text, and lets the container close it after 500 ms without a message. */
	public static class Idle extends Endpoint {

		@Override
		public void onOpen(Session session, EndpointConfig config) {
			session.setMaxIdleTimeout(500);
			session.addMessageHandler(String.class,
					(MessageHandler.Whole<String>) (message) -> session.getAsyncRemote().sendText(message));
		}

		@Override
		public void onClose(Session session, CloseReason reason) {
			serverCloses.add("idle " + reason.getCloseCode().getCode() + " " + reason.getReasonPhrase());
		}

	}

	/** Echoes text through the async remote and bytes through the basic one. */
	public static class Echo extends Endpoint {

		@Override
		public void onOpen(Session session, EndpointConfig config) {
			session.addMessageHandler(String.class, (MessageHandler.Whole<String>) (message) -> {
				String answer = message.equals("where")
						? session.getPathParameters().get("id") + " " + session.getRequestURI().getRawPath() + " "
								+ session.getQueryString()
						: "echo:" + message;
				session.getAsyncRemote().sendText(answer);
			});
			session.addMessageHandler(ByteBuffer.class, (MessageHandler.Whole<ByteBuffer>) (message) -> {
				try {
					session.getBasicRemote().sendBinary(message);
				}
				catch (IOException ex) {
					throw new java.io.UncheckedIOException(ex);
				}
			});
		}

		@Override
		public void onClose(Session session, CloseReason reason) {
			serverCloses.add("echo " + reason.getCloseCode().getCode() + " " + reason.getReasonPhrase());
		}

	}

}
