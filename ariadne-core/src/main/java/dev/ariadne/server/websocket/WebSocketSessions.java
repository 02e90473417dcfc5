package dev.ariadne.server.websocket;

import java.io.OutputStream;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

import dev.ariadne.server.AsyncResponse;
import dev.ariadne.server.Request;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.WebSocketConfig;
import dev.ariadne.server.WebSocketTally;
import dev.ariadne.websocket.CloseCode;
import dev.ariadne.websocket.PerMessageDeflate;
import dev.ariadne.websocket.WebSocketLimits;

/**
 * The WebSocket sessions of one listener: how many are open against
 * {@code websocket.max-sessions}, the messages they carried, the read buffers they borrow while
 * they read, and the one timer that enforces every session's idle timeout and sends its
 * keep-alive pings (a sweep a fraction of a second apart on a daemon thread of its own, started
 * with the first session), and the close with 1001 that a shutdown begins.
 *
 * <p>Made by the server for its routes' {@link WebSocketHandler}s, and for the sessions another
 * implementation runs on its exchanges ({@link #tally()}: the servlet container's Jakarta
 * WebSocket), which count here too, against the same limit, while their timeouts and their close
 * stay that implementation's; read by its statistics. Thread-safe.
 */
public final class WebSocketSessions {

	private static final Logger logger = System.getLogger(WebSocketSessions.class.getName());

	/** How long a closing handshake may wait for the client's close frame before the server closes. */
	static final long CLOSE_TIMEOUT_NANOS = TimeUnit.SECONDS.toNanos(5);

	/** The longest a shutdown waits for the close frames to be written. */
	private static final long SHUTDOWN_WAIT_NANOS = TimeUnit.SECONDS.toNanos(1);

	/** The size of the buffer a session reads into, borrowed while it reads. */
	static final int READ_BUFFER = 8192;

	/** Read buffers kept for reuse. */
	private static final int KEPT_BUFFERS = 64;

	private final String name;

	private final WebSocketConfig config;

	private final WebSocketLimits limits;

	private final Set<Session> open = ConcurrentHashMap.newKeySet();

	private final AtomicInteger count = new AtomicInteger();

	private final LongAdder messagesIn = new LongAdder();

	private final LongAdder messagesOut = new LongAdder();

	private final AtomicLong refused = new AtomicLong();

	private final ConcurrentLinkedQueue<byte[]> buffers = new ConcurrentLinkedQueue<>();

	private final AtomicInteger keptBuffers = new AtomicInteger();

	private final Object timerLock = new Object();

	private ScheduledExecutorService timer;

	private volatile boolean shuttingDown;

	/**
	 * Creates the sessions of a listener.
	 * @param config the listener's configuration: its name and its {@code websocket.*} settings
	 */
	public WebSocketSessions(ServerConfig config) {
		this(config.name(), config.webSocket());
	}

	WebSocketSessions(String name, WebSocketConfig config) {
		this.name = name;
		this.config = config;
		this.limits = new WebSocketLimits(config.maxFrameSize(), config.maxMessageSize());
	}

	/**
	 * Returns the settings the sessions follow.
	 * @return the {@code websocket.*} settings
	 */
	public WebSocketConfig config() {
		return this.config;
	}

	WebSocketLimits limits() {
		return this.limits;
	}

	/**
	 * Returns the sessions open now.
	 * @return the count
	 */
	public int active() {
		return this.count.get();
	}

	/**
	 * Returns the messages the sessions received since start, each counted once whole.
	 * @return the count
	 */
	public long messagesIn() {
		return this.messagesIn.sum();
	}

	/**
	 * Returns the messages the sessions sent since start, each counted once whole.
	 * @return the count
	 */
	public long messagesOut() {
		return this.messagesOut.sum();
	}

	/**
	 * Returns the handshakes refused with 503 since start: over {@code websocket.max-sessions},
	 * or during a shutdown.
	 * @return the count
	 */
	public long refused() {
		return this.refused.get();
	}

	/**
	 * Takes a place for a new session, unless the limit is reached or the server shuts down
	 * (the refusal is counted).
	 * @return whether the session may open
	 */
	boolean reserve() {
		int max = this.config.maxSessions();
		while (true) {
			int now = this.count.get();
			if (this.shuttingDown || (max > 0 && now >= max)) {
				this.refused.incrementAndGet();
				return false;
			}
			if (this.count.compareAndSet(now, now + 1)) {
				return true;
			}
		}
	}

	/**
	 * Takes a place for a session that an implementation other than the server's own runs on an
	 * upgraded exchange ({@link dev.ariadne.server.Response#countWebSocket()}), unless the limit is
	 * reached or the server shuts down (the refusal is counted).
	 * @return the session's tally, or {@code null} when refused
	 */
	public WebSocketTally tally() {
		return reserve() ? new TalliedSession(this) : null;
	}

