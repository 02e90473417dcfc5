package dev.ariadne.servlet.websocket;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.nio.ByteBuffer;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.function.Consumer;

import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpUpgradeHandler;
import jakarta.servlet.http.WebConnection;
import jakarta.websocket.CloseReason;
import jakarta.websocket.CloseReason.CloseCodes;

import dev.ariadne.server.WebSocketTally;

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
public final class TyrusUpgradeHandler implements HttpUpgradeHandler, ReadListener, OpenSessions.HttpBound {

	private static final Logger logger = System.getLogger(TyrusUpgradeHandler.class.getName());

	/** How long a connection waits for its client to close after the session's close frames. */
	private static final long DRAIN_SECONDS = 5;

	private static final CloseReason CLIENT_WENT_AWAY = new CloseReason(CloseCodes.CLOSED_ABNORMALLY,
			"The client closed the connection without a close frame");

	private static final CloseReason TOO_BIG = new CloseReason(CloseCodes.TOO_BIG,
			"A frame over the size limits");

	private static final CloseReason NOT_UTF8 = new CloseReason(CloseCodes.NOT_CONSISTENT,
			"Text message not valid UTF-8");

	private static final CloseReason GOING_AWAY = new CloseReason(CloseCodes.GOING_AWAY, "The server is stopping");

	private static final AtomicIntegerFieldUpdater<TyrusUpgradeHandler> ENDED = AtomicIntegerFieldUpdater
		.newUpdater(TyrusUpgradeHandler.class, "ended");

	private static final AtomicIntegerFieldUpdater<TyrusUpgradeHandler> CLOSED = AtomicIntegerFieldUpdater
		.newUpdater(TyrusUpgradeHandler.class, "closed");

	private static final CloseReason IDLE = new CloseReason(CloseCodes.GOING_AWAY, "Idle timeout");

	private UpgradeInfo upgrade;

	private FrameGuard guard;

	/** The session's place among the listener's sessions, where its messages are counted. */
	private WebSocketTally tally;

	private ScheduledExecutorService timer;

	private Consumer<TyrusUpgradeHandler> onOpen;

	private Consumer<TyrusUpgradeHandler> onEnd;

	private WebConnection webConnection;

	private ServletInputStream in;

	private volatile Connection connection;

	private volatile ConnectionWriter writer;

	/** When the server last pinged the session ({@link System#nanoTime}); the timer's thread only. */
	private long lastPing;

	/** 1 once the session ended; a field and a static updater, no object per session. */
	private volatile int ended;

	/** Whether the connection was closed; it may close after the session ended ({@link #end}). */
	private volatile int closed;

	private volatile ScheduledFuture<?> drainTimeout;

	/** When the session last read or wrote ({@link System#nanoTime}). */
	private volatile long lastActive = System.nanoTime();

	/** Made by the servlet container when the handshake switches the request's protocol. */
	public TyrusUpgradeHandler() {
	}

