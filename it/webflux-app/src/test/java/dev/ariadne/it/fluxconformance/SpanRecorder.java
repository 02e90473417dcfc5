package dev.ariadne.it.fluxconformance;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

import io.micrometer.tracing.exporter.FinishedSpan;
import io.micrometer.tracing.exporter.SpanReporter;

/**
 * Keeps the spans the application's tracer finished, in memory, as a span exporter would send
 * them, so that the tests can read what a trace holds.
 */
public class SpanRecorder implements SpanReporter {

	private final ConcurrentLinkedQueue<FinishedSpan> spans = new ConcurrentLinkedQueue<>();

	@Override
	public void report(FinishedSpan span) {
		this.spans.add(span);
	}

	/**
	 * Returns the spans finished so far in a trace.
	 * @param traceId the trace's id, in hex
	 * @return the spans, in the order they finished
	 */
	public List<FinishedSpan> spans(String traceId) {
		return this.spans.stream().filter((span) -> span.getTraceId().equals(traceId)).toList();
	}

}
