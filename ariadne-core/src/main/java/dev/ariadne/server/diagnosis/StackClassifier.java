package dev.ariadne.server.diagnosis;

/**
 * Tells from a worker's state and stack what it is doing. The server's own frames decide
 * first (an idle connection's read, a slow client's read or write, a worker parked in its
 * pool); otherwise the first frame outside the JDK is the application's, and the JDK frames
 * above it tell whether it waits (a park, a sleep, a socket, a monitor) or runs.
 *
 * <p>Pure and stateless; reads only class and method names, so the server's classes are named
 * here as strings, never imported.
 */
final class StackClassifier {

	private static final String CONNECTION = "dev.ariadne.server.connection.";

	private static final String TRANSPORT = "dev.ariadne.server.transport.";

	private static final String HTTP1_BODY = "dev.ariadne.server.protocol.Http1Body";

	/** The protocol of an HTTP/2 connection, whose own thread reads frames while its streams run elsewhere. */
	private static final String HTTP2_PROTOCOL = "dev.ariadne.server.protocol.Http2Protocol";

	/** An HTTP/2 stream's exchange: its writer waits for the client's credit or for it to read. */
	private static final String HTTP2_STREAM = "dev.ariadne.server.protocol.Http2Stream";

	private static final String HTTP2_OUTPUT = "dev.ariadne.server.protocol.Http2Output";

	/** An HTTP/2 stream's request content, which its handler waits for. */
	private static final String HTTP2_STREAM_BODY = "dev.ariadne.server.protocol.Http2StreamBody";

	/** A connection that switched protocols (a WebSocket session): its thread reads for it in the socket models. */
	private static final String HTTP1_TUNNEL = "dev.ariadne.server.protocol.Http1Tunnel";

	private static final String[] SERVER_PACKAGES = { CONNECTION, "dev.ariadne.server.blocking.",
			"dev.ariadne.server.eventloop.", "dev.ariadne.server.virtual.", "dev.ariadne.server.internal.",
			"dev.ariadne.server.pool.", TRANSPORT, "dev.ariadne.server.protocol.",
			"dev.ariadne.server.routing.", "dev.ariadne.server.websocket.", "dev.ariadne.http.",
			"dev.ariadne.websocket.", "dev.ariadne.servlet." };

	private static final String[] JDK_PACKAGES = { "java.", "javax.", "jdk.", "sun.", "com.sun." };

	private StackClassifier() {
	}

	/**
	 * Classifies one sampled worker.
	 * @param state the thread's state
	 * @param stack its stack, innermost frame first
	 * @return what it was doing
	 */
	static Activity classify(Thread.State state, StackTraceElement[] stack) {
		if (state == Thread.State.TERMINATED || state == Thread.State.NEW || stack.length == 0) {
			return new Activity(Activity.Kind.NOT_BUSY, null, null, state);
		}
		int first = 0;
		while (first < stack.length && isJdk(stack[first].getClassName())) {
			first++;
		}
		if (first == stack.length) {
			return new Activity(Activity.Kind.NOT_BUSY, null, null, state);
		}
		boolean waits = waits(state, stack[0]);
		if (isServer(stack[first].getClassName())) {
			Activity.Kind kind = serverKind(stack, first);
			if (kind != Activity.Kind.NOT_BUSY && !waits) {
				// on the CPU in server code (parsing, copying), not waiting for a client
				kind = null;
			}
			if (kind != null) {
				return new Activity(kind, null, null, state);
			}
		}
		int caller = firstApplicationFrame(stack, first);
		if (caller < 0) {
			// only server frames, none of them one that waits for a client: server work
			return new Activity(Activity.Kind.RUNNING, null, null, state);
		}
		String callerName = name(stack[caller], true);
		boolean topIsCaller = caller == 0;
		if (waits) {
			String frame = topIsCaller ? null : name(stack[caller - 1], false);
			return new Activity(Activity.Kind.WAITING, frame, callerName, state);
		}
		return new Activity(Activity.Kind.RUNNING, null, callerName, state);
	}

