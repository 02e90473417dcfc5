package dev.ariadne.it.mvc;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;

import jakarta.annotation.PreDestroy;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.context.request.async.DeferredResult;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;
import org.springframework.web.servlet.mvc.method.annotation.StreamingResponseBody;

/**
 * Spring MVC's async return values: results completed by another thread, a timeout, server-sent
 * events and streamed bodies.
 */
@RestController
@RequestMapping("/async")
class AsyncController {

	private final ExecutorService threads = Executors.newCachedThreadPool((task) -> {
		Thread thread = new Thread(task, "conformance-app-async");
		thread.setDaemon(true);
		return thread;
	});

	private final Gate gate;

	private final AtomicLong streamed = new AtomicLong();

	AsyncController(Gate gate) {
		this.gate = gate;
	}

	@PreDestroy
	void stop() {
		this.threads.shutdownNow();
	}

	/**
	 * Returns how many bytes the streamed bodies have written so far, all requests together.
	 * @return the count
	 */
	long streamed() {
		return this.streamed.get();
	}

	@GetMapping("/deferred")
	DeferredResult<Map<String, String>> deferred(@RequestParam String value) {
		DeferredResult<Map<String, String>> result = new DeferredResult<>();
		this.threads.execute(() -> result.setResult(Map.of("value", value, "thread", Thread.currentThread().getName())));
		return result;
	}

	@GetMapping("/deferred-timeout")
	DeferredResult<String> deferredTimeout() {
		return new DeferredResult<>(200L);
	}

	@GetMapping("/deferred-error")
	DeferredResult<String> deferredError() {
		DeferredResult<String> result = new DeferredResult<>();
		this.threads.execute(() -> result.setErrorResult(new IllegalStateException("failed later")));
		return result;
	}

	@GetMapping(path = "/callable", produces = MediaType.TEXT_PLAIN_VALUE)
	Callable<String> callable() {
		return () -> "callable on " + Thread.currentThread().getName();
	}

	/**
	 * Sends {@code count} events; with {@code gated}, the first one alone, then the rest once
	 * the gate opens, so that a client sees events arrive before the stream ends.
	 */
	@GetMapping("/sse")
	SseEmitter sse(@RequestParam int count, @RequestParam(defaultValue = "false") boolean gated) {
		SseEmitter emitter = new SseEmitter(30_000L);
		this.threads.execute(() -> {
			try {
				for (int i = 0; i < count; i++) {
					emitter.send(SseEmitter.event().id(Integer.toString(i)).name("tick").data("event " + i));
					if (i == 0 && gated) {
						this.gate.pass();
					}
				}
				emitter.complete();
			}
			catch (IOException | RuntimeException ex) {
				emitter.completeWithError(ex);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				emitter.completeWithError(ex);
			}
		});
		return emitter;
	}

	@GetMapping("/emitter")
	ResponseBodyEmitter emitter(@RequestParam int count) {
		ResponseBodyEmitter emitter = new ResponseBodyEmitter();
		this.threads.execute(() -> {
			try {
				for (int i = 0; i < count; i++) {
					emitter.send(Map.of("n", i), MediaType.APPLICATION_JSON);
					emitter.send("\n", MediaType.TEXT_PLAIN);
				}
				emitter.complete();
			}
			catch (IOException | RuntimeException ex) {
				emitter.completeWithError(ex);
			}
		});
		return emitter;
	}

	/**
	 * Streams {@code size} bytes of {@link #pattern(long)} from Spring MVC's task executor.
	 */
	@GetMapping(path = "/stream", produces = MediaType.APPLICATION_OCTET_STREAM_VALUE)
	StreamingResponseBody stream(@RequestParam long size) {
		return (out) -> {
			byte[] chunk = new byte[32 * 1024];
			for (long written = 0; written < size;) {
				int length = (int) Math.min(chunk.length, size - written);
				for (int i = 0; i < length; i++) {
					chunk[i] = pattern(written + i);
				}
				out.write(chunk, 0, length);
				written += length;
				this.streamed.addAndGet(length);
			}
		};
	}

	/**
	 * Returns the byte at an offset of a streamed body.
	 * @param offset the offset
	 * @return the byte
	 */
	static byte pattern(long offset) {
		return (byte) ('a' + (offset % 26));
	}

}
