package dev.ariadne;

import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.http2.ErrorCode;
import dev.ariadne.http2.FrameType;
import dev.ariadne.server.IoModel;
import dev.ariadne.server.ServerConfig;
import dev.ariadne.server.routing.Route;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An HTTP/2 connection the server closes while idle (its idle time up, a graceful shutdown) is
 * told so with a {@code GOAWAY} ({@code NO_ERROR}, the last stream it opened) before the close,
 * in every model, so that its client knows no request of its own was lost (RFC 9113 §6.8); and a
 * graceful shutdown lets the streams under way finish before it.
 */
@Timeout(60)
class Http2GoAwayIT {

	private final CountDownLatch entered = new CountDownLatch(1);

	private final CountDownLatch release = new CountDownLatch(1);

	private AriadneServer server;

	@AfterEach
	void stop() {
		this.release.countDown();
		if (this.server != null) {
			this.server.stop();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void anIdleConnectionIsToldGoAwayWhenItsIdleTimeIsUp(IoModel model) throws Exception {
		start(model, (config) -> config.keepAliveTimeout(Duration.ofSeconds(1)));
		try (Http2RawClient client = Http2RawClient.connect(port())) {
			long start = System.nanoTime();
			client.get(1, "/hello").flush();
			List<Http2RawClient.Frame> frames = untilClosed(client, Duration.ofSeconds(10));
			assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).as("not before the idle time")
				.isGreaterThanOrEqualTo(900);
			assertAnsweredThenToldGoAway(frames, 1);
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aGracefulShutdownTellsAnIdleConnectionGoAway(IoModel model) throws Exception {
		start(model, UnaryOperator.identity());
		try (Http2RawClient client = Http2RawClient.connect(port())) {
			client.get(1, "/hello").flush();
			awaitEnd(client, 1);
			CompletableFuture<Boolean> drained = this.server.shutdownGracefullyInBackground(Duration.ofSeconds(10));
			List<Http2RawClient.Frame> frames = untilClosed(client, Duration.ofSeconds(5));
			assertThat(goAway(frames)).as("a GOAWAY before the close: %s", frames).isNotNull();
			assertThat(lastStream(goAway(frames))).isEqualTo(1);
			assertThat(drained.get(10, TimeUnit.SECONDS)).isTrue();
		}
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void aGracefulShutdownLetsTheStreamUnderWayFinishThenSaysGoAway(IoModel model) throws Exception {
		start(model, UnaryOperator.identity());
		try (Http2RawClient client = Http2RawClient.connect(port())) {
			client.get(1, "/held").flush();
			assertThat(this.entered.await(10, TimeUnit.SECONDS)).isTrue();
			CompletableFuture<Boolean> drained = this.server.shutdownGracefullyInBackground(Duration.ofSeconds(10));
			Thread.sleep(200);
			assertThat(drained).as("a stream under way holds the shutdown").isNotDone();
			this.release.countDown();
			List<Http2RawClient.Frame> frames = untilClosed(client, Duration.ofSeconds(10));
			assertAnsweredThenToldGoAway(frames, 1);
			assertThat(drained.get(10, TimeUnit.SECONDS)).isTrue();
		}
	}

	private static void assertAnsweredThenToldGoAway(List<Http2RawClient.Frame> frames, int streamId) {
		int end = -1;
		for (int i = 0; i < frames.size(); i++) {
			Http2RawClient.Frame frame = frames.get(i);
			if (frame.streamId() == streamId && (frame.flags() & 0x1) != 0
					&& (frame.type() == FrameType.DATA || frame.type() == FrameType.HEADERS)) {
				end = i;
			}
		}
		assertThat(end).as("stream %d answered to its end: %s", streamId, frames).isGreaterThanOrEqualTo(0);
		// the event loop tells an active connection at once that a shutdown began, the socket
		// models once its streams ended: either comes before the close
		Http2RawClient.Frame goAway = goAway(frames);
		assertThat(goAway).as("a GOAWAY before the close: %s", frames).isNotNull();
		assertThat(goAway.errorCode()).isEqualTo(ErrorCode.NO_ERROR.code());
		assertThat(lastStream(goAway)).isEqualTo(streamId);
	}

	private static Http2RawClient.Frame goAway(List<Http2RawClient.Frame> frames) {
		return frames.stream().filter((frame) -> frame.type() == FrameType.GOAWAY).findFirst().orElse(null);
	}

	private static int lastStream(Http2RawClient.Frame goAway) {
		return ByteBuffer.wrap(goAway.payload()).getInt(0) & 0x7fffffff;
	}

	/** Every frame the server sends until it closes the connection. */
	private static List<Http2RawClient.Frame> untilClosed(Http2RawClient client, Duration timeout)
			throws InterruptedException {
		List<Http2RawClient.Frame> frames = new ArrayList<>();
		long deadline = System.nanoTime() + timeout.toNanos();
		while (true) {
			Http2RawClient.Frame frame = client.next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
			assertThat(frame).as("closed within %s, after %s", timeout, frames).isNotNull();
			if (frame == Http2RawClient.CLOSED) {
				return frames;
			}
			frames.add(frame);
		}
	}

	/** Waits for the end of a stream's response. */
	private static void awaitEnd(Http2RawClient client, int streamId) throws InterruptedException {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (true) {
			Http2RawClient.Frame frame = client.next(Duration.ofNanos(Math.max(1, deadline - System.nanoTime())));
			assertThat(frame).as("stream %d answered", streamId).isNotNull().isNotEqualTo(Http2RawClient.CLOSED);
			if (frame.streamId() == streamId && (frame.flags() & 0x1) != 0) {
				return;
			}
		}
	}

	private void start(IoModel model, UnaryOperator<ServerConfig.Builder> more) {
		Route hello = Route.get("/hello", (request, response) -> response.send("hello"));
		Route held = Route.get("/held", (request, response) -> {
			this.entered.countDown();
			try {
				this.release.await(20, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			response.send("held");
		});
		this.server = Servers.start(model, (config) -> more.apply(config.http2Enabled(true).maxThreads(8)), hello,
				held);
	}

	private int port() {
		return this.server.localAddress().getPort();
	}

}