	/**
	 * Walks the server frames from the first one down to the first that says what the thread
	 * waits for; {@code null} when none does (the thread runs server code, or the application
	 * code below it decides).
	 */
	private static Activity.Kind serverKind(StackTraceElement[] stack, int first) {
		for (int i = first; i < stack.length && !isApplication(stack[i].getClassName()); i++) {
			StackTraceElement frame = stack[i];
			String type = frame.getClassName();
			String method = frame.getMethodName();
			if (type.equals(TRANSPORT + "SocketLoop")) {
				switch (method) {
					case "awaitRequest":
						return Activity.Kind.IDLE_CONNECTION;
					case "readRequest":
						return Activity.Kind.CLIENT_READ;
					default:
						break;
				}
			}
			else if (type.equals(TRANSPORT + "SocketInput") && method.equals("linger")) {
				return Activity.Kind.CLIENT_READ;
			}
			else if (type.equals(TRANSPORT + "SocketWriter") && method.equals("transmit")) {
				return Activity.Kind.CLIENT_WRITE;
			}
			else if (type.equals(HTTP2_PROTOCOL) && method.equals("fill")) {
				// an HTTP/2 connection's own thread waiting for frames: no client is slow, the
				// connection holds the worker as an idle keep-alive connection does
				return Activity.Kind.IDLE_CONNECTION;
			}
			else if (type.equals(HTTP1_TUNNEL) && method.equals("fetch")) {
				// a session's thread waiting for its client's next frame: the session owns the worker
				// as an idle keep-alive connection does
				return Activity.Kind.IDLE_CONNECTION;
			}
			else if (type.equals(HTTP1_BODY) || type.equals(HTTP2_STREAM_BODY)) {
				// a handler's thread waiting for more of a body the client sends slowly
				return Activity.Kind.CLIENT_READ;
			}
			else if ((type.equals(HTTP2_STREAM) && method.equals("awaitCredit"))
					|| (type.equals(HTTP2_OUTPUT) && method.equals("awaitOutputRoom"))) {
				// a stream's writer waiting for the client's flow-control credit, or for the client to
				// read what its connection already wrote
				return Activity.Kind.CLIENT_WRITE;
			}
			else if (type.equals("dev.ariadne.server.eventloop.WriteQueue") && method.equals("awaitBelowHighWater")) {
				return Activity.Kind.CLIENT_WRITE;
			}
			else if (type.equals("dev.ariadne.server.virtual.VirtualThreadTransport$Permits")
					|| type.equals("dev.ariadne.server.pool.WorkerPool")) {
				// waiting for a permit, or a worker parked between tasks
				return Activity.Kind.NOT_BUSY;
			}
			else if (type.equals(TRANSPORT + "SocketTransport$PoolCall") && method.equals("await")) {
				// a socket model's worker waiting for the route pool that runs its handler
				return Activity.Kind.HANDED_OFF;
			}
		}
		return null;
	}

	/** The first frame, from the top, that is neither the JDK's nor the server's; -1 if none. */
	private static int firstApplicationFrame(StackTraceElement[] stack, int first) {
		for (int i = first; i < stack.length; i++) {
			if (isApplication(stack[i].getClassName())) {
				return i;
			}
		}
		return -1;
	}

	/**
	 * Whether the thread waits rather than computes: parked, sleeping or blocked on a monitor,
	 * or (a platform thread in a blocking socket or file call shows as runnable) in native I/O.
	 */
	private static boolean waits(Thread.State state, StackTraceElement top) {
		if (state == Thread.State.WAITING || state == Thread.State.TIMED_WAITING || state == Thread.State.BLOCKED) {
			return true;
		}
		String type = top.getClassName();
		return top.isNativeMethod() && (type.startsWith("sun.nio.ch.") || type.startsWith("java.net.")
				|| type.startsWith("java.io.") || type.startsWith("sun.nio.fs."));
	}

	private static boolean isJdk(String type) {
		return startsWithAny(type, JDK_PACKAGES);
	}

	private static boolean isServer(String type) {
		return startsWithAny(type, SERVER_PACKAGES);
	}

	private static boolean isApplication(String type) {
		return !isJdk(type) && !isServer(type);
	}

	private static boolean startsWithAny(String type, String[] prefixes) {
		for (String prefix : prefixes) {
			if (type.startsWith(prefix)) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Names a frame: {@code com.example.Repo.find} in full for application code, the simple
	 * class name for the JDK ({@code Semaphore.acquire}).
	 */
	static String name(StackTraceElement frame, boolean qualified) {
		String type = frame.getClassName();
		if (!qualified) {
			type = type.substring(type.lastIndexOf('.') + 1);
		}
		return type + "." + frame.getMethodName();
	}

}
