package dev.ariadne.http2;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import dev.ariadne.http.Headers;
import dev.ariadne.http.ParserLimits;
import dev.ariadne.http2.SessionClient.Feed;

/**
 * {@link Http2Session} against RFC 9113's connection rules, each case fed whole, a byte at a
 * time and in halves, and the server's answer read back as frames (the cases h2spec checks on a
 * socket, here without one).
 */
class Http2SessionTest {

	private static final String SERVER_SETTINGS = "SETTINGS Settings{SETTINGS_ENABLE_PUSH=0, "
			+ "SETTINGS_MAX_CONCURRENT_STREAMS=100, SETTINGS_INITIAL_WINDOW_SIZE=65535, SETTINGS_MAX_FRAME_SIZE=16384, "
			+ "SETTINGS_MAX_HEADER_LIST_SIZE=16384}";

	// The preface and settings

	@ParameterizedTest
	@EnumSource(Feed.class)
	void serverSendsItsSettingsAndOpensTheConnectionWindowThenAcknowledgesTheClients(Feed feed) {
		SessionClient client = new SessionClient(feed).read();
		assertThat(client.take()).containsExactly(SERVER_SETTINGS, "WINDOW_UPDATE 0 983041");
		client.preface().settings(new Settings().set(Settings.HEADER_TABLE_SIZE, 0)).send();
		assertThat(client.take()).containsExactly("SETTINGS ACK");
		assertThat(client.open()).isTrue();
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void aWrongPrefaceEndsTheConnection(Feed feed) {
		SessionClient client = new SessionClient(feed).read();
		client.take();
		client.raw(0, FrameType.SETTINGS, 0, 0).send();
		assertThat(client.take()).containsExactly("GOAWAY 0 PROTOCOL_ERROR");
		assertThat(client.open()).isFalse();
		assertThat(client.session.failure().reason()).isEqualTo("Invalid connection preface");
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void theFirstFrameMustBeSettings(Feed feed) {
		SessionClient client = new SessionClient(feed).read();
		client.take();
		client.preface().ping(7).send();
		assertThat(client.take()).containsExactly("GOAWAY 0 PROTOCOL_ERROR");
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void pingIsAnsweredWithItsPayloadAndAPingAckIsNot(Feed feed) {
		SessionClient client = connected(feed);
		client.ping(0x0102030405060708L).raw(8, FrameType.PING, FrameType.FLAG_ACK, 0, new byte[8]).send();
		assertThat(client.take()).containsExactly("PING ACK " + 0x0102030405060708L);
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void aPushPromiseFromTheClientIsAConnectionError(Feed feed) {
		SessionClient client = connected(feed);
		client.raw(4, FrameType.PUSH_PROMISE, FrameType.FLAG_END_HEADERS, 1, new byte[] { 0, 0, 0, 2 }).send();
		assertThat(client.take()).containsExactly("GOAWAY 0 PROTOCOL_ERROR");
	}

	// Requests and responses

	@ParameterizedTest
	@EnumSource(Feed.class)
	void aRequestIsDeliveredAndItsResponseFramed(Feed feed) {
		SessionClient client = connected(feed);
		client.get(1, "/hello?x=1").send();
		assertThat(client.take()).containsExactly("request 1 GET /hello?x=1 end");
		assertThat(client.heads.get(0).headers().get("Host")).isEqualTo("example.com");
		Headers headers = new Headers().add("Content-Type", "text/plain").add("Connection", "close");
		assertThat(client.session.writeHeaders(1, 200, headers, false)).isTrue();
		assertThat(client.session.writeData(1, ascii("hi"), true)).isEqualTo(2);
		client.read();
		assertThat(client.take()).containsExactly("HEADERS 1 :status=200 content-type=text/plain", "DATA 1 2 end");
		assertThat(client.session.activeStreams()).isZero();
		assertThat(client.session.writeData(1, ascii("late"), true)).isEqualTo(-1);
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void requestContentAndTrailersAreDelivered(Feed feed) {
		SessionClient client = connected(feed);
		client.post(1, "content-length", "6").data(1, "abc", false).data(1, "def", false);
		FrameWriter.headers(pending(client), 1, client.block("checksum", "x1"), true, FrameType.MIN_MAX_FRAME_SIZE);
		client.send();
		assertThat(client.take()).containsExactly("request 1 POST /upload", "data 1 abcdef", "trailers 1 checksum=x1");
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void contentLongerOrShorterThanItsContentLengthResetsTheStream(Feed feed) {
		SessionClient client = connected(feed);
		client.post(1, "content-length", "2").data(1, "abc", true).send();
		// Split input may deliver the first bytes before the one too many.
		assertThat(client.take()).filteredOn((event) -> !event.startsWith("data")).containsExactly("request 1 POST /upload", "reset 1 PROTOCOL_ERROR",
				"RST_STREAM 1 PROTOCOL_ERROR");
		client.post(3, "content-length", "4").data(3, "abc", true).send();
		assertThat(client.take()).filteredOn((event) -> !event.startsWith("data")).containsExactly("request 3 POST /upload", "reset 3 PROTOCOL_ERROR",
				"RST_STREAM 3 PROTOCOL_ERROR");
		assertThat(client.open()).isTrue();
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void trailersWithoutEndStreamResetTheStream(Feed feed) {
		SessionClient client = connected(feed);
		client.post(1).data(1, "abc", false);
		FrameWriter.headers(pending(client), 1, client.block("checksum", "x1"), false, FrameType.MIN_MAX_FRAME_SIZE);
		client.send();
		assertThat(client.take()).containsExactly("request 1 POST /upload", "data 1 abc",
				"reset 1 PROTOCOL_ERROR", "RST_STREAM 1 PROTOCOL_ERROR");
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void aMalformedRequestResetsItsStreamOnly(Feed feed) {
		SessionClient client = connected(feed);
		client.request(1, true, ":method", "GET", ":path", "/", ":scheme", "https", ":authority", "a.test", "Upper", "x").send();
		assertThat(client.take()).containsExactly("RST_STREAM 1 PROTOCOL_ERROR");
		client.get(3, "/next").send();
		assertThat(client.take()).containsExactly("request 3 GET /next end");
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void aHeaderListOverTheLimitIsDecodedAndLeftToTheListener(Feed feed) {
		SessionClient client;
		Http2Limits limits = new Http2Limits(100, 65_535, 65_535, 16_384, 1_000, 16_384, 32, 1_000, 200, 30_000_000_000L,
				ParserLimits.DEFAULTS);
		client = new SessionClient(limits, feed).connect();
		client.take();
		client.request(1, true, ":method", "GET", ":scheme", "https", ":path", "/", "big", "x".repeat(2_000)).send();
		assertThat(client.take()).containsExactly("too large 1");
		client.get(3, "/next").send();
		assertThat(client.take()).containsExactly("request 3 GET /next end");
	}

	// Stream states (RFC 9113 §5.1)

	@ParameterizedTest
	@EnumSource(Feed.class)
	void framesOnIdleStreamsAreConnectionErrors(Feed feed) {
		assertThat(connected(feed).data(1, "x", true).send().take()).containsExactly("GOAWAY 0 PROTOCOL_ERROR");
		assertThat(connected(feed).rst(1, ErrorCode.CANCEL).send().take()).containsExactly("GOAWAY 0 PROTOCOL_ERROR");
		assertThat(connected(feed).windowUpdate(1, 1).send().take()).containsExactly("GOAWAY 0 PROTOCOL_ERROR");
		assertThat(connected(feed).raw(0, FrameType.CONTINUATION, FrameType.FLAG_END_HEADERS, 1).send().take())
			.containsExactly("GOAWAY 0 PROTOCOL_ERROR");
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void dataOnAHalfClosedStreamResetsIt(Feed feed) {
		SessionClient client = connected(feed);
		client.get(1, "/").data(1, "x", true).send();
		assertThat(client.take()).containsExactly("request 1 GET / end", "reset 1 STREAM_CLOSED",
				"RST_STREAM 1 STREAM_CLOSED");
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void framesOnAStreamTheClientClosedAreConnectionErrors(Feed feed) {
		SessionClient client = connected(feed);
		client.get(1, "/").send();
		client.session.writeHeaders(1, 204, new Headers(), true);
		client.read().take();
		client.data(1, "x", true).send();
		assertThat(client.take()).containsExactly("GOAWAY 1 STREAM_CLOSED");
		SessionClient reset = connected(feed);
		reset.post(1).rst(1, ErrorCode.CANCEL).get(1, "/again").send();
		assertThat(reset.take()).containsExactly("request 1 POST /upload", "reset 1 CANCEL by peer",
				"GOAWAY 1 STREAM_CLOSED");
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void framesInFlightOnAStreamTheServerResetAreIgnoredYetCreditedToTheConnection(Feed feed) {
		SessionClient client = connected(feed);
		client.post(1).send();
		client.take();
		client.session.reset(1, ErrorCode.CANCEL);
		client.read();
		// 70 frames of 16,000 bytes: more than the 1 MiB connection window, unless the ignored
		// content is credited back.
		for (int i = 0; i < 70; i++) {
			client.data(1, "x".repeat(16_000), false);
		}
		client.send();
		assertThat(client.take()).first().isEqualTo("RST_STREAM 1 CANCEL");
		client.read();
		assertThat(client.open()).isTrue();
		client.get(3, "/").send();
		assertThat(client.take()).last().isEqualTo("request 3 GET / end");
		assertThat(client.session.failure()).isNull();
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void aStreamIdBelowOneUsedIsAConnectionError(Feed feed) {
		SessionClient client = connected(feed);
		client.get(5, "/").get(3, "/").send();
		assertThat(client.take()).containsExactly("request 5 GET / end", "reset 5 PROTOCOL_ERROR",
				"GOAWAY 5 PROTOCOL_ERROR");
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void anEvenStreamIdIsAConnectionError(Feed feed) {
		assertThat(connected(feed).get(2, "/").send().take()).containsExactly("GOAWAY 0 PROTOCOL_ERROR");
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void streamsOverTheLimitAreRefused(Feed feed) {
		Http2Limits limits = new Http2Limits(2, 65_535, 65_535, 16_384, 16_384, 16_384, 4, 1_000, 200, 30_000_000_000L,
				ParserLimits.DEFAULTS);
		SessionClient client = new SessionClient(limits, feed).connect();
		client.take();
		client.post(1).post(3).post(5).send();
		assertThat(client.take()).containsExactly("request 1 POST /upload", "request 3 POST /upload",
				"RST_STREAM 5 REFUSED_STREAM");
		client.rst(1, ErrorCode.CANCEL).post(7).send();
		assertThat(client.take()).containsExactly("reset 1 CANCEL by peer", "request 7 POST /upload");
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void aStreamThatDependsOnItselfIsReset(Feed feed) {
		SessionClient client = connected(feed);
		client.raw(5, FrameType.PRIORITY, 0, 3, new byte[] { 0, 0, 0, 3, 16 }).send();
		assertThat(client.take()).containsExactly("RST_STREAM 3 PROTOCOL_ERROR");
		ByteBuffer block = client.block(":method", "GET", ":scheme", "https", ":path", "/");
		byte[] payload = new byte[5 + block.remaining()];
		payload[3] = 1;
		block.get(payload, 5, block.remaining());
		client.raw(payload.length, FrameType.HEADERS,
				FrameType.FLAG_END_HEADERS | FrameType.FLAG_END_STREAM | FrameType.FLAG_PRIORITY, 1, payload)
			.send();
		assertThat(client.take()).containsExactly("RST_STREAM 1 PROTOCOL_ERROR");
	}

	// Header blocks

	@ParameterizedTest
	@EnumSource(Feed.class)
	void aHeaderBlockMaySpanContinuationFrames(Feed feed) {
		SessionClient client = connected(feed);
		ByteBuffer block = client.block(":method", "GET", ":scheme", "https", ":authority", "a.test", ":path", "/split", "a", "b");
		byte[] bytes = new byte[block.remaining()];
		block.get(bytes);
		client.raw(3, FrameType.HEADERS, FrameType.FLAG_END_STREAM, 1, slice(bytes, 0, 3))
			.raw(0, FrameType.CONTINUATION, 0, 1)
			.raw(bytes.length - 3, FrameType.CONTINUATION, FrameType.FLAG_END_HEADERS, 1,
					slice(bytes, 3, bytes.length - 3))
			.send();
		assertThat(client.take()).containsExactly("request 1 GET /split end");
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void aFrameInsideAHeaderBlockIsAConnectionError(Feed feed) {
		assertThat(connected(feed).raw(1, FrameType.HEADERS, 0, 1, (byte) 0x82).ping(1).send().take())
			.containsExactly("GOAWAY 1 PROTOCOL_ERROR");
		assertThat(connected(feed).raw(1, FrameType.HEADERS, 0, 1, (byte) 0x82)
			.raw(0, 0x20, 0, 0)
			.send()
			.take()).containsExactly("GOAWAY 1 PROTOCOL_ERROR");
		assertThat(connected(feed).raw(1, FrameType.HEADERS, 0, 1, (byte) 0x82)
			.raw(0, FrameType.CONTINUATION, FrameType.FLAG_END_HEADERS, 3)
			.send()
			.take()).containsExactly("GOAWAY 1 PROTOCOL_ERROR");
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void aContinuationFloodIsCutAtTheFrameLimit(Feed feed) {
		SessionClient client = connected(feed);
		client.raw(1, FrameType.HEADERS, 0, 1, (byte) 0x82);
		for (int i = 0; i < 40; i++) {
			client.raw(0, FrameType.CONTINUATION, 0, 1);
		}
		assertThat(client.send().take()).containsExactly("GOAWAY 1 ENHANCE_YOUR_CALM");
		assertThat(client.session.failure().reason()).contains("More than 32 CONTINUATION frames");
		assertThat(client.session.failure().abuse()).isEqualTo(Abuse.HEADER_BLOCK);
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void anOversizedHeaderBlockIsCutBeforeItIsDecoded(Feed feed) {
		SessionClient client = connected(feed);
		client.raw(16_000, FrameType.HEADERS, 0, 1, new byte[16_000])
			.raw(1_000, FrameType.CONTINUATION, 0, 1, new byte[1_000]);
		assertThat(client.send().take()).containsExactly("GOAWAY 1 ENHANCE_YOUR_CALM");
		assertThat(client.session.failure().abuse()).isEqualTo(Abuse.HEADER_BLOCK);
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void anInvalidHeaderBlockIsACompressionError(Feed feed) {
		assertThat(connected(feed).raw(1, FrameType.HEADERS, FrameType.FLAG_END_HEADERS, 1, (byte) 0x80).send().take())
			.containsExactly("GOAWAY 1 COMPRESSION_ERROR");
	}

	// Flow control

	@ParameterizedTest
	@EnumSource(Feed.class)
	void responseContentWaitsForWindowUpdates(Feed feed) {
		SessionClient client = connected(feed);
		client.get(1, "/").send().take();
		client.session.writeHeaders(1, 200, new Headers(), false);
		ByteBuffer content = ByteBuffer.allocate(70_000);
		assertThat(client.session.writeData(1, content, true)).isEqualTo(65_535);
		assertThat(client.session.writable(1)).isZero();
		client.read().take();
		client.windowUpdate(1, 10_000).send();
		assertThat(client.take()).containsExactly("writable 1");
		assertThat(client.session.writable(1)).isZero();
		client.windowUpdate(0, 4_465).send();
		assertThat(client.take()).containsExactly("writable 0");
		assertThat(client.session.writeData(1, content, true)).isEqualTo(4_465);
		client.read();
		assertThat(client.take()).containsExactly("DATA 1 4465 end");
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void aSmallerInitialWindowMakesStreamWindowsNegative(Feed feed) {
		SessionClient client = connected(feed);
		client.get(1, "/").send().take();
		client.session.writeHeaders(1, 200, new Headers(), false);
		client.session.writeData(1, ByteBuffer.allocate(1_000), false);
		client.read().take();
		client.settings(new Settings().set(Settings.INITIAL_WINDOW_SIZE, 500)).send();
		assertThat(client.take()).containsExactly("SETTINGS ACK");
		client.windowUpdate(1, 400).send().take();
		assertThat(client.session.writable(1)).isZero();
		client.windowUpdate(1, 200).send().take();
		assertThat(client.session.writable(1)).isEqualTo(100);
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void windowsAbove2To31AreFlowControlErrors(Feed feed) {
		SessionClient stream = connected(feed);
		stream.get(1, "/").windowUpdate(1, Integer.MAX_VALUE).send();
		assertThat(stream.take()).containsExactly("request 1 GET / end", "reset 1 FLOW_CONTROL_ERROR",
				"RST_STREAM 1 FLOW_CONTROL_ERROR");
		SessionClient connection = connected(feed);
		connection.windowUpdate(0, Integer.MAX_VALUE).send();
		assertThat(connection.take()).containsExactly("GOAWAY 0 FLOW_CONTROL_ERROR");
		SessionClient initial = connected(feed);
		initial.get(1, "/").send().take();
		initial.windowUpdate(1, Integer.MAX_VALUE - 65_535).send().take();
		initial.settings(new Settings().set(Settings.INITIAL_WINDOW_SIZE, 65_536)).send();
		assertThat(initial.take()).containsExactly("reset 1 FLOW_CONTROL_ERROR", "GOAWAY 1 FLOW_CONTROL_ERROR");
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void aWindowUpdateOfZeroIsAnError(Feed feed) {
		SessionClient client = connected(feed);
		client.get(1, "/").raw(4, FrameType.WINDOW_UPDATE, 0, 1, new byte[4]).send();
		assertThat(client.take()).containsExactly("request 1 GET / end", "reset 1 PROTOCOL_ERROR",
				"RST_STREAM 1 PROTOCOL_ERROR");
		assertThat(client.raw(4, FrameType.WINDOW_UPDATE, 0, 0, new byte[4]).send().take()).containsExactly("GOAWAY 1 PROTOCOL_ERROR");
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void contentBeyondTheStreamWindowResetsTheStream(Feed feed) {
		SessionClient client = connected(feed);
		client.post(1);
		for (int i = 0; i < 5; i++) {
			client.data(1, "x".repeat(16_000), false);
		}
		client.send();
		assertThat(client.take()).filteredOn((event) -> !event.startsWith("data"))
			.containsExactly("request 1 POST /upload", "reset 1 FLOW_CONTROL_ERROR", "RST_STREAM 1 FLOW_CONTROL_ERROR");
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void readContentIsCreditedBackOnceHalfAWindowIsRead(Feed feed) {
		SessionClient client = connected(feed);
		client.post(1).data(1, "x".repeat(16_000), false).data(1, "x".repeat(16_000), false).send();
		client.take();
		client.session.consumed(1, 32_000);
		client.read();
		assertThat(client.take()).isEmpty();
		client.session.consumed(1, 1_000);
		client.read();
		assertThat(client.take()).isEmpty();
		client.data(1, "x".repeat(1_000), false).send().take();
		client.session.consumed(1, 1_000);
		client.read();
		assertThat(client.take()).containsExactly("WINDOW_UPDATE 1 33000");
	}

	// Closing

	@ParameterizedTest
	@EnumSource(Feed.class)
	void afterAGracefulGoAwayNewStreamsAreIgnoredAndOpenOnesGoOn(Feed feed) {
		SessionClient client = connected(feed);
		client.post(1).send().take();
		client.session.goAway("shutting down");
		client.read();
		assertThat(client.take()).containsExactly("GOAWAY 1 NO_ERROR");
		client.get(3, "/").data(1, "end", true).send();
		assertThat(client.take()).containsExactly("data 1 end end");
	}

	@Test
	void anUpgradedRequestIsStreamOneHalfClosed() throws Http2Exception {
		SessionClient client = new SessionClient(Feed.WHOLE);
		client.session.upgraded(null, new Settings().set(Settings.INITIAL_WINDOW_SIZE, 100));
		client.read().take();
		assertThat(client.session.writable(1)).isEqualTo(100);
		client.connect();
		assertThat(client.take()).containsExactly("SETTINGS ACK");
		client.get(1, "/").send();
		assertThat(client.take()).containsExactly("reset 1 STREAM_CLOSED", "RST_STREAM 1 STREAM_CLOSED");
	}

	@ParameterizedTest
	@EnumSource(Feed.class)
	void aConnectionErrorResetsTheDeliveredStreamsAndIgnoresWhatFollows(Feed feed) {
		SessionClient client = connected(feed);
		client.post(1).post(3).raw(0, FrameType.SETTINGS, 0, 1).get(5, "/").send();
		assertThat(client.take()).containsExactlyInAnyOrder("request 1 POST /upload", "request 3 POST /upload",
				"GOAWAY 3 PROTOCOL_ERROR", "reset 1 PROTOCOL_ERROR", "reset 3 PROTOCOL_ERROR");
		assertThat(client.session.receive(ByteBuffer.allocate(10))).isFalse();
	}

	private static SessionClient connected(Feed feed) {
		SessionClient client = new SessionClient(feed).connect();
		client.take();
		return client;
	}

	private static ByteBuffer ascii(String text) {
		return ByteBuffer.wrap(text.getBytes(StandardCharsets.ISO_8859_1));
	}

	private static byte[] slice(byte[] bytes, int from, int length) {
		byte[] slice = new byte[length];
		System.arraycopy(bytes, from, slice, 0, length);
		return slice;
	}

	private static ByteBuffer pending(SessionClient client) {
		return client.pending();
	}

}
