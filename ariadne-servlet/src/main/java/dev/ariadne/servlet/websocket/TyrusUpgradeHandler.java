package dev.ariadne.servlet.websocket;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.WebConnection;
import jakarta.websocket.CloseReason;
import jakarta.websocket.CloseReason.CloseCodes;

import org.glassfish.tyrus.spi.Connection;
import org.glassfish.tyrus.spi.WebSocketEngine.UpgradeInfo;

/**
 * One WebSocket session's connection after its handshake: the servlet upgrade's
 * {@link WebConnection} under Tyrus's {@link Connection}. What the client sends is read by a
 * {@link ReadListener}, so that no thread waits for an idle session where the model has none
 * waiting ({@code event-loop}), and handed to Tyrus, which calls the endpoint on that thread;
 * what Tyrus writes goes out through a {@link ConnectionWriter}.
 *
 * <p>Made by the servlet container ({@code HttpServletRequest.upgrade}), which needs a public
 * class with a public no-argument constructor; the handshake gives it what it needs before its
 * {@link #init}. Not for applications.
 */
public final class TyrusUpgradeHandler implements HttpUpgradeHandler, ReadListener {

	private static final Logger logger = System.getLogger(TyrusUpgradeHandler.class.getName());

	private static final CloseReason CLIENT_WENT_AWAY = new CloseReason(CloseCodes.CLOSED_ABNORMALLY,
			"The client closed the connection without a close frame");

	private static final CloseReason TOO_BIG = new CloseReason(CloseCodes.TOO_BIG,
			"A frame over the message size limit");

	private static final CloseReason GOING_AWAY = new CloseReason(CloseCodes.GOING_AWAY, "The server is stopping");

	private UpgradeInfo upgrade;

	private FrameGuard guard;

	private Consumer<TyrusUpgradeHandler> onOpen;

	private Consumer<TyrusUpgradeHandler> onEnd;

	private WebConnection webConnection;

	private ServletInputStream in;

	private volatile Connection connection;

	private final AtomicBoolean ended = new AtomicBoolean();

	/** Made by the servlet container when the handshake switches the request's protocol. */
	public TyrusUpgradeHandler() {
	}

	/**
	 * Gives the handler what the handshake decided, before the container calls {@link #init}.
	 * @param upgrade Tyrus's successful handshake
	 * @param guard the frame size limits
	 * @param onOpen called once when the connection opens, before the endpoint's {@code onOpen}
	 * @param onEnd called once when the connection ends
	 */
	void prepare(UpgradeInfo upgrade, FrameGuard guard, Consumer<TyrusUpgradeHandler> onOpen,
			Consumer<TyrusUpgradeHandler> onEnd) {
		this.upgrade = upgrade;
		this.guard = guard;
		this.onOpen = onOpen;
		this.onEnd = onEnd;
	}

	@Override
	public void init(WebConnection webConnection) {
		this.webConnection = webConnection;
		try {
			this.in = webConnection.getInputStream();
			// the container holds the reader's callbacks until init has returned
			this.in.setReadListener(this);
			this.onOpen.accept(this);
			// the endpoint's onOpen runs here: it may send, and may close the session
			this.connection = this.upgrade.createConnection(
					new ConnectionWriter(webConnection, webConnection.getOutputStream()), (reason) -> end());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		finally {
			this.upgrade = null;
			this.onOpen = null;
		}
	}

	@Override
	public void onDataAvailable() {
		Connection connection = this.connection;
		ServletInputStream in = this.in;
		try {
			while (!this.ended.get() && in.isReady()) {
				// what was fetched from the connection, at most the container's input buffer:
				// Tyrus copies what it keeps, so nothing stays allocated for an idle session
				byte[] bytes = new byte[Math.max(in.available(), 1)];
				int count = in.read(bytes);
				if (count < 0) {
					return;
				}
				if (count == 0) {
					continue;
				}
				if (!this.guard.accept(bytes, 0, count)) {
					connection.close(TOO_BIG);
					end();
					return;
				}
				connection.getReadHandler().handle(ByteBuffer.wrap(bytes, 0, count));
			}
		}
		catch (IOException ex) {
			// the connection broke (reset, closed by a stop): the session ends without a close frame
			onError(ex);
		}
	}

	@Override
	public void onAllDataRead() {
		closeAbnormally(CLIENT_WENT_AWAY);
	}

	@Override
	public void onError(Throwable failure) {
		logger.log(Level.DEBUG, "Reading a WebSocket connection failed", failure);
		closeAbnormally(new CloseReason(CloseCodes.CLOSED_ABNORMALLY, "Reading the connection failed"));
	}

	/** The connection ended (closed by either side, or by the server): the session, if open, ends too. */
	@Override
	public void destroy() {
		closeAbnormally(new CloseReason(CloseCodes.CLOSED_ABNORMALLY, "The connection was closed"));
	}

	/**
	 * Closes the session as the Jakarta WebSocket specification asks when its HTTP session ends:
	 * with 1008 (policy violation).
	 */
	void httpSessionEnded() {
		closeWith(new CloseReason(CloseCodes.VIOLATED_POLICY, "The HTTP session ended"));
	}

	/** Closes the session because the server stops: with 1001 (going away). */
	void goingAway() {
		closeWith(GOING_AWAY);
	}

	private void closeWith(CloseReason reason) {
		Connection connection = this.connection;
		if (connection != null && !this.ended.get()) {
			connection.close(reason);
			end();
		}
	}

	/** Tells the session, if still open, that it ended without a closing handshake; then closes. */
	private void closeAbnormally(CloseReason reason) {
		Connection connection = this.connection;
		if (connection != null && !this.ended.get()) {
			// an open session reports 1006 to its endpoint; Tyrus never puts 1006 on the wire
			connection.close(reason);
		}
		end();
	}

	private void end() {
		if (!this.ended.compareAndSet(false, true)) {
			return;
		}
		Consumer<TyrusUpgradeHandler> onEnd = this.onEnd;
		if (onEnd != null) {
			onEnd.accept(this);
		}
		try {
			this.webConnection.close();
		}
		catch (Exception ex) {
			logger.log(Level.DEBUG, "An upgraded connection failed to close", ex);
		}
	}

}
