package dev.ariadne.server.accesslog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.System.Logger;
import java.lang.System.Logger.Level;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongSupplier;

import dev.ariadne.http.Headers;
import dev.ariadne.http.RequestHead;

/**
 * One listener's access log: the request path copies what a line needs into a slot of a
 * bounded ring ({@link #record}), and a writer thread of its own formats the lines, writes them
 * in batches to its {@link LogOutput}, and rolls the file over.
 *
 * <p>{@link #record} never blocks and never formats: it claims a slot with one compare-and-set
 * (no lock, so workers do not queue behind each other), copies references and numbers into
 * it, and publishes it. When the ring is full, because the output cannot keep up, the line is
 * dropped and counted ({@link #dropped()}) rather than holding up a worker or a selector. The
 * ring's slots are made once, so memory stays within {@code capacity} lines.
 *
 * <p>The writer wakes at least every 10 ms, and at once when a producer finds the ring a quarter
 * full; it writes what it took after each batch, so a line is in its file within about 10 ms
 * when the output keeps up. {@link #close()} takes no more lines, writes every line recorded
 * before it, and closes the output before it returns.
 */
public final class AccessLog implements AutoCloseable {

	/** Default capacity of the ring: 8,192 lines. */
	public static final int DEFAULT_CAPACITY = 8192;

	/** The largest capacity: 1,048,576 lines. */
	public static final int MAX_CAPACITY = 1 << 20;

	private static final Logger logger = System.getLogger(AccessLog.class.getName());

	private static final long PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(10);

	/** Lines are written once this many bytes are waiting, and after each batch. */
	private static final int WRITE_AT = 64 * 1024;

	/** Set in {@link #tail} by {@link #close()}: no slot is claimed after it. */
	private static final long SEALED = Long.MIN_VALUE;

	private static final long CLOSE_TIMEOUT_SECONDS = 10;

	/** How many lines the writer takes before it tells the producers how far it got. */
	private static final int HEAD_EVERY = 64;

	private static final long WARNING_INTERVAL_NANOS = TimeUnit.MINUTES.toNanos(1);

	private final AccessLogFormat format;

	private final LogOutput output;

	private final Clock clock;

	/** The monotonic clock of the request path's time stamps ({@link System#nanoTime()}). */
	private final LongSupplier nanos;

	private final String threadName;

	private final LineContext context;

	private final AccessLogEntry[] slots;

	private final int mask;

	/** The next sequence to claim; {@link #SEALED} is set in it once closed. */
	private final AtomicLong tail = new AtomicLong();

	/**
	 * The next sequence the writer takes: every slot before it is free. Written by the writer,
	 * every {@value #HEAD_EVERY} lines and at the end of each batch.
	 */
	private final AtomicLong head = new AtomicLong();

	/** A value {@link #head} had, at most its current one: what producers check first. */
	private volatile long headSeen;

	private final LongAdder dropped = new LongAdder();

	/** Whether the writer is parked, or about to be; producers wake it when the ring fills. */
	private volatile boolean parked;

	private Thread writer;

	// the writer thread's: when it last logged a failure of the output, and the failures since
	private boolean warned;

	private long lastWarning;

	private int unwarned;

	private final java.util.concurrent.atomic.AtomicBoolean closing = new java.util.concurrent.atomic.AtomicBoolean();

	/**
	 * Creates a log, not yet started.
	 * @param format what a line says
	 * @param output where lines go
	 * @param listener the listener's name, for its thread and the lines that show it
	 * @param ioModel the listener's I/O model, for the lines that show it
	 * @param capacity most lines waiting for the writer; rounded up to a power of two, at most
	 * {@link #MAX_CAPACITY}
	 * @param clock the wall clock of time stamps and file dates, with their zone
	 */
	public AccessLog(AccessLogFormat format, LogOutput output, String listener, String ioModel, int capacity,
			Clock clock) {
		this(format, output, listener, ioModel, capacity, clock, System::nanoTime);
	}

