package dev.ariadne.autoconfigure.metrics;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.ariadne.server.stats.RequestEvent;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.distribution.CountAtBucket;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link AriadneRequestMetrics}.
 */
class AriadneRequestMetricsTest {

	private final MeterRegistry registry = new SimpleMeterRegistry();

	private final AriadneRequestMetrics metrics = new AriadneRequestMetrics(this.registry);

	@Test
	void recordsRequestsByRouteTemplateStatusAndOutcome() {
		this.metrics.onRequest(event("GET", "/api/user/{id}", 200, 3, 1));
		this.metrics.onRequest(event("GET", "/api/user/{id}", 200, 5, 0));
		this.metrics.onRequest(event("GET", RequestEvent.NOT_FOUND, 404, 1, 0));
		Timer ok = this.registry.get(AriadneRequestMetrics.REQUESTS)
			.tags("listener", "app", "method", "GET", "route", "/api/user/{id}", "status", "200", "outcome", "SUCCESS")
			.timer();
		assertThat(ok.count()).isEqualTo(2);
		assertThat(ok.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(8);
		Timer notFound = this.registry.get(AriadneRequestMetrics.REQUESTS)
			.tags("route", "NOT_FOUND", "status", "404", "outcome", "CLIENT_ERROR")
			.timer();
		assertThat(notFound.count()).isEqualTo(1);
	}

	@Test
	void aRefusalKeepsItsRouteAndSaysWhyInTheRefusalTag() {
		this.metrics.onRequest(event("GET", "/api/compute", 200, 3, 0));
		this.metrics.onRequest(new RequestEvent("app", "GET", "/api/compute", 503, 0, 0, "default", RequestEvent.REJECTED));
		this.metrics.onRequest(new RequestEvent("app", "GET", RequestEvent.INVALID, 431, 0, 0, "default",
				RequestEvent.INVALID));
		assertThat(this.registry.get(AriadneRequestMetrics.REQUESTS)
			.tags("route", "/api/compute", "status", "200", "refusal", "none")
			.timer()
			.count()).isEqualTo(1);
		assertThat(this.registry.get(AriadneRequestMetrics.REQUESTS)
			.tags("route", "/api/compute", "status", "503", "outcome", "SERVER_ERROR", "refusal", "REJECTED")
			.timer()
			.count()).isEqualTo(1);
		assertThat(this.registry.get(AriadneRequestMetrics.REQUESTS)
			.tags("route", "INVALID", "status", "431", "refusal", "INVALID")
			.timer()
			.count()).isEqualTo(1);
	}

	@Test
	void recordsQueueWaitPerListenerAndPool() {
		this.metrics.onRequest(event("GET", "/", 200, 1, 40));
		this.metrics.onRequest(new RequestEvent("app", "GET", "/api/compute", 200, ms(1), ms(7), "compute"));
		Timer wait = this.registry.get(AriadneRequestMetrics.POOL_QUEUE_WAIT).tags("listener", "app", "pool", "default")
			.timer();
		assertThat(wait.count()).isEqualTo(1);
		assertThat(wait.max(TimeUnit.MILLISECONDS)).isEqualTo(40);
		assertThat(this.registry.get(AriadneRequestMetrics.POOL_QUEUE_WAIT).tag("pool", "compute").timer().count())
			.isEqualTo(1);
	}

	@Test
	void publishesHistogramBucketsFromOneMillisecondToThirtySeconds() {
		this.metrics.onRequest(event("GET", "/", 200, 3, 0));
		CountAtBucket[] buckets = this.registry.get(AriadneRequestMetrics.REQUESTS).timer().takeSnapshot()
			.histogramCounts();
		assertThat(buckets).hasSize(AriadneRequestMetrics.BUCKETS.length);
		assertThat(buckets[0].bucket(TimeUnit.MILLISECONDS)).isEqualTo(1);
		assertThat(buckets[buckets.length - 1].bucket(TimeUnit.SECONDS)).isEqualTo(30);
	}

	@Test
	void boundsTheMethodTagAndNamesUnknownStatus() {
		this.metrics.onRequest(event("BREW", "/", 200, 1, 0));
		this.metrics.onRequest(event("GET", "/", 0, 1, 0));
		assertThat(this.registry.get(AriadneRequestMetrics.REQUESTS).tag("method", "OTHER").timer().count())
			.isEqualTo(1);
		assertThat(this.registry.get(AriadneRequestMetrics.REQUESTS).tags("status", "UNKNOWN", "outcome", "UNKNOWN")
			.timer()
			.count()).isEqualTo(1);
	}

	@Test
	void closeRemovesEveryTimer() {
		this.metrics.onRequest(event("GET", "/", 200, 1, 0));
		assertThat(this.registry.getMeters()).isNotEmpty();
		this.metrics.close();
		assertThat(this.registry.getMeters()).isEmpty();
	}

	private static RequestEvent event(String method, String route, int status, long millis, long waitMillis) {
		return new RequestEvent("app", method, route, status, ms(millis), ms(waitMillis), "default");
	}

	private static long ms(long millis) {
		return Duration.ofMillis(millis).toNanos();
	}

}
