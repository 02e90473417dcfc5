package dev.ariadne.it.fluxconformance;

import java.util.concurrent.atomic.AtomicInteger;

import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * What the tests watch of the application's streams: how many events the gated stream has
 * produced, the gate that holds it after its first event, and how many endless streams the
 * server cancelled.
 */
public class StreamProbe {

	private final AtomicInteger produced = new AtomicInteger();

	private final AtomicInteger cancelled = new AtomicInteger();

	private volatile Sinks.Empty<Void> gate = Sinks.empty();

	/**
	 * Closes the gate for the next gated stream and resets its count of produced events.
	 */
	void reset() {
		this.produced.set(0);
		this.gate = Sinks.empty();
	}

	/**
	 * Lets the gated stream go on past its first event.
	 */
	public void open() {
		this.gate.tryEmitEmpty();
	}

	Mono<Void> gate() {
		return this.gate.asMono();
	}

	void produced() {
		this.produced.incrementAndGet();
	}

	void cancelled() {
		this.cancelled.incrementAndGet();
	}

	/**
	 * Returns how many events the gated stream has produced since it started.
	 * @return the count
	 */
	public int producedCount() {
		return this.produced.get();
	}

	/**
	 * Returns how many endless streams were cancelled since the application started.
	 * @return the count
	 */
	public int cancelledCount() {
		return this.cancelled.get();
	}

}
