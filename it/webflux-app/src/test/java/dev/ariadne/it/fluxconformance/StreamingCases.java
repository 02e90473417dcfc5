package dev.ariadne.it.fluxconformance;

import java.io.BufferedReader;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32;

import dev.ariadne.Await;
import dev.ariadne.RawClient;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Streams as WebFlux users rely on them: server-sent events that arrive as they are produced, a
 * large byte stream that reaches a slow reader whole, and a stream the server cancels when its
 * client goes away.
 */
interface StreamingCases {

	/**
	 * Returns the running application the cases talk to.
	 * @return the application
	 */
	FluxApp app();

	@Test
	default void deliversServerSentEventsAsTheyAreProduced() throws Exception {
		StreamProbe probe = app().probe();
		HttpResponse<InputStream> response = FluxApp.client()
			.send(app().request("/stream/gated").header("Accept", "text/event-stream").build(),
					HttpResponse.BodyHandlers.ofInputStream());
		assertThat(response.statusCode()).isEqualTo(200);
		assertThat(response.headers().firstValue("Content-Type"))
			.hasValueSatisfying((type) -> assertThat(type).startsWith("text/event-stream"));
		try (BufferedReader reader = new BufferedReader(
				new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
			List<String> ids = new ArrayList<>();
			List<String> data = new ArrayList<>();
			readEvent(reader, ids, data);
			// the stream waits at its gate after the first event, so this event was sent alone
			assertThat(ids).containsExactly("0");
			assertThat(probe.producedCount()).isEqualTo(1);
			probe.open();
			while (readEvent(reader, ids, data)) {
				// every event up to the end of the stream
			}
			assertThat(ids).hasSize(StreamController.EVENTS);
			for (int i = 0; i < StreamController.EVENTS; i++) {
				assertThat(ids.get(i)).isEqualTo(Integer.toString(i));
				assertThat(data.get(i)).isEqualTo("event " + i);
			}
		}
	}

	/**
	 * Reads one event (its lines up to the blank line that ends it).
	 * @return whether an event was read, {@code false} at the end of the stream
	 */
	private static boolean readEvent(BufferedReader reader, List<String> ids, List<String> data) throws Exception {
		String line;
		boolean any = false;
		while ((line = reader.readLine()) != null) {
			if (line.isEmpty()) {
				if (any) {
					return true;
				}
				continue;
			}
			any = true;
			if (line.startsWith("id:")) {
				ids.add(line.substring(3));
			}
			else if (line.startsWith("data:")) {
				data.add(line.substring(5));
			}
		}
		return false;
	}

	@Test
	default void streamsFiftyMegabytesIntactToAReaderThatStartsAtACrawl() throws Exception {
		int megabytes = 50;
		HttpResponse<InputStream> response = FluxApp.client()
			.send(app().request("/stream/bytes?mb=" + megabytes).build(), HttpResponse.BodyHandlers.ofInputStream());
		assertThat(response.statusCode()).isEqualTo(200);
		CRC32 received = new CRC32();
		long count = 0;
		try (InputStream body = response.body()) {
			byte[] buffer = new byte[16 * 1024];
			int n;
			while ((n = body.read(buffer, 0, (count < 3L * 1024 * 1024) ? 4096 : buffer.length)) >= 0) {
				received.update(buffer, 0, n);
				count += n;
				if (count < 3L * 1024 * 1024) {
					// the first 3 MB at a crawl: the server must hold the rest back, not fail
					Thread.sleep(1);
				}
			}
		}
		long size = (long) megabytes * 1024 * 1024;
		CRC32 expected = new CRC32();
		for (long offset = 0; offset < size; offset += StreamController.BUFFER_SIZE) {
			expected.update(StreamController.pattern(offset, StreamController.BUFFER_SIZE));
		}
		assertThat(count).isEqualTo(size);
		assertThat(received.getValue()).isEqualTo(expected.getValue());
	}

	@Test
	default void cancelsTheStreamWhenTheClientGoesAwayAndServesOthers() throws Exception {
		StreamProbe probe = app().probe();
		int before = probe.cancelledCount();
		try (RawClient client = RawClient.connect(app().port(), Duration.ofSeconds(10))) {
			client.send("GET /stream/endless HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n");
			String start = new String(client.peek(300), StandardCharsets.ISO_8859_1);
			assertThat(start).startsWith("HTTP/1.1 200 ").contains("tick 0");
		}
		Await.until(Duration.ofSeconds(10), () -> probe.cancelledCount() > before,
				() -> "endless streams cancelled: " + probe.cancelledCount() + ", before: " + before);
		assertThat(app().get("/users/after-cancel").body()).isEqualTo("{\"id\":\"after-cancel\"}");
	}

}
