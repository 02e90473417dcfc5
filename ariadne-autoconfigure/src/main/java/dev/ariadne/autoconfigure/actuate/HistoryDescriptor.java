package dev.ariadne.autoconfigure.actuate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.ariadne.server.diagnosis.Diagnosis;
import dev.ariadne.server.diagnosis.History;

import org.springframework.boot.actuate.endpoint.OperationResponseBody;

/**
 * The last minutes of every listener as its diagnosis sampled them, once a second, as the
 * {@code ariadne} endpoint serves them at {@code /actuator/ariadne/history}: one column of
 * values per figure, oldest first, which is what a chart reads.
 *
 * @param intervalMillis the time between two samples
 * @param listeners one entry per listener, the application's first
 */
public record HistoryDescriptor(long intervalMillis, List<ListenerHistory> listeners)
		implements OperationResponseBody {

	/**
	 * Describes the history of the given diagnoses.
	 * @param diagnoses the listeners' diagnoses
	 * @return the description
	 */
	static HistoryDescriptor of(List<Diagnosis> diagnoses) {
		List<ListenerHistory> listeners = new ArrayList<>();
		for (Diagnosis diagnosis : diagnoses) {
			listeners.add(ListenerHistory.of(diagnosis.history()));
		}
		return new HistoryDescriptor(Diagnosis.INTERVAL.toMillis(), listeners);
	}

	/**
	 * One listener's columns.
	 *
	 * @param listener the listener's name
	 * @param times when each sample was taken, epoch milliseconds
	 * @param connections open connections
	 * @param idle idle connections
	 * @param acceptQueue connections in the kernel's accept queue, {@code null} where unknown
	 * @param http2Streams HTTP/2 streams being served (running or waiting for a worker)
	 * @param http2Queued of those, the streams waiting for a worker
	 * @param webSocketSessions WebSocket sessions open
	 * @param pools each pool's columns
	 */
	public record ListenerHistory(String listener, List<Long> times, List<Integer> connections, List<Integer> idle,
			List<Long> acceptQueue, List<Integer> http2Streams, List<Integer> http2Queued, List<Integer> webSocketSessions,
			List<PoolHistory> pools) {

		static ListenerHistory of(History history) {
			List<Long> times = new ArrayList<>();
			List<Integer> connections = new ArrayList<>();
			List<Integer> idle = new ArrayList<>();
			List<Long> acceptQueue = new ArrayList<>();
			List<Integer> http2Streams = new ArrayList<>();
			List<Integer> http2Queued = new ArrayList<>();
			List<Integer> webSocketSessions = new ArrayList<>();
			Map<String, PoolHistory> pools = new LinkedHashMap<>();
			List<History.Sample> samples = history.samples();
			for (int i = 0; i < samples.size(); i++) {
				History.Sample sample = samples.get(i);
				times.add(sample.epochMillis());
				connections.add(sample.openConnections());
				idle.add(sample.idleConnections());
				acceptQueue.add((sample.acceptQueueDepth() >= 0) ? sample.acceptQueueDepth() : null);
				http2Streams.add(sample.http2Streams());
				http2Queued.add(sample.http2QueuedStreams());
				webSocketSessions.add(sample.webSocketSessions());
				for (History.PoolSample pool : sample.pools()) {
					pools.computeIfAbsent(pool.pool(), (name) -> PoolHistory.empty(name, samples.size()))
						.set(i, pool);
				}
			}
			return new ListenerHistory(history.listener(), times, connections, idle, acceptQueue, http2Streams,
					http2Queued, webSocketSessions, List.copyOf(pools.values()));
		}

	}

	/**
	 * One pool's columns; a value is {@code null} where the pool was not sampled.
	 *
	 * @param pool the pool's name
	 * @param busy busy workers
	 * @param max most workers
	 * @param saturation busy over max
	 * @param queued items waiting for a worker
	 * @param starved whether its verdict was starved
	 */
	public record PoolHistory(String pool, List<Integer> busy, List<Integer> max, List<Double> saturation,
			List<Integer> queued, List<Boolean> starved) {

		static PoolHistory empty(String pool, int size) {
			return new PoolHistory(pool, nulls(size), nulls(size), nulls(size), nulls(size), nulls(size));
		}

		private static <T> List<T> nulls(int size) {
			List<T> values = new ArrayList<>(size);
			for (int i = 0; i < size; i++) {
				values.add(null);
			}
			return values;
		}

		void set(int index, History.PoolSample sample) {
			this.busy.set(index, sample.busy());
			this.max.set(index, sample.max());
			this.saturation.set(index, Math.round(sample.saturation() * 1000) / 1000.0);
			this.queued.set(index, sample.queued());
			this.starved.set(index, sample.starved());
		}

	}

}