	/** Gives back a place reserved for a session that did not open, or for a tallied session that ended. */
	/**
	 * Runs a session of the server's own on an exchange that another implementation switched to
	 * WebSocket (the servlet container's Jakarta WebSocket, which answers the handshake through
	 * the servlet response): in the place its tally took, among these sessions (their meters,
	 * timeouts, pings and shutdown) until it ends. Call once the {@code 101} is out, on the thread
	 * that switched protocols.
	 * @param place the place the handshake took ({@link dev.ariadne.server.Response#countWebSocket()})
	 * @param request the handshake request
	 * @param exchange the upgraded exchange
	 * @param out the exchange's stream
	 * @param listener the session's listener
	 * @param subprotocol the subprotocol agreed to, or {@code null}
	 * @param deflate the permessage-deflate agreed to, or {@code null}
	 * @param limits what the client may send
	 * @return the session, open (its listener's {@code onOpen} has run)
	 * @throws IllegalArgumentException if the place is not one of the server's
	 * @throws IllegalStateException if the place was given back
	 */
	public static WebSocketSession open(WebSocketTally place, Request request, AsyncResponse exchange,
			OutputStream out, WebSocketListener listener, String subprotocol, PerMessageDeflate deflate,
			WebSocketLimits limits) {
		if (!(place instanceof TalliedSession tallied)) {
			throw new IllegalArgumentException("Not a place among the server's WebSocket sessions: " + place);
		}
		return tallied.open(request, exchange, out, listener, subprotocol, deflate, limits);
	}

	void unreserve() {
		this.count.decrementAndGet();
	}

	/** A session opened on a reserved place. */
	void opened(Session session) {
		this.open.add(session);
		startTimer();
		if (this.shuttingDown) {
			session.closeFromOutside(CloseCode.GOING_AWAY, "Server shutting down");
		}
	}

	/** A session ended; once per session. */
	void ended(Session session) {
		if (this.open.remove(session)) {
			this.count.decrementAndGet();
		}
	}

	void received() {
		this.messagesIn.increment();
	}

	void sent() {
		this.messagesOut.increment();
	}

	/** Borrows a read buffer. */
	byte[] borrowBuffer() {
		byte[] buffer = this.buffers.poll();
		if (buffer == null) {
			return new byte[READ_BUFFER];
		}
		this.keptBuffers.decrementAndGet();
		return buffer;
	}

	/** Gives a read buffer back; one not given back is left to the garbage collector. */
	void releaseBuffer(byte[] buffer) {
		if (this.keptBuffers.incrementAndGet() <= KEPT_BUFFERS) {
			this.buffers.offer(buffer);
		}
		else {
			this.keptBuffers.decrementAndGet();
		}
	}

	/**
	 * Begins closing every session with 1001 (going away), as a graceful shutdown does first, and
	 * refuses new ones with 503. The close frames are written by workers of the sessions' pools;
	 * this waits until each is written, at most a second (or the grace period, if shorter), so
	 * that they leave before the shutdown stops the pools taking work. A session whose close frame
	 * found no worker in time (every worker of a {@code blocking} pool owned by a session, say)
	 * is closed without one when its close timeout (5 s) or the grace period runs out. The closing
	 * handshakes complete as the clients answer.
	 * @param gracePeriod the shutdown's grace period
	 */
	public void shutdown(Duration gracePeriod) {
		this.shuttingDown = true;
		for (Session session : this.open) {
			session.closeFromOutside(CloseCode.GOING_AWAY, "Server shutting down");
		}
		long wait = Math.min(gracePeriod.toNanos(), SHUTDOWN_WAIT_NANOS);
		long deadline = System.nanoTime() + wait;
		try {
			while (System.nanoTime() - deadline < 0 && !allClosing()) {
				Thread.sleep(5);
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private boolean allClosing() {
		for (Session session : this.open) {
			if (!session.closing()) {
				return false;
			}
		}
		return true;
	}

	/**
	 * Stops the timer, once the server's connections are closed.
	 */
	public void stop() {
		this.shuttingDown = true;
		synchronized (this.timerLock) {
			if (this.timer != null) {
				this.timer.shutdownNow();
			}
		}
	}

	private void startTimer() {
		synchronized (this.timerLock) {
			if (this.timer != null) {
				return;
			}
			ScheduledThreadPoolExecutor timer = new ScheduledThreadPoolExecutor(1, (task) -> {
				Thread thread = new Thread(task, "ariadne-" + this.name + "-websocket-timer");
				thread.setDaemon(true);
				return thread;
			});
			timer.setRemoveOnCancelPolicy(true);
			long period = sweepPeriod(this.config).toNanos();
			timer.scheduleAtFixedRate(this::sweep, period, period, TimeUnit.NANOSECONDS);
			this.timer = timer;
		}
	}

	/** A quarter of the shortest of the timeouts, from 50 ms to 1 s. */
	static Duration sweepPeriod(WebSocketConfig config) {
		Duration shortest = config.idleTimeout();
		if (!config.pingInterval().isZero() && config.pingInterval().compareTo(shortest) < 0) {
			shortest = config.pingInterval();
		}
		long quarter = shortest.toMillis() / 4;
		return Duration.ofMillis(Math.max(50, Math.min(1000, quarter)));
	}

	private void sweep() {
		long now = System.nanoTime();
		long idle = this.config.idleTimeout().toNanos();
		long ping = this.config.pingInterval().toNanos();
		for (Session session : this.open) {
			try {
				session.tick(now, idle, ping);
			}
			catch (RuntimeException ex) {
				logger.log(Level.WARNING, "A WebSocket session's timer failed", ex);
			}
		}
	}

}