	/** Creates a log reading the monotonic clock from {@code nanos}: for tests of time stamps. */
	AccessLog(AccessLogFormat format, LogOutput output, String listener, String ioModel, int capacity, Clock clock,
			LongSupplier nanos) {
		if (capacity <= 0 || capacity > MAX_CAPACITY) {
			throw new IllegalArgumentException("capacity must be between 1 and " + MAX_CAPACITY + ", but was " + capacity);
		}
		this.format = format;
		this.output = output;
		this.clock = clock;
		this.nanos = nanos;
		this.threadName = "ariadne-" + listener + "-accesslog";
		this.context = new LineContext(listener, ioModel, clock.getZone());
		int size = Integer.highestOneBit(capacity);
		size = (size < capacity) ? size << 1 : size;
		this.slots = new AccessLogEntry[size];
		for (int i = 0; i < size; i++) {
			this.slots[i] = new AccessLogEntry(format.requestFields().length, format.responseFields().length);
		}
		this.mask = size - 1;
	}

	/**
	 * Opens the output and starts the writer thread ({@code ariadne-<listener>-accesslog}).
	 * @throws UncheckedIOException if the output cannot be opened, naming it
	 */
	public void start() {
		try {
			this.output.open(this.clock.millis());
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not open the access log " + this.output + ": " + ex.getMessage(), ex);
		}
		Thread thread = new Thread(this::run, this.threadName);
		thread.setDaemon(true);
		this.writer = thread;
		thread.start();
	}

	/**
	 * Records an ended exchange, on the thread that ended it; never blocks. A line that finds
	 * the ring full, or the log closed, is counted as dropped.
	 * @param head the request's head, or {@code null} when it could not be read
	 * @param remote the client (after forwarded headers)
	 * @param local the server's address
	 * @param status the status sent, or 0 for none
	 * @param bytes the content bytes sent
	 * @param responseFields the response's fields, or {@code null}
	 * @param startNanos when the head was read ({@link System#nanoTime()})
	 * @param endNanos when the exchange ended
	 * @param waitNanos how long it waited for a worker
	 * @param pool the pool that ran it
	 * @param route the route value, as the request event reports it
	 */
	public void record(RequestHead head, InetSocketAddress remote, InetSocketAddress local, int status, long bytes,
			Headers responseFields, long startNanos, long endNanos, long waitNanos, String pool, String route) {
		long sequence = claim();
		if (sequence < 0) {
			this.dropped.increment();
			return;
		}
		AccessLogEntry entry = this.slots[(int) sequence & this.mask];
		if (head != null) {
			entry.method = head.method().name();
			entry.target = head.target();
			entry.pathAndQuery = head.pathAndQuery();
			entry.protocol = head.version().text();
			copy(head.headers(), this.format.requestFields(), entry.requestFields);
		}
		if (responseFields != null) {
			copy(responseFields, this.format.responseFields(), entry.responseFields);
		}
		entry.remote = remote;
		entry.local = local;
		entry.status = status;
		entry.bytes = bytes;
		entry.startNanos = startNanos;
		entry.durationNanos = endNanos - startNanos;
		entry.waitNanos = waitNanos;
		entry.pool = pool;
		entry.route = route;
		entry.published = sequence;
		if (this.parked && sequence - this.head.get() > this.mask >> 2) {
			this.parked = false;
			LockSupport.unpark(this.writer);
		}
	}

	/**
	 * Claims the next slot: its sequence, or -1 when the ring is full or sealed. The writer's
	 * position is read through {@link #headSeen} while the ring is far from full, so that the
	 * request path does not read the line the writer keeps writing.
	 */
	private long claim() {
		while (true) {
			long sequence = this.tail.get();
			if (sequence < 0) {
				return -1;
			}
			if (sequence - this.headSeen > this.mask) {
				long head = this.head.get();
				// an older value written by a slower producer is only more cautious
				this.headSeen = head;
				if (sequence - head > this.mask) {
					return -1;
				}
			}
			if (this.tail.compareAndSet(sequence, sequence + 1)) {
				return sequence;
			}
		}
	}

	private static void copy(Headers headers, String[] names, String[] values) {
		for (int i = 0; i < names.length; i++) {
			values[i] = headers.get(names[i]);
		}
	}

	/**
	 * Returns the lines dropped since the log was made: recorded while the ring was full, after
	 * it closed, or lost to a failed write.
	 * @return the count
	 */
	public long dropped() {
		return this.dropped.sum();
	}

	/**
	 * Returns where the lines go.
	 * @return the output
	 */
	public LogOutput output() {
		return this.output;
	}

