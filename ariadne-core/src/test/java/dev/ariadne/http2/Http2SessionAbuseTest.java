package dev.ariadne.http2;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.util.List;
import java.util.function.Consumer;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.http.Headers;
import dev.ariadne.http.ParserLimits;
import dev.ariadne.http2.SessionClient.Feed;

/**
 * The rates a {@link Http2Session} holds its client to: frames that cost work and carry no
 * request, and streams the client makes the server reset (MadeYouReset), each ended with
 * {@code ENHANCE_YOUR_CALM} and the {@link Abuse} it was, and nothing counted that a
 * well-behaved client does.
 */
class Http2SessionAbuseTest {

	private static final int MAX_CONTROL = 10;

	private static final int MAX_RESETS = 5;

	/** A kind of frame that counts as a control frame, framed by the test client. */
	enum Control {

		PING((client) -> client.ping(7)),

		SETTINGS((client) -> client.settings(new Settings())),

		PRIORITY((client) -> client.raw(5, FrameType.PRIORITY, 0, 3, new byte[] { 0, 0, 0, 1, 16 })),

		EMPTY_DATA((client) -> client.data(1, "", false)),

		UNKNOWN((client) -> client.raw(0, 0x20, 0, 0)),

		SMALL_CONNECTION_CREDIT((client) -> client.windowUpdate(0, 1)),

		SMALL_STREAM_CREDIT((client) -> client.windowUpdate(1, 1));

		final Consumer<SessionClient> frame;

		Control(Consumer<SessionClient> frame) {
			this.frame = frame;
		}

	}

	@ParameterizedTest
	@EnumSource(Control.class)
	void controlFramesBeyondTheRateEndTheConnection(Control control) {
		SessionClient client = connected(Feed.WHOLE, 30_000_000_000L);
		client.post(1).send().take();
		// the client's SETTINGS counted one
		for (int i = 1; i < MAX_CONTROL; i++) {
			control.frame.accept(client);
		}
		client.send();
		assertThat(client.session.failure()).isNull();
		control.frame.accept(client);
		List<String> events = client.send().take();
		assertThat(events).contains("GOAWAY 1 ENHANCE_YOUR_CALM");
		assertThat(client.session.failure().abuse()).isEqualTo(Abuse.CONTROL_FRAMES);
		assertThat(client.session.failure().reason()).contains("More than " + MAX_CONTROL);
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void theRateCountsWithinItsWindowOnly(Feed feed) throws InterruptedException {
		SessionClient client = connected(feed, 1_000_000L);
		for (int round = 0; round < 3; round++) {
			Thread.sleep(5);
			for (int i = 0; i < MAX_CONTROL; i++) {
				client.ping(i);
			}
			client.send();
			assertThat(client.session.failure()).isNull();
		}
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void creditForWhatTheServerSentIsNotCountedHoweverSmall(Feed feed) {
		SessionClient client = connected(feed, 30_000_000_000L);
		client.get(1, "/").send().take();
		client.session.writeHeaders(1, 200, new Headers(), false);
		assertThat(client.session.writeData(1, ByteBuffer.allocate(5_000), false)).isEqualTo(5_000);
		client.read().take();
		// a client that credits every 100 bytes it read, on the stream and the connection
		for (int i = 0; i < 50; i++) {
			client.windowUpdate(1, 100).windowUpdate(0, 100);
		}
		client.send();
		assertThat(client.session.failure()).isNull();
		// and a large credit beyond what was used (a client opening its window) is not either
		client.windowUpdate(0, 1 << 24).windowUpdate(1, 1 << 20).send();
		assertThat(client.session.failure()).isNull();
		assertThat(client.session.writable(1)).isEqualTo(65_535 + (1 << 20));
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void streamsTheClientMakesTheServerResetEndTheConnectionBeyondTheRate(Feed feed) {
		SessionClient client = connected(feed, 30_000_000_000L);
		int id = 1;
		for (int i = 0; i < MAX_RESETS; i++, id += 2) {
			malformed(client, id);
		}
		assertThat(client.send().take()).hasSize(MAX_RESETS).allMatch((event) -> event.endsWith("PROTOCOL_ERROR"));
		assertThat(client.session.failure()).isNull();
		malformed(client, id);
		assertThat(client.send().take()).contains("GOAWAY " + id + " ENHANCE_YOUR_CALM");
		assertThat(client.session.failure().abuse()).isEqualTo(Abuse.PROVOKED_RESETS);
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void resetsTheServerChoosesAreNotCounted(Feed feed) {
		SessionClient client = connected(feed, 30_000_000_000L);
		int id = 1;
		for (int i = 0; i < 3 * MAX_RESETS; i++, id += 2) {
			// the response ends before the client's content: the server resets with NO_ERROR
			client.post(id).send();
			client.session.writeHeaders(id, 204, new Headers(), true);
			client.session.reset(id, ErrorCode.NO_ERROR);
			client.read();
		}
		assertThat(client.session.failure()).isNull();
	}

	/** A request with an upper-case field name: a stream error (RFC 9113 §8.2.1). */
	private static void malformed(SessionClient client, int streamId) {
		client.request(streamId, true, ":method", "GET", ":path", "/", ":scheme", "https", "Upper", "x");
	}

	private static SessionClient connected(Feed feed, long windowNanos) {
		Http2Limits defaults = Http2Limits.DEFAULTS;
		Http2Limits limits = new Http2Limits(defaults.maxConcurrentStreams(), defaults.initialWindowSize(),
				defaults.connectionWindowSize(), defaults.maxFrameSize(), defaults.maxHeaderListSize(),
				defaults.maxHeaderBlockSize(), defaults.maxContinuations(), MAX_CONTROL, MAX_RESETS, windowNanos,
				ParserLimits.DEFAULTS);
		SessionClient client = new SessionClient(limits, feed).connect();
		client.take();
		return client;
	}

}