	/**
	 * Gives the handler what the handshake decided, before the container calls {@link #init}.
	 * @param upgrade Tyrus's successful handshake
	 * @param guard the frame size limits
	 * @param tally the session's place among the listener's sessions
	 * @param timer the thread that ends a connection whose client does not close after the session
	 * @param onOpen called once when the connection opens, before the endpoint's {@code onOpen}
	 * @param onEnd called once when the session ends
	 */
	void prepare(UpgradeInfo upgrade, FrameGuard guard, WebSocketTally tally, ScheduledExecutorService timer,
			Consumer<TyrusUpgradeHandler> onOpen, Consumer<TyrusUpgradeHandler> onEnd) {
		this.upgrade = upgrade;
		this.guard = guard;
		this.tally = tally;
		this.timer = timer;
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
			this.writer = new ConnectionWriter(webConnection.getOutputStream(), this);
			this.connection = this.upgrade.createConnection(this.writer, (reason) -> end());
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
			while (this.closed == 0 && in.isReady()) {
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
				int accepted = this.guard.accept(bytes, 0, count);
				if (this.ended != 0) {
					// the server closed first: dropped until the client's close frame
					if (this.guard.closeSeen()) {
						closeConnection();
					}
					continue;
				}
				this.lastActive = System.nanoTime();
				for (int messages = this.guard.messagesEnded(); messages > 0; messages--) {
					this.tally.received();
				}
				if (accepted > 0) {
					connection.getReadHandler().handle(ByteBuffer.wrap(bytes, 0, accepted));
				}
				if (accepted < count) {
					connection.close((this.guard.refusal() == FrameGuard.NOT_UTF8) ? NOT_UTF8 : TOO_BIG);
					end();
					// the rest of the frame is dropped as it comes, until the client's close frame
				}
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
	@Override
	public void httpSessionEnded() {
		closeWith(new CloseReason(CloseCodes.VIOLATED_POLICY, "The HTTP session ended"));
	}

	/** Closes the session because the server stops: with 1001 (going away). */
	void goingAway() {
		closeWith(GOING_AWAY);
	}

	/** Closes the session because it was quiet for the container's idle timeout: with 1001. */
	void idleTimeout() {
		closeWith(IDLE);
	}

	/**
	 * Pings the session if it has been quiet, pings aside, for the interval
	 * ({@code websocket.ping-interval}); the timer's thread, as for the idle timeout's close.
	 * @param now the time, as {@link System#nanoTime}
	 * @param intervalNanos the interval
	 */
	void pingIfQuiet(long now, long intervalNanos) {
		ConnectionWriter writer = this.writer;
		if (writer != null && this.ended == 0 && now - Math.max(this.lastActive, this.lastPing) > intervalNanos) {
			this.lastPing = now;
			writer.ping();
		}
	}

	/** Tyrus closed its side of the connection: the session ends. */
	void closedByTyrus() {
		end();
	}

	/**
	 * The session wrote a frame: its idle time starts again, and the last frame of a message
	 * counts the message as sent.
	 * @param first the frame's first byte: its FIN bit and opcode
	 */
	void wrote(byte first) {
		this.lastActive = System.nanoTime();
		// FIN set, and a continuation, text or binary frame (RFC 6455 section 5.2)
		if ((first & 0x80) != 0 && (first & 0x0F) <= 0x2) {
			this.tally.sent();
		}
	}

	/**
	 * Returns when the session last read or wrote.
	 * @return the time, as {@link System#nanoTime}
	 */
	long lastActive() {
		return this.lastActive;
	}

	private void closeWith(CloseReason reason) {
		Connection connection = this.connection;
		if (connection != null && this.ended == 0) {
			connection.close(reason);
			end();
		}
	}

	/** Tells the session, if still open, that it ended without a closing handshake; then closes. */
	private void closeAbnormally(CloseReason reason) {
		Connection connection = this.connection;
		if (connection != null && this.ended == 0) {
			// an open session reports 1006 to its endpoint; Tyrus never puts 1006 on the wire
			connection.close(reason);
		}
		endSession();
		closeConnection();
	}

	/**
	 * The session ended with a close frame, the server's or the client's. After the client's the
	 * closing handshake is over and the connection closes at once, the server first (RFC 6455
	 * §7.1.1). After the server's alone, what the client still sends is read and dropped until
	 * its close frame, its end, or {@value #DRAIN_SECONDS} s: closing with input unread resets
	 * the connection, and the reset can destroy the close frame before the client reads it (a
	 * client still sending a message refused with 1009, say).
	 */
	private void end() {
		if (!endSession()) {
			return;
		}
		if (this.guard.closeSeen()) {
			closeConnection();
			return;
		}
		ScheduledExecutorService timer = this.timer;
		try {
			this.drainTimeout = timer.schedule(this::closeConnection, DRAIN_SECONDS, TimeUnit.SECONDS);
		}
		catch (RuntimeException ex) {
			// no timer (the container stops): closed at once
			closeConnection();
		}
	}

	/** Ends the session, once: returns whether this call did. */
	private boolean endSession() {
		if (!ENDED.compareAndSet(this, 0, 1)) {
			return false;
		}
		this.tally.end();
		Consumer<TyrusUpgradeHandler> onEnd = this.onEnd;
		if (onEnd != null) {
			onEnd.accept(this);
		}
		return true;
	}

	private void closeConnection() {
		if (!CLOSED.compareAndSet(this, 0, 1)) {
			return;
		}
		ScheduledFuture<?> drainTimeout = this.drainTimeout;
		if (drainTimeout != null) {
			drainTimeout.cancel(false);
		}
		try {
			this.webConnection.close();
		}
		catch (Exception ex) {
			logger.log(Level.DEBUG, "An upgraded connection failed to close", ex);
		}
	}

}
