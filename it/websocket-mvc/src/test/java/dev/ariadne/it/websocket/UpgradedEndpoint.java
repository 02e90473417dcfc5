package dev.ariadne.it.websocket;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.util.Date;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import jakarta.websocket.CloseReason;
import jakarta.websocket.CloseReason.CloseCodes;
import jakarta.websocket.EncodeException;
import jakarta.websocket.Endpoint;
import jakarta.websocket.EndpointConfig;
import jakarta.websocket.MessageHandler;
import jakarta.websocket.RemoteEndpoint;
import jakarta.websocket.SendResult;
import jakarta.websocket.Session;

/**
 * A programmatic endpoint without encoders or decoders, which {@link UpgradedEndpointController}
 * switches requests to with {@code upgradeHttpToWebSocket}. Its path parameter {@code name} says
 * what it does:
 * <ul>
 * <li>{@code int}: a {@code Whole<Integer>} text handler answers the number plus one;</li>
 * <li>{@code partial}: a {@code Partial<String>} handler answers each piece as
 * {@code <last>:<piece>};</li>
 * <li>{@code instream}: a {@code Whole<InputStream>} binary handler echoes the bytes;</li>
 * <li>{@code limit}: a text limit of 10 bytes, set in {@code onOpen}, and a {@code Whole<String>}
 * echo;</li>
 * <li>anything else: a {@code Whole<byte[]>} binary echo, and text commands (see
 * {@link #command}) that answer what the session's API does.</li>
 * </ul>
 * A failure reported to {@code onError} is answered as {@code error:<failure>}; each session's
 * close goes into the controller's map, by name.
 */
final class UpgradedEndpoint extends Endpoint {

	/** What the {@code writer} command writes: over 8 KiB, a surrogate pair across the first 8192 chars. */
	static final String WRITTEN = "a".repeat(8191) + "\uD83C\uDF89" + "é€".repeat(5000) + "end";

	/** What the {@code stream} command writes: over 8 KiB. */
	static final byte[] STREAMED = streamed();

	private final Map<String, CloseReason> closes;

	private Session session;

	private String name;

	UpgradedEndpoint(Map<String, CloseReason> closes) {
		this.closes = closes;
	}

	private static byte[] streamed() {
		byte[] bytes = new byte[20_000];
		for (int i = 0; i < bytes.length; i++) {
			bytes[i] = (byte) (i % 251);
		}
		return bytes;
	}

	@Override
	public void onOpen(Session session, EndpointConfig config) {
		this.session = session;
		this.name = session.getPathParameters().get("name");
		switch (this.name) {
			case "int" -> session.addMessageHandler(new MessageHandler.Whole<Integer>() {
				@Override
				public void onMessage(Integer number) {
					text(String.valueOf(number + 1));
				}
			});
			case "partial" -> session.addMessageHandler(new MessageHandler.Partial<String>() {
				@Override
				public void onMessage(String piece, boolean last) {
					text(last + ":" + piece);
				}
			});
			case "instream" -> session.addMessageHandler(new MessageHandler.Whole<InputStream>() {
				@Override
				public void onMessage(InputStream message) {
					try (InputStream in = message) {
						binary(in.readAllBytes());
					}
					catch (IOException ex) {
						throw new UncheckedIOException(ex);
					}
				}
			});
			case "limit" -> {
				session.setMaxTextMessageBufferSize(10);
				session.addMessageHandler(String.class, (String text) -> text(text));
			}
			default -> {
				session.addMessageHandler(new MessageHandler.Whole<String>() {
					@Override
					public void onMessage(String command) {
						try {
							command(command);
						}
						catch (Exception ex) {
							throw new IllegalStateException(ex);
						}
					}
				});
				session.addMessageHandler(byte[].class, (byte[] bytes) -> binary(bytes));
			}
		}
	}

