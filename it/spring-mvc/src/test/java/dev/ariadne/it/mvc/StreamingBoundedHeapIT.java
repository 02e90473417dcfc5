package dev.ariadne.it.mvc;

import java.io.IOException;
import java.io.InputStream;
import java.net.http.HttpResponse;
import java.net.http.HttpResponse.BodyHandlers;
import java.time.Duration;

import dev.ariadne.server.IoModel;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A 100 MB {@code StreamingResponseBody} to a slow reader, with a heap smaller than the body:
 * this class runs in a JVM of its own with {@code -Xmx96m} (the module's {@code bounded-heap}
 * failsafe execution), so a container that buffered the body, or let the application run
 * ahead of the reader, fails it with an {@link OutOfMemoryError} or the bound below.
 */
class StreamingBoundedHeapIT {

	private static final long SIZE = 100L * 1024 * 1024;

	/** The most the application may run ahead of the reader: socket buffers and a few chunks. */
	private static final long AHEAD = 32L * 1024 * 1024;

	@BeforeAll
	static void checkHeap() {
		assumeTrue(Boolean.getBoolean("ariadne.bounded-heap"),
				"runs in the module's bounded-heap failsafe execution, with -Xmx96m");
		assertThat(Runtime.getRuntime().maxMemory()).as("a heap smaller than the body").isLessThan(SIZE);
	}

	@ParameterizedTest
	@EnumSource(IoModel.class)
	void streamsAHundredMegabytesToASlowReaderWithABoundedHeap(IoModel model) throws Exception {
		try (ConformanceApp app = ConformanceApp.start(model)) {
			AsyncController controller = app.bean(AsyncController.class);
			HttpResponse<InputStream> response = ConformanceApp.client()
				.send(app.request("/async/stream?size=" + SIZE).build(), BodyHandlers.ofInputStream());
			assertThat(response.statusCode()).isEqualTo(200);
			try (InputStream body = response.body()) {
				long received = read(body, 1024 * 1024, 0);
				// the reader stops: the application must stop too, a few buffers ahead of it
				long ahead = awaitStall(controller) - received;
				assertThat(ahead).as("bytes written ahead of a reader that stopped").isLessThan(AHEAD);
				received = read(body, Long.MAX_VALUE, received);
				assertThat(received).isEqualTo(SIZE);
			}
		}
	}

	/** Reads at most {@code limit} more bytes, checking each against the pattern. */
	private static long read(InputStream body, long limit, long offset) throws IOException {
		byte[] buffer = new byte[64 * 1024];
		long position = offset;
		long end = (limit == Long.MAX_VALUE) ? Long.MAX_VALUE : offset + limit;
		while (position < end) {
			int count = body.read(buffer, 0, (int) Math.min(buffer.length, end - position));
			if (count < 0) {
				break;
			}
			for (int i = 0; i < count; i += 997) {
				if (buffer[i] != AsyncController.pattern(position + i)) {
					throw new AssertionError("Byte " + (position + i) + " is " + buffer[i]);
				}
			}
			position += count;
		}
		return position;
	}

	/**
	 * Waits until the application has stopped writing (two readings 250 ms apart agree), for at
	 * most 30 s, and returns how much it wrote.
	 */
	private static long awaitStall(AsyncController controller) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		long last = -1;
		while (System.nanoTime() - deadline < 0) {
			long now = controller.streamed();
			if (now == last) {
				return now;
			}
			last = now;
			Thread.sleep(250);
		}
		throw new AssertionError("The application never stopped writing for a reader that stopped reading; wrote "
				+ last + " bytes");
	}

}
