package dev.ariadne.server.diagnosis;

import java.util.stream.Stream;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.params.provider.Arguments.arguments;

/**
 * Where a worker waits, read from its state and stack, for the stacks each I/O model and each
 * cause produce. Stacks are written innermost frame first, as {@link Thread#getStackTrace()}
 * returns them; {@code *} marks a native frame.
 */
class StackClassifierTest {

	static Stream<Arguments> stacks() {
		return Stream.of(
				arguments("blocking worker on an idle keep-alive connection", Thread.State.RUNNABLE,
						"*sun.nio.ch.SocketDispatcher.read0 sun.nio.ch.NioSocketImpl.read "
								+ "java.net.Socket$SocketInputStream.read "
								+ "dev.ariadne.server.transport.SocketInput.readInto "
								+ "dev.ariadne.server.transport.SocketInput.read "
								+ "dev.ariadne.server.transport.SocketWire.read "
								+ "dev.ariadne.server.protocol.Http1Reader.fill "
								+ "dev.ariadne.server.protocol.Http1Protocol.fill "
								+ "dev.ariadne.server.transport.SocketLoop.awaitRequest "
								+ "dev.ariadne.server.transport.SocketLoop.readRequest "
								+ "dev.ariadne.server.transport.SocketLoop.run "
								+ "dev.ariadne.server.transport.SocketLoop.serve "
								+ "dev.ariadne.server.transport.SocketWire.serve "
								+ "dev.ariadne.server.pool.WorkerPool$Worker.run java.lang.Thread.run",
						Activity.Kind.IDLE_CONNECTION, null, null),
				arguments("virtual thread on an idle connection", Thread.State.WAITING,
						"java.lang.VirtualThread.park java.lang.invoke.LambdaForm$DMH.invoke "
								+ "sun.nio.ch.NioSocketImpl.park sun.nio.ch.NioSocketImpl.read "
								+ "dev.ariadne.server.transport.SocketInput.readInto "
								+ "dev.ariadne.server.transport.SocketInput.read "
								+ "dev.ariadne.server.transport.SocketWire.read "
								+ "dev.ariadne.server.protocol.Http1Reader.fill "
								+ "dev.ariadne.server.protocol.Http1Protocol.fill "
								+ "dev.ariadne.server.transport.SocketLoop.awaitRequest",
						Activity.Kind.IDLE_CONNECTION, null, null),
				arguments("blocking worker owning a quiet WebSocket session", Thread.State.RUNNABLE,
						"*sun.nio.ch.SocketDispatcher.read0 sun.nio.ch.NioSocketImpl.read "
								+ "dev.ariadne.server.transport.SocketInput.readInto "
								+ "dev.ariadne.server.transport.SocketInput.read "
								+ "dev.ariadne.server.transport.SocketWire.read "
								+ "dev.ariadne.server.protocol.Http1Reader.fillHeld "
								+ "dev.ariadne.server.protocol.Http1Tunnel.advance "
								+ "dev.ariadne.server.protocol.Http1Tunnel.fetch "
								+ "dev.ariadne.server.protocol.Http1Protocol.fetchBody "
								+ "dev.ariadne.server.transport.SocketHost.lambda$awaitReadable$2 "
								+ "dev.ariadne.server.transport.SocketLoop.run",
						Activity.Kind.IDLE_CONNECTION, null, null),
				arguments("a WebSocket listener waiting in application code", Thread.State.TIMED_WAITING,
						"java.lang.Thread.sleep0 java.lang.Thread.sleep com.example.Ticker.onText "
								+ "dev.ariadne.server.websocket.SessionReader.deliver "
								+ "dev.ariadne.server.websocket.SessionReader.onText "
								+ "dev.ariadne.websocket.FrameReader.read "
								+ "dev.ariadne.server.websocket.SessionReader.run",
						Activity.Kind.WAITING, "Thread.sleep", "com.example.Ticker.onText"),
				arguments("a session unmasking a frame: the server's work, not the application's", Thread.State.RUNNABLE,
						"dev.ariadne.websocket.Mask.unmask dev.ariadne.websocket.FrameReader.read "
								+ "dev.ariadne.server.websocket.SessionReader.run "
								+ "dev.ariadne.server.transport.SocketLoop.run",
						Activity.Kind.RUNNING, null, null),
				arguments("reading the rest of a request head", Thread.State.RUNNABLE,
						"*sun.nio.ch.Net.poll sun.nio.ch.NioSocketImpl.timedRead "
								+ "dev.ariadne.server.transport.SocketInput.readInto "
								+ "dev.ariadne.server.transport.SocketInput.read "
								+ "dev.ariadne.server.transport.SocketWire.read "
								+ "dev.ariadne.server.protocol.Http1Reader.fill "
								+ "dev.ariadne.server.protocol.Http1Protocol.fill "
								+ "dev.ariadne.server.transport.SocketLoop.readRequest",
						Activity.Kind.CLIENT_READ, null, null),
				arguments("a handler reading a body that comes slowly", Thread.State.RUNNABLE,
						"*sun.nio.ch.Net.poll dev.ariadne.server.transport.SocketInput.readInto "
								+ "dev.ariadne.server.transport.SocketInput.read "
								+ "dev.ariadne.server.transport.SocketWire.read "
								+ "dev.ariadne.server.protocol.Http1Reader.fillHeld "
								+ "dev.ariadne.server.protocol.Http1Body.await "
								+ "dev.ariadne.server.protocol.Http1Body.fill "
								+ "dev.ariadne.server.protocol.Http1Body.read com.example.Upload.handle",
						Activity.Kind.CLIENT_READ, null, null),
				arguments("an event-loop worker waiting for a body that comes slowly", Thread.State.TIMED_WAITING,
						"jdk.internal.misc.Unsafe.park java.util.concurrent.locks.LockSupport.parkNanos "
								+ "dev.ariadne.server.eventloop.InputDemand.await "
								+ "dev.ariadne.server.eventloop.InputDemand.read "
								+ "dev.ariadne.server.eventloop.ChannelWire.read "
								+ "dev.ariadne.server.protocol.Http1Reader.fillHeld "
								+ "dev.ariadne.server.protocol.Http1Body.await "
								+ "dev.ariadne.server.protocol.Http1Body.fill "
								+ "dev.ariadne.server.protocol.Http1Body.read com.example.Upload.handle",
						Activity.Kind.CLIENT_READ, null, null),
				arguments("lingering after the last answer for the client to read it", Thread.State.RUNNABLE,
						"*sun.nio.ch.Net.poll sun.nio.ch.NioSocketImpl.timedRead java.net.Socket$SocketInputStream.read "
								+ "dev.ariadne.server.transport.SocketInput.linger "
								+ "dev.ariadne.server.transport.SocketWire.lingerAndClose "
								+ "dev.ariadne.server.transport.SocketWire.closeAfterAnswer",
						Activity.Kind.CLIENT_READ, null, null),
				arguments("writing a response to a client that reads slowly", Thread.State.RUNNABLE,
						"*sun.nio.ch.SocketDispatcher.write0 sun.nio.ch.NioSocketImpl.write "
								+ "java.net.Socket$SocketOutputStream.write "
								+ "dev.ariadne.server.transport.SocketWriter.transmit "
								+ "dev.ariadne.server.connection.ConnectionOutput.flush "
								+ "dev.ariadne.server.connection.ServerResponse.send com.example.Reports.download",
						Activity.Kind.CLIENT_WRITE, null, null),
				arguments("an event-loop worker waiting for a slow client to drain", Thread.State.TIMED_WAITING,
						"java.lang.Object.wait0 java.lang.Object.wait "
								+ "dev.ariadne.server.eventloop.WriteQueue.awaitBelowHighWater "
								+ "dev.ariadne.server.connection.ConnectionOutput.flush "
								+ "com.example.Reports.download",
						Activity.Kind.CLIENT_WRITE, null, null),
				arguments("an HTTP/2 stream's writer waiting for the client's credit", Thread.State.TIMED_WAITING,
						"jdk.internal.misc.Unsafe.park java.util.concurrent.locks.LockSupport.parkNanos "
								+ "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.awaitNanos "
								+ "dev.ariadne.server.protocol.Http2Stream.awaitCredit "
								+ "dev.ariadne.server.protocol.Http2Stream.writeData "
								+ "dev.ariadne.server.protocol.Http2Stream.content "
								+ "dev.ariadne.server.connection.ServerResponse$BodyStream.write "
								+ "com.example.Reports.download",
						Activity.Kind.CLIENT_WRITE, null, null),
				arguments("an HTTP/2 stream's writer waiting for its connection's output to drain",
						Thread.State.TIMED_WAITING,
						"jdk.internal.misc.Unsafe.park java.util.concurrent.locks.LockSupport.parkNanos "
								+ "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.awaitNanos "
								+ "dev.ariadne.server.protocol.Http2Output.awaitOutputRoom "
								+ "dev.ariadne.server.protocol.Http2Stream.writeData "
								+ "dev.ariadne.server.protocol.Http2Stream.content "
								+ "dev.ariadne.server.connection.ServerResponse$BodyStream.write "
								+ "com.example.Reports.download",
						Activity.Kind.CLIENT_WRITE, null, null),
				arguments("an HTTP/2 handler waiting for request content that comes slowly", Thread.State.TIMED_WAITING,
						"jdk.internal.misc.Unsafe.park java.util.concurrent.locks.LockSupport.parkNanos "
								+ "java.util.concurrent.locks.AbstractQueuedSynchronizer$ConditionObject.awaitNanos "
								+ "dev.ariadne.server.protocol.Http2StreamBody.read "
								+ "dev.ariadne.server.protocol.Http2StreamBody.read "
								+ "dev.ariadne.server.connection.ServerRequest$BodyStream.read "
								+ "com.example.Upload.handle",
						Activity.Kind.CLIENT_READ, null, null),
				arguments("an HTTP/2 connection's own thread waiting for frames", Thread.State.RUNNABLE,
						"*sun.nio.ch.SocketDispatcher.read0 sun.nio.ch.NioSocketImpl.read "
								+ "dev.ariadne.server.transport.SocketInput.read "
								+ "dev.ariadne.server.transport.SocketWire.read "
								+ "dev.ariadne.server.protocol.Http2Protocol.fill "
								+ "dev.ariadne.server.transport.SocketLoop.run",
						Activity.Kind.IDLE_CONNECTION, null, null),
				arguments("blocked on a semaphore", Thread.State.WAITING,
						"jdk.internal.misc.Unsafe.park java.util.concurrent.locks.LockSupport.park "
								+ "java.util.concurrent.locks.AbstractQueuedSynchronizer.acquire java.util.concurrent.Semaphore.acquire "
								+ "com.example.Repo.find com.example.Routes.lambda$user$0 dev.ariadne.server.routing.Router$1.handle "
								+ "dev.ariadne.server.connection.HttpExchange.run",
						Activity.Kind.WAITING, "Semaphore.acquire", "com.example.Repo.find"),
				arguments("blocked in a downstream socket read (a platform thread shows runnable)", Thread.State.RUNNABLE,
						"*sun.nio.ch.SocketDispatcher.read0 sun.nio.ch.NioSocketImpl.read java.net.Socket$SocketInputStream.read "
								+ "com.example.http.Client.get com.example.Routes.lambda$quote$1",
						Activity.Kind.WAITING, "Socket$SocketInputStream.read", "com.example.http.Client.get"),
				arguments("blocked on a monitor the handler enters itself", Thread.State.BLOCKED,
						"com.example.Cache.refresh com.example.Routes.lambda$cached$2",
						Activity.Kind.WAITING, null, "com.example.Cache.refresh"),
				arguments("sleeping in a handler", Thread.State.TIMED_WAITING,
						"java.lang.Thread.sleep0 java.lang.Thread.sleep com.example.Slow.report",
						Activity.Kind.WAITING, "Thread.sleep", "com.example.Slow.report"),
				arguments("a Spring MVC controller waiting for a pooled JDBC connection", Thread.State.TIMED_WAITING,
						"jdk.internal.misc.Unsafe.park java.util.concurrent.locks.LockSupport.parkNanos "
								+ "java.util.concurrent.SynchronousQueue.poll com.zaxxer.hikari.util.ConcurrentBag.borrow "
								+ "com.zaxxer.hikari.pool.HikariPool.getConnection com.example.OrderController.list "
								+ "org.springframework.web.servlet.DispatcherServlet.doDispatch "
								+ "dev.ariadne.servlet.ServletHandler.handle dev.ariadne.server.connection.HttpExchange.run",
						Activity.Kind.WAITING, "SynchronousQueue.poll", "com.zaxxer.hikari.util.ConcurrentBag.borrow"),
				arguments("computing in a handler", Thread.State.RUNNABLE,
						"com.example.Fib.compute com.example.Fib.compute com.example.Routes.lambda$compute$3 "
								+ "dev.ariadne.server.connection.HttpExchange.run",
						Activity.Kind.RUNNING, null, "com.example.Fib.compute"),
				arguments("computing in the JDK on the handler's behalf", Thread.State.RUNNABLE,
						"java.math.BigInteger.multiply java.math.BigInteger.pow com.example.Crypto.sign",
						Activity.Kind.RUNNING, null, "com.example.Crypto.sign"),
				arguments("a socket model's worker waiting for its route pool", Thread.State.WAITING,
						"jdk.internal.misc.Unsafe.park java.util.concurrent.CountDownLatch.await "
								+ "dev.ariadne.server.transport.SocketTransport$PoolCall.await "
								+ "dev.ariadne.server.connection.HttpExchange.runInRoutePool",
						Activity.Kind.HANDED_OFF, null, null),
				arguments("a virtual thread waiting for a permit", Thread.State.WAITING,
						"java.lang.VirtualThread.park java.util.concurrent.Semaphore.acquire "
								+ "dev.ariadne.server.virtual.VirtualThreadTransport$Permits.enter "
								+ "dev.ariadne.server.protocol.Http1Protocol.dispatch",
						Activity.Kind.NOT_BUSY, null, null),
				arguments("a pool worker parked between tasks", Thread.State.TIMED_WAITING,
						"jdk.internal.misc.Unsafe.park java.util.concurrent.locks.LockSupport.parkNanos "
								+ "dev.ariadne.server.pool.WorkerPool.park dev.ariadne.server.pool.WorkerPool.next",
						Activity.Kind.NOT_BUSY, null, null),
				arguments("parsing in the server", Thread.State.RUNNABLE,
						"dev.ariadne.http.RequestParser.parse dev.ariadne.server.protocol.Http1Reader.read "
								+ "dev.ariadne.server.protocol.Http1Protocol.onInput "
								+ "dev.ariadne.server.transport.SocketLoop.readRequest",
						Activity.Kind.RUNNING, null, null),
				arguments("a thread that has ended", Thread.State.TERMINATED, "", Activity.Kind.NOT_BUSY, null, null));
	}

	@ParameterizedTest(name = "{0}")
	@MethodSource("stacks")
	void classifiesWhereAWorkerIs(String description, Thread.State state, String stack, Activity.Kind kind,
			String frame, String caller) {
		Activity activity = StackClassifier.classify(state, frames(stack));
		assertThat(activity.kind()).isEqualTo(kind);
		assertThat(activity.frame()).isEqualTo(frame);
		assertThat(activity.caller()).isEqualTo(caller);
	}

	private static StackTraceElement[] frames(String stack) {
		if (stack.isEmpty()) {
			return new StackTraceElement[0];
		}
		return Stream.of(stack.split(" ")).map((frame) -> {
			boolean nativeMethod = frame.startsWith("*");
			String name = nativeMethod ? frame.substring(1) : frame;
			int dot = name.lastIndexOf('.');
			return new StackTraceElement(name.substring(0, dot), name.substring(dot + 1), null, nativeMethod ? -2 : 1);
		}).toArray(StackTraceElement[]::new);
	}

}
