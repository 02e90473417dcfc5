package dev.ariadne.it.fluxconformance;

import java.time.Duration;

import reactor.core.publisher.Flux;

import org.springframework.core.io.buffer.DataBuffer;
import org.springframework.core.io.buffer.DefaultDataBufferFactory;
import org.springframework.http.MediaType;
import org.springframework.http.codec.ServerSentEvent;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * Streams: server-sent events as they are produced (one held by a gate after its first event,
 * one that never ends), and a large byte stream of a known pattern.
 */
@RestController
class StreamController {

	/** Events of the gated stream. */
	static final int EVENTS = 20;

	/** Size of each buffer of {@code /stream/bytes}. */
	static final int BUFFER_SIZE = 64 * 1024;

	private final StreamProbe probe;

	StreamController(StreamProbe probe) {
		this.probe = probe;
	}

	@GetMapping(path = "/stream/gated", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	Flux<ServerSentEvent<String>> gated() {
		this.probe.reset();
		// ticks that come while the gate is closed wait in a buffer, as they would for a slow client
		return Flux.interval(Duration.ofMillis(10))
			.onBackpressureBuffer()
			.take(EVENTS)
			.delayUntil((i) -> (i == 1) ? this.probe.gate() : Flux.empty())
			.doOnNext((i) -> this.probe.produced())
			.map((i) -> ServerSentEvent.builder("event " + i).id(Long.toString(i)).build());
	}

	@GetMapping(path = "/stream/endless", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
	Flux<ServerSentEvent<String>> endless() {
		return Flux.interval(Duration.ofMillis(20))
			.map((i) -> ServerSentEvent.builder("tick " + i).build())
			.doOnCancel(this.probe::cancelled);
	}

	@GetMapping(path = "/stream/bytes", produces = MediaType.APPLICATION_OCTET_STREAM_VALUE)
	Flux<DataBuffer> bytes(@RequestParam("mb") int megabytes) {
		int buffers = megabytes * (1024 * 1024 / BUFFER_SIZE);
		return Flux.range(0, buffers)
			.map((i) -> DefaultDataBufferFactory.sharedInstance.wrap(pattern((long) i * BUFFER_SIZE, BUFFER_SIZE)));
	}

	@GetMapping(path = "/stream/text", produces = MediaType.TEXT_PLAIN_VALUE)
	Flux<String> text(@RequestParam("lines") int lines) {
		return Flux.range(0, lines).map(StreamController::line);
	}

	/**
	 * Returns what {@code /stream/text} sends.
	 * @param lines how many lines
	 * @return the text
	 */
	static String expectedText(int lines) {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < lines; i++) {
			text.append(line(i));
		}
		return text.toString();
	}

	private static String line(int i) {
		return "line " + i + ": the quick brown fox jumps over the lazy dog\n";
	}

	/**
	 * Returns the bytes of the pattern {@code /stream/bytes} sends, from an offset: each byte
	 * depends on its offset, so that a lost, repeated or reordered buffer changes the checksum.
	 * @param offset the offset of the first byte
	 * @param length how many bytes
	 * @return the bytes
	 */
	static byte[] pattern(long offset, int length) {
		byte[] bytes = new byte[length];
		for (int i = 0; i < length; i++) {
			long at = offset + i;
			bytes[i] = (byte) (at ^ (at >>> 8) ^ (at >>> 16));
		}
		return bytes;
	}

}