	/** The writer thread: takes published slots in order, formats, writes, and parks when none is left. */
	private void run() {
		LineBuffer lines = new LineBuffer(WRITE_AT + 16 * 1024);
		try {
			while (true) {
				long limit = this.tail.get();
				boolean sealed = limit < 0;
				limit &= Long.MAX_VALUE;
				long nowMillis = this.clock.millis();
				long nowNanos = this.nanos.getAsLong();
				roll(nowMillis);
				long next = drain(lines, limit, nowMillis, nowNanos);
				write(lines);
				if (sealed && next == limit) {
					return;
				}
				this.parked = true;
				if (this.tail.get() == next || this.slots[(int) next & this.mask].published != next) {
					// sealed with a slot still being filled: its producer publishes it at once
					LockSupport.parkNanos(this, sealed ? TimeUnit.MILLISECONDS.toNanos(1) : PARK_NANOS);
				}
				this.parked = false;
			}
		}
		catch (Throwable ex) {
			logger.log(Level.ERROR, "Access log writer " + this.threadName + " failed; lines are dropped from now on", ex);
			this.tail.getAndUpdate((tail) -> tail | SEALED);
		}
		finally {
			closeOutput();
		}
	}

	/** Formats every published slot up to {@code limit}, in order; returns the first not taken. */
	private long drain(LineBuffer lines, long limit, long nowMillis, long nowNanos) {
		long next = this.head.get();
		while (next < limit) {
			AccessLogEntry entry = this.slots[(int) next & this.mask];
			if (entry.published != next) {
				// claimed, not yet filled: the lines after it wait, so that the order holds
				break;
			}
			entry.epochMillis = nowMillis - TimeUnit.NANOSECONDS.toMillis(nowNanos - entry.startNanos);
			this.format.write(entry, lines, this.context);
			entry.clear();
			next++;
			if ((next & (HEAD_EVERY - 1)) == 0) {
				this.head.lazySet(next);
			}
			if (lines.size() >= WRITE_AT) {
				write(lines);
			}
		}
		this.head.lazySet(next);
		return next;
	}

	private void roll(long nowMillis) {
		try {
			this.output.roll(nowMillis);
		}
		catch (IOException ex) {
			warn("Access log could not begin its next file (" + this.output + "): " + ex);
		}
	}

	private void write(LineBuffer lines) {
		if (lines.size() == 0) {
			return;
		}
		try {
			this.output.write(lines.array(), 0, lines.size());
		}
		catch (IOException | RuntimeException ex) {
			this.dropped.add(lines.lines());
			warn("Access log could not write " + lines.lines() + " lines to " + this.output + ": " + ex
					+ "; they are counted as dropped");
		}
		lines.clear();
	}

	/**
	 * Logs a failure of the output at most once a minute, with how many were not logged: a
	 * failing disk fails every batch, up to a hundred a second. On the writer thread.
	 */
	private void warn(String message) {
		long now = this.nanos.getAsLong();
		if (this.warned && now - this.lastWarning < WARNING_INTERVAL_NANOS) {
			this.unwarned++;
			return;
		}
		String more = (this.unwarned > 0) ? " (and " + this.unwarned + " more failures in the last minute)" : "";
		logger.log(Level.WARNING, message + more);
		this.warned = true;
		this.lastWarning = now;
		this.unwarned = 0;
	}

	private void closeOutput() {
		try {
			this.output.close();
		}
		catch (IOException ex) {
			logger.log(Level.WARNING, "Access log could not close " + this.output + ": " + ex);
		}
	}

	/**
	 * Stops taking lines, writes every line recorded before, and closes the output; waits for
	 * the writer up to 10 seconds (a stalled disk), after which the lines it has not written
	 * are counted as dropped. Idempotent; any thread.
	 */
	@Override
	public void close() {
		long sealed = this.tail.getAndUpdate((tail) -> tail | SEALED) & Long.MAX_VALUE;
		Thread thread = this.writer;
		if (thread == null) {
			return;
		}
		LockSupport.unpark(thread);
		try {
			thread.join(TimeUnit.SECONDS.toMillis(CLOSE_TIMEOUT_SECONDS));
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
		if (!this.closing.compareAndSet(false, true)) {
			// closed by another thread, which counts what was lost
			return;
		}
		if (thread.isAlive()) {
			logger.log(Level.WARNING, "Access log writer " + this.threadName + " did not finish within "
					+ CLOSE_TIMEOUT_SECONDS + " s; the lines it has not written are counted as dropped");
		}
		this.dropped.add(Math.max(0, sealed - this.head.get()));
	}

	@Override
	public String toString() {
		return "AccessLog[" + this.format + " to " + this.output + "]";
	}

}
