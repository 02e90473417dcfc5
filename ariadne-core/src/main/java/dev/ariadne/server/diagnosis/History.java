package dev.ariadne.server.diagnosis;

import java.util.List;

/**
 * The last minutes of one listener as its {@link Diagnosis} sampled them, once a second, oldest
 * first: what a live page charts.
 *
 * @param listener the listener's name
 * @param intervalMillis the time between two samples
 * @param samples the samples, oldest first
 */
public record History(String listener, long intervalMillis, List<Sample> samples) {

	/**
	 * Copies the samples.
	 */
	public History {
		samples = List.copyOf(samples);
	}

	/**
	 * The listener at one moment.
	 *
	 * @param epochMillis when it was taken
	 * @param openConnections connections open
	 * @param idleConnections open connections between two requests
	 * @param acceptQueueDepth connections waiting in the kernel's accept queue, -1 where it
	 * cannot be read
	 * @param http2Streams HTTP/2 streams whose exchange runs or waits for a thread, 0 without
	 * HTTP/2
	 * @param http2QueuedStreams of those, the streams waiting for a thread
	 * @param webSocketSessions WebSocket sessions open
	 * @param pools every pool, the default one first
	 */
	public record Sample(long epochMillis, int openConnections, int idleConnections, long acceptQueueDepth,
			int http2Streams, int http2QueuedStreams, int webSocketSessions, List<PoolSample> pools) {

		/**
		 * Copies the pools.
		 */
		public Sample {
			pools = List.copyOf(pools);
		}

	}

	/**
	 * One pool at one moment.
	 *
	 * @param pool the pool's name
	 * @param busy busy workers
	 * @param max most workers
	 * @param queued items waiting for a worker
	 * @param starved whether the pool's verdict was starved then
	 */
	public record PoolSample(String pool, int busy, int max, int queued, boolean starved) {

		/**
		 * Returns the share of busy workers.
		 * @return busy over max, 0 to 1
		 */
		public double saturation() {
			return (this.max > 0) ? Math.min(1.0, (double) this.busy / this.max) : 0.0;
		}

	}

}