	/**
	 * Answers a command:
	 * <ul>
	 * <li>{@code info}: the path parameter, request URI and query string;</li>
	 * <li>{@code id}: the session's id; {@code sessions}: the ids of the endpoint's open sessions;</li>
	 * <li>{@code put:<value>} and {@code get}: a user property of the session's, and one of the
	 * configuration's;</li>
	 * <li>{@code async-handler}, {@code async-future}: a message through the asynchronous
	 * remote, then how its send ended;</li>
	 * <li>{@code writer}, {@code stream}: {@link #WRITTEN} and {@link #STREAMED} through the
	 * basic remote's writer and stream;</li>
	 * <li>{@code object}: {@code sendObject} of what it can send and of what it cannot;</li>
	 * <li>{@code handlers}: what adding a second text handler, and one of a type without a
	 * decoder, does;</li>
	 * <li>{@code close}: closes with 4000 "bye".</li>
	 * </ul>
	 */
	private void command(String command) throws Exception {
		RemoteEndpoint.Basic basic = this.session.getBasicRemote();
		RemoteEndpoint.Async async = this.session.getAsyncRemote();
		String[] parts = command.split(":", 2);
		switch (parts[0]) {
			case "info" -> basic.sendText("name=" + this.session.getPathParameters().get("name") + " uri="
					+ this.session.getRequestURI() + " query=" + this.session.getQueryString());
			case "id" -> basic.sendText(this.session.getId());
			case "sessions" -> basic.sendText(this.session.getOpenSessions()
				.stream()
				.map(Session::getId)
				.sorted()
				.collect(Collectors.joining(",")));
			case "put" -> {
				this.session.getUserProperties().put("mine", parts[1]);
				basic.sendText("put");
			}
			case "get" -> basic.sendText("mine=" + this.session.getUserProperties().get("mine") + " shared="
					+ this.session.getUserProperties().get("shared"));
			case "async-handler" -> {
				CompletableFuture<SendResult> outcome = new CompletableFuture<>();
				async.sendText("by handler", outcome::complete);
				SendResult result = outcome.get(10, TimeUnit.SECONDS);
				basic.sendText("handler:" + result.isOK() + ":" + result.getException());
			}
			case "async-future" -> {
				Future<Void> sent = async.sendText("by future");
				sent.get(10, TimeUnit.SECONDS);
				basic.sendText("future:" + sent.isDone());
			}
			case "writer" -> {
				try (Writer writer = basic.getSendWriter()) {
					// char by char up to the 8192nd, a high surrogate, then the rest at once
					for (int i = 0; i < 8192; i++) {
						writer.write(WRITTEN.charAt(i));
					}
					writer.write(WRITTEN, 8192, WRITTEN.length() - 8192);
				}
			}
			case "stream" -> {
				try (OutputStream stream = basic.getSendStream()) {
					for (int i = 0; i < STREAMED.length; i += 1000) {
						stream.write(STREAMED, i, Math.min(1000, STREAMED.length - i));
					}
				}
			}
			case "object" -> {
				basic.sendObject(42);
				basic.sendObject(new byte[] { 1, 2, 3 });
				try {
					basic.sendObject(new Object());
					basic.sendText("sent an Object");
				}
				catch (EncodeException ex) {
					basic.sendText("EncodeException");
				}
				try {
					async.sendObject(new Object()).get(10, TimeUnit.SECONDS);
					basic.sendText("async sent an Object");
				}
				catch (ExecutionException ex) {
					basic.sendText("async:" + ex.getCause().getClass().getSimpleName());
				}
			}
			case "handlers" -> {
				String second = outcome(() -> this.session.addMessageHandler(String.class, (String text) -> {
				}));
				String reader = outcome(() -> this.session.addMessageHandler(new MessageHandler.Whole<Reader>() {
					@Override
					public void onMessage(Reader message) {
					}
				}));
				String date = outcome(() -> this.session.addMessageHandler(Date.class, (Date when) -> {
				}));
				basic.sendText("string=" + second + " reader=" + reader + " date=" + date + " handlers="
						+ this.session.getMessageHandlers().size());
			}
			case "close" -> this.session.close(new CloseReason(CloseCodes.getCloseCode(4000), "bye"));
			default -> basic.sendText("unknown command: " + command);
		}
	}

	private static String outcome(Runnable call) {
		try {
			call.run();
			return "added";
		}
		catch (RuntimeException ex) {
			return ex.getClass().getSimpleName();
		}
	}

	private void text(String text) {
		try {
			this.session.getBasicRemote().sendText(text);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private void binary(byte[] bytes) {
		try {
			this.session.getBasicRemote().sendBinary(ByteBuffer.wrap(bytes));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public void onError(Session session, Throwable failure) {
		if (session.isOpen()) {
			try {
				session.getBasicRemote().sendText("error:" + failure);
			}
			catch (IOException | RuntimeException ex) {
				// the session is closing
			}
		}
	}

	@Override
	public void onClose(Session session, CloseReason closeReason) {
		this.closes.put(this.name, closeReason);
	}

}
