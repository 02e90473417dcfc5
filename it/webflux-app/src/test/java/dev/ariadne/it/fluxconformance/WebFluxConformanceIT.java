package dev.ariadne.it.fluxconformance;

import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import dev.ariadne.Flood;
import dev.ariadne.RawClient;
import dev.ariadne.RawResponse;
import dev.ariadne.server.IoModel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.AfterParameterizedClassInvocation;
import org.junit.jupiter.params.BeforeParameterizedClassInvocation;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The WebFlux conformance suite on Ariadne, in every I/O model, over real sockets: what a
 * WebFlux application and an HTTP operator expect of any server WebFlux runs on (the cases are
 * in {@link ExchangeCases}, {@link FramingCases}, {@link ErrorCases}, {@link StreamingCases},
 * {@link RequestFactsCases}, {@link TraceCases}, {@link RequestMeterCases} and
 * {@link WebSocketCases}), plus Ariadne's request meter tagged with WebFlux's route patterns, and
 * its WebSocket meters and back-pressure under a WebFlux handler.
 * One application per model serves all of its cases.
 */
@ParameterizedClass(name = "{0}")
@EnumSource(IoModel.class)
class WebFluxConformanceIT
		implements ExchangeCases, FramingCases, ErrorCases, StreamingCases, RequestFactsCases, TraceCases,
		RequestMeterCases, WebSocketCases {

	private static final int MAX_BODY_MEGABYTES = 32;

	private static FluxApp app;

	private final IoModel model;

	WebFluxConformanceIT(IoModel model) {
		this.model = model;
	}

	@BeforeParameterizedClassInvocation
	static void start(IoModel model) {
		// Reactor Netty sets no limit on a request body; Ariadne's default is 10 MB
		app = FluxApp.onAriadne(model, "ariadne.server.request.max-body-size=" + MAX_BODY_MEGABYTES + "MB");
	}

	@AfterParameterizedClassInvocation
	static void stop() {
		if (app != null) {
			app.close();
			app = null;
		}
	}

	@Override
	public FluxApp app() {
		assertThat(app.name()).isEqualTo(this.model.value());
		return app;
	}

	@Test
	void refusesABodyDeclaredOverTheLimitWith413() throws Exception {
		try (RawClient client = app.raw()) {
			RawResponse response = client.exchange("POST /count HTTP/1.1\r\nHost: 127.0.0.1\r\n"
					+ "Content-Type: application/octet-stream\r\nContent-Length: "
					+ (MAX_BODY_MEGABYTES + 1) * 1024L * 1024 + "\r\n\r\n");
			assertThat(response.status()).isEqualTo(413);
			assertThat(response.announcesClose()).isTrue();
		}
	}

	@Test
	void refusesAChunkOverTheLimitWith413AndCloses() throws Exception {
		// found as the handler reads the body: WebFlux gets the parser's status, not a 500
		try (RawClient client = app.raw()) {
			RawResponse response = client.exchange(FramingCases.CHUNKED_ECHO
					+ Long.toHexString((MAX_BODY_MEGABYTES + 1) * 1024L * 1024) + "\r\n");
			assertThat(response.status()).as("%s", response).isEqualTo(413);
			assertThat(response.announcesClose()).as("%s", response).isTrue();
			client.expectClosed();
		}
	}

	// Reactor Netty skips whitespace after a chunk size and echoes these bodies; Ariadne, as
	// Tomcat, refuses them, since parsers that skip it and parsers that stop at it disagree on
	// where the body ends
	@ParameterizedTest(name = "{0} -> 400")
	@MethodSource("dev.ariadne.AbstractProtocolIT#whitespaceAfterChunkSize")
	void refusesWhitespaceAfterAChunkSizeWith400AndCloses(String description, String body, String reason)
			throws Exception {
		try (RawClient client = app.raw()) {
			RawResponse response = client.exchange(FramingCases.CHUNKED_ECHO + body);
			assertThat(response.status()).as("%s", response).isEqualTo(400);
			assertThat(response.bodyText()).contains("\"status\":400").doesNotContain("hello");
			assertThat(response.announcesClose()).as("%s", response).isTrue();
			client.expectClosed();
		}
	}

	@Test
	void tagsTheRequestMeterWithTheRoutePatternNeverThePath() throws Exception {
		assertThat(app.get("/users/metered-42").statusCode()).isEqualTo(200);
		assertThat(app.get("/fn/items/metered-7").statusCode()).isEqualTo(200);
		HttpResponse<String> scrape = app.management("/actuator/prometheus");
		assertThat(scrape.statusCode()).isEqualTo(200);
		assertThat(scrape.body())
			.containsPattern("ariadne_requests_seconds_count\\{[^}]*listener=\"app\"[^}]*route=\"/users/\\{id\\}\"")
			.containsPattern("ariadne_requests_seconds_count\\{[^}]*listener=\"app\"[^}]*route=\"/fn/items/\\{id\\}\"")
			.doesNotContain("metered-42")
			.doesNotContain("metered-7");
	}

	@Test
	void countsEachAnswerUnderItsHandlersPatternIn200_404_418And500() throws Exception {
		for (List<String> answer : RequestMeterCases.ANSWERS) {
			assertThat(app.get(answer.get(0), "Accept", "application/json").statusCode()).as(answer.get(0))
				.isEqualTo(Integer.parseInt(answer.get(1)));
		}
		List<Map<String, String>> series = List.of();
		// a request is counted once its exchange ends, which may be after the client read it
		for (int i = 0; i < 50 && !allCounted(series); i++) {
			Thread.sleep((i == 0) ? 0 : 100);
			series = RequestMeterCases.series(app.management("/actuator/prometheus").body(),
					"ariadne_requests_seconds_count");
		}
		for (List<String> answer : RequestMeterCases.ANSWERS) {
			String pattern = answer.get(4);
			assertThat(series.stream()
				.filter((labels) -> labels.get("route").equals(pattern) && labels.get("method").equals("GET"))
				.toList()).as(answer.get(0))
				.containsExactly(Map.of("listener", "app", "method", "GET", "outcome", answer.get(2), "refusal", "none",
						"route", pattern, "status", answer.get(1)));
		}
		assertThat(series).noneMatch((labels) -> labels.get("route").contains("metered")
				|| labels.get("route").contains("earl-grey") || labels.get("route").equals("/error"));
	}

	private static boolean allCounted(List<Map<String, String>> series) {
		return RequestMeterCases.ANSWERS.stream()
			.allMatch((answer) -> series.stream()
				.anyMatch((labels) -> labels.get("route").equals(answer.get(4))
						&& labels.get("status").equals(answer.get(1))));
	}

	@Test
	void countsTheHandlersWebSocketSessionsAndMessagesInTheListenersMeters() throws Exception {
		int before = app.ariadneStats().webSocketSessions();
		long in = app.ariadneStats().webSocketMessages(true);
		try (JdkWebSocket client = JdkWebSocket.open(app.port(), "/ws/echo")) {
			client.socket.sendText("counted", true).get(20, TimeUnit.SECONDS);
			assertThat(client.next()).isEqualTo("counted");
			assertThat(app.ariadneStats().webSocketSessions()).isEqualTo(before + 1);
			assertThat(app.ariadneStats().webSocketMessages(true)).isGreaterThan(in);
			assertThat(app.management("/actuator/prometheus").body())
				.containsPattern("ariadne_websocket_sessions_active\\{[^}]*listener=\"app\"[^}]*\\} " + (before + 1) + "\\.0")
				.containsPattern("ariadne_connections_protocol\\{[^}]*protocol=\"websocket\"[^}]*\\} [1-9]");
			client.socket.sendClose(1000, "").get(20, TimeUnit.SECONDS);
			assertThat(client.closed().code()).isEqualTo(1000);
		}
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		while (app.ariadneStats().webSocketSessions() > before && System.nanoTime() < deadline) {
			Thread.sleep(20);
		}
		assertThat(app.ariadneStats().webSocketSessions()).isEqualTo(before);
	}

	@Test
	void aHandlerThatStopsReadingMakesTheServerStopReadingTheClient() throws Exception {
		WebSocketProbe probe = app.webSocketProbe();
		probe.reset();
		try (JdkWebSocket client = JdkWebSocket.open(app.port(), "/ws/slow")) {
			byte[] payload = new byte[16 * 1024];
			long total = 64L * 1024 * 1024;
			Flood flood = Flood.untilStalled(payload.length, total,
					() -> client.socket.sendBinary(ByteBuffer.wrap(payload), true).get());
			assertThat(flood.sent()).as("bytes the client could send to a handler that does not read").isLessThan(total);
			// what the handler's operators prefetched (concatMap's 32) and the one message held
			assertThat(probe.slowReceivedCount()).isBetween(1, 40);
			assertThat(app.ariadneStats().buffersUsed()).as("bytes the server holds").isLessThan(2L * 1024 * 1024);
			client.close();
			flood.join();
		}
	}

}
